// The bytes a terminal in raw mode sends for the keys `top` uses, as key names. Arrow and paging keys come as
// CSI or SS3 sequences (both cursor-key modes); a paste arrives between bracketed-paste marks (turned on by the
// terminal session) so a pasted line break cannot submit a half-written reply. Pure.

export type Key =
  | { name: 'char'; ch: string }
  | { name: 'paste'; text: string }
  | { name: 'up' | 'down' | 'left' | 'right' | 'home' | 'end' | 'pageup' | 'pagedown' | 'enter' | 'escape' | 'backspace' | 'tab' | 'delete' }
  | { name: 'ctrl-c' | 'ctrl-d' | 'ctrl-u' | 'ctrl-w' | 'ctrl-l' }
  | { name: 'unknown'; seq: string };

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** Final byte of a CSI / SS3 sequence → key; `~` sequences by their number. */
const FINAL: Record<string, Key['name']> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
const TILDE: Record<string, Key['name']> = { '1': 'home', '7': 'home', '4': 'end', '8': 'end', '5': 'pageup', '6': 'pagedown', '3': 'delete' };
const CONTROL: Record<string, Key['name']> = { '\r': 'enter', '\n': 'enter', '\t': 'tab', '\x7f': 'backspace', '\b': 'backspace', '\x03': 'ctrl-c', '\x04': 'ctrl-d', '\x15': 'ctrl-u', '\x17': 'ctrl-w', '\x0c': 'ctrl-l' };

/** One chunk of input as keys. A lone ESC (nothing after it in the chunk) is the Escape key. */
export function parseKeys(data: string): Key[] {
  const keys: Key[] = [];
  let i = 0;
  while (i < data.length) {
    if (data.startsWith(PASTE_START, i)) {
      const end = data.indexOf(PASTE_END, i + PASTE_START.length);
      const stop = end < 0 ? data.length : end;
      keys.push({ name: 'paste', text: data.slice(i + PASTE_START.length, stop) });
      i = end < 0 ? data.length : end + PASTE_END.length;
      continue;
    }
    const c = data[i]!;
    if (c === '\x1b') {
      const next = data[i + 1];
      if (next === '[' || next === 'O') {
        const m = /^[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]/.exec(data.slice(i + 2));
        if (m) {
          const seq = m[0];
          const final = seq[seq.length - 1]!;
          const name = final === '~' ? TILDE[seq.slice(0, -1).split(';')[0]!] : FINAL[final];
          keys.push(name ? ({ name } as Key) : { name: 'unknown', seq: data.slice(i, i + 2 + seq.length) });
          i += 2 + seq.length;
          continue;
        }
      }
      if (next === undefined || next === '\x1b') {
        keys.push({ name: 'escape' });
        i += 1;
        continue;
      }
      keys.push({ name: 'unknown', seq: data.slice(i, i + 2) }); // Alt+key: not used
      i += 2;
      continue;
    }
    const control = CONTROL[c];
    if (control) {
      keys.push({ name: control } as Key);
      i += c === '\r' && data[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    const cp = data.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    keys.push(cp < 0x20 ? { name: 'unknown', seq: ch } : { name: 'char', ch });
    i += ch.length;
  }
  return keys;
}
