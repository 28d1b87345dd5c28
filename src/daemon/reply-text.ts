// A reply is text the person means to be read, never keys: a control character in it would act instead (Ctrl-C
// interrupts without the interrupt's state and revision checks, ESC [201~ ends the bracketed paste early and what
// follows runs as typed keys, ESC [Z is Shift-Tab, an agent's mode switch, Ctrl-U erases the line). So a reply with
// one is refused, naming it; only the named actions (answer, interrupt) send keys.
//
// Allowed: line breaks (\n, \r\n and \r, made \n) and Tab. Both go inside a bracketed paste, where the program
// reads them as the text of the paste (a new line, an indent), not as Enter or completion; a pane that has
// bracketed paste off cannot take them as text, and the reply is refused there (pane-actions.ts).
// Refused: the rest of C0 (U+0000-U+001F, ESC among them), DEL (U+007F) and C1 (U+0080-U+009F: U+009B is a
// one-character CSI to an 8-bit terminal).

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const NAMES: Record<number, string> = { 0x03: 'Ctrl-C', 0x04: 'Ctrl-D', 0x15: 'Ctrl-U', 0x1a: 'Ctrl-Z', 0x1b: 'Esc', 0x7f: 'Delete', 0x9b: 'CSI' };

/** Why `text` cannot be a reply (the first control character in it, named), or null when it is text. */
export function replyTextProblem(text: string): string | null {
  const m = CONTROL.exec(text);
  if (!m) return null;
  const code = m[0].charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = NAMES[code] ?? (code < 0x20 ? `Ctrl-${String.fromCharCode(code + 0x40)}` : 'a C1 control');
  return `a reply is text: it holds a control character (${hex}, ${name}) at position ${m.index}; keys are sent only by the named actions (answer, interrupt)`;
}

/** Text that goes as a bracketed paste: a line break or a Tab in it is the paste's text, not a key. */
export function needsPaste(text: string): boolean {
  return text.includes('\n') || text.includes('\t');
}
