// Keys as people read them ("2", "↓ ↓ Enter", "y Enter", "Esc", "Ctrl-C") and as a terminal receives them. The
// printable form is what the API shows before sending and what history keeps; the bytes are what a source types.

/** Named keys; any other token is typed as its own characters. */
const NAMED: Record<string, string> = {
  Enter: '\r',
  Esc: '\x1b',
  Tab: '\t',
  Space: ' ',
  '↑': '\x1b[A',
  '↓': '\x1b[B',
  '→': '\x1b[C',
  '←': '\x1b[D',
  'Ctrl-C': '\x03',
  'Ctrl-D': '\x04',
};

const PRINTED: Record<string, string> = { '\r': 'Enter', '\n': 'Enter', '\x1b': 'Esc', '\t': 'Tab', '\x03': 'Ctrl-C', '\x04': 'Ctrl-D', '\x7f': 'Backspace' };
const PRINTED_SEQUENCES: Record<string, string> = { '\x1b[A': '↑', '\x1b[B': '↓', '\x1b[C': '→', '\x1b[D': '←' };

/** The bytes of each key of a printable key string, one entry per key (each is typed on its own). */
export function keyBytes(printable: string): string[] {
  return printable.split(' ').filter(Boolean).map((k) => NAMED[k] ?? k);
}

/** Typed text in printable form: runs of characters kept, keys named ("fix the tests Enter", "y Enter", "Esc"). */
export function printableKeys(bytes: string): string {
  const out: string[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push(text);
    text = '';
  };
  for (let i = 0; i < bytes.length; i++) {
    const seq = bytes.slice(i, i + 3);
    if (PRINTED_SEQUENCES[seq]) {
      flush();
      out.push(PRINTED_SEQUENCES[seq]);
      i += 2;
      continue;
    }
    const c = bytes[i]!;
    const named = PRINTED[c];
    if (named) {
      flush();
      out.push(named);
    } else if (c < ' ' || c === '\x9b') {
      flush();
      out.push(`\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
    } else text += c;
  }
  flush();
  return out.join(' ');
}
