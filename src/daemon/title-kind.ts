// A pane title's kind: its text without spinner frames, and whether a spinner leads it. A change of kind (`◐ Claude
// Code` → `✳ Claude Code`) may end a turn and makes the pane's next screen read prompt; a spinner frame (◐ → ◓)
// keeps the kind and is just animation.

/** Title glyphs that animate while a program works (braille, half circles), at the start of the title (sticky:
 * after test() its lastIndex is the prefix length, with no match array made for every frame). */
const TITLE_SPINNER = /\s*[⠀-⣿◐◑◒◓]\s*/uy;

export class TitleKind {
  private spins = false;
  private text = '';
  private last = '';

  /** Whether `title` is of another kind than the last one seen (and remembers it). */
  changed(title: string): boolean {
    if (title === this.last) return false;
    this.last = title;
    TITLE_SPINNER.lastIndex = 0;
    const spins = TITLE_SPINNER.test(title);
    const from = spins ? TITLE_SPINNER.lastIndex : 0;
    // A spinner frame keeps the kind: compared in place, without cutting a string per frame.
    if (spins === this.spins && title.length - from === this.text.length && title.endsWith(this.text)) return false;
    this.spins = spins;
    this.text = title.slice(from);
    return true;
  }
}
