// Terminal glyphs that common monospace fonts lack, drawn as a look-alike they have (issue 26: Claude Code's "⎿"
// under a tool call showed as an empty box: DejaVu Sans Mono, Menlo and Consolas have no U+23BF). Display only: the
// daemon's text, its history and every copy a person makes through the API keep the original characters.
const LOOKALIKE: Readonly<Record<string, string>> = {
  '⎿': '└', // U+23BF BOTTOM LEFT CORNER (Claude Code's tool result) → U+2514 box drawings light up and right
  '⎾': '┌', // U+23BE TOP LEFT CORNER
  '⏺': '●', // U+23FA BLACK CIRCLE FOR RECORD (Claude Code's tool call bullet) → U+25CF
  '⎡': '┌', // U+23A1..U+23A3: bracket pieces some TUIs draw boxes with
  '⎢': '│',
  '⎣': '└',
};
const RARE = new RegExp(`[${Object.keys(LOOKALIKE).join('')}]`, 'gu');

/** `text` with each glyph the page's fonts may lack replaced by its look-alike. */
export function drawable(text: string): string {
  return text.replace(RARE, (c) => LOOKALIKE[c] ?? c);
}
