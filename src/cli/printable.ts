// What the CLI prints of other programs' text — pane names, titles, commands, screen lines, log records, task
// prompts, the daemon's error texts — passes through here first. A name of `\e]0;evil\a\e[2J` must show as those
// characters, not retitle and clear the person's terminal: every control character (C0, DEL, C1: 0x9b is CSI to
// some terminals) becomes a visible escape, and the Unicode format characters that reorder or hide text (bidi
// overrides and isolates, line/paragraph separators) too.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw of CONTROL (it escapes C0 in strings; C0 outside strings is its own indent). */
const JSON_RAW = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\x1b': '\\e' };

function escape(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/** One line of foreign text, safe to print: control characters shown as escapes (`\e`, `\x07`, `\n`). */
export function printable(s: string): string {
  return s.replace(CONTROL, escape);
}

/** Several lines (a message listing panes): each line made printable, the line breaks kept. */
export function printableLines(s: string): string {
  return s.split('\n').map(printable).join('\n');
}

/** A file's text as the person wrote it (a diff of their config): printable lines, with tabs kept as tabs. */
export function printableFile(s: string): string {
  return s.split('\n').map((l) => l.split('\t').map(printable).join('\t')).join('\n');
}

/** JSON for a terminal: JSON.stringify escapes C0 but leaves DEL, C1 and the format characters raw; these become
 * \u escapes, so the output is the same JSON value and prints inertly. */
export function printableJson(v: unknown, indent?: number): string {
  return JSON.stringify(v, null, indent).replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
