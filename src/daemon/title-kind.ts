// A pane title's kind: its text without spinner frames, and whether a spinner leads it. A change of kind (`◐ Claude
// Code` → `✳ Claude Code`) may end a turn and makes the pane's next screen read prompt; a spinner frame (◐ → ◓)
// keeps the kind and is just animation.

import { isBlank } from '../queue/normalize.js';

/** A title glyph that animates while a program works: braille (⠀-⣿) or a half circle (◐◑◒◓). */
function isSpinnerGlyph(c: number): boolean {
  return (c >= 0x2800 && c <= 0x28ff) || (c >= 0x25d0 && c <= 0x25d3);
}

/** Length of the title's leading spinner glyph with the blanks before and after it (what `^\s*[⠀-⣿◐◑◒◓]\s*`
 * matches), or -1 if it has none. Scanned by hand: it runs for every spinner frame of every pane. */
export function spinnerPrefix(title: string): number {
  const n = title.length;
  let i = 0;
  while (i < n && isBlank(title.charCodeAt(i))) i++;
  if (i >= n || !isSpinnerGlyph(title.charCodeAt(i))) return -1;
  i++;
  while (i < n && isBlank(title.charCodeAt(i))) i++;
  return i;
}

export class TitleKind {
  private spins = false;
  private text = '';
  private last = '';

  /** Whether `title` is of another kind than the last one seen (and remembers it). */
  changed(title: string): boolean {
    if (title === this.last) return false;
    this.last = title;
    const prefix = spinnerPrefix(title);
    const spins = prefix >= 0;
    const from = spins ? prefix : 0;
    // A spinner frame keeps the kind: compared in place, without cutting a string per frame.
    if (spins === this.spins && title.length - from === this.text.length && title.endsWith(this.text)) return false;
    this.spins = spins;
    this.text = title.slice(from);
    return true;
  }
}
