// Secrets masked on the logical line: a terminal wraps a long line over several rows, so a key can be split by the
// wrap (a `ghp_` token 18/22, an AKIA id 10/10, the tail of an `sk-ant-` key on the next row) and no row alone shows
// a key's shape. Rows that continue the row above (xterm's isWrapped) are joined, the joined line is masked by the
// same passes as redactText, and the mask is cut back into the rows it covered, each keeping its place. What was
// hidden in a wrapped line is also given back as fragments (the pieces each row showed), so text read from one row
// elsewhere (a question's line, a transition's line) is masked the same way.
import { MASK, REDACT_STEPS, redactText } from './redact.js';

/** One screen row; `wrapped`: it continues the row above (the same logical line). */
export interface ScreenRow {
  text: string;
  wrapped: boolean;
}

/** A piece of a wrapped secret shorter than this, alone on its row, is left to show: 1-3 characters of a key give
 * nothing away, and masking every such short string wherever it appears in a line would hide ordinary words. */
const MIN_FRAGMENT = 4;
/** A logical line is joined in pieces of at most this many characters, cut at row boundaries: a key is at most a
 * few hundred characters (redact.ts KEY_MAX), and a screen-long wrapped line (a minified file, 1000x1000 of it) must
 * cost linear time, not one huge join. */
const MAX_JOINED_CHARS = 16 << 10;

export interface RedactedRows {
  /** The rows with every secret masked, one per row given, in order. */
  rows: string[];
  /** Pieces of secrets that a wrap split (what each row showed of one), for maskFragments. */
  fragments: string[];
}

/** Masks `rows` on their logical lines. `fragmentsOnly`: only the fragments are wanted (rows alone on their line,
 * which give none, are not masked: `rows` is then empty). */
export function redactRows(rows: readonly ScreenRow[], fragmentsOnly = false): RedactedRows {
  const out: string[] = [];
  const fragments = new Set<string>();
  for (let i = 0; i < rows.length; ) {
    let j = i + 1;
    while (j < rows.length && rows[j]!.wrapped) j++;
    if (j - i === 1) {
      if (!fragmentsOnly) out.push(redactText(rows[i]!.text));
    }
    else {
      for (let a = i; a < j; ) {
        let b = a + 1;
        for (let n = rows[a]!.text.length; b < j && n + rows[b]!.text.length <= MAX_JOINED_CHARS; b++) n += rows[b]!.text.length;
        for (const r of redactWrapped(rows.slice(a, b).map((r) => r.text))) {
          if (!fragmentsOnly) out.push(r.text);
          for (const f of r.hidden) if (f.trim().length >= MIN_FRAGMENT) fragments.add(f.trim());
        }
        a = b;
      }
    }
    i = j;
  }
  return { rows: out, fragments: [...fragments] };
}

/** `text` (one row's worth, read from the screen) with every fragment of a wrapped secret masked, after redactText. */
export function maskFragments(text: string, fragments: readonly string[]): string {
  let out = redactText(text);
  // Longest first: a fragment inside a longer one must not leave the longer one's rest showing.
  for (const f of [...fragments].sort((a, b) => b.length - a.length)) if (out.includes(f)) out = out.split(f).join(MASK);
  return out;
}

/** The rows of one logical line, masked as one line: each row's text and the pieces of it that were hidden. */
function redactWrapped(rows: string[]): Array<{ text: string; hidden: string[] }> {
  const line = rows.join('');
  const hidden = hiddenChars(line);
  const result: Array<{ text: string; hidden: string[] }> = [];
  let at = 0;
  for (const row of rows) {
    let text = '';
    const pieces: string[] = [];
    let piece = '';
    for (let k = at; k < at + row.length; k++) {
      if (hidden[k]) {
        if (!piece) text += MASK;
        piece += line[k];
      } else {
        if (piece) pieces.push(piece);
        piece = '';
        text += line[k];
      }
    }
    if (piece) pieces.push(piece);
    result.push({ text, hidden: pieces });
    at += row.length;
  }
  return result;
}

/**
 * Which characters of `s` redactText hides: each pass's matches are replaced as redactText replaces them, and the
 * characters a replacement drops (what lies between the part it keeps at the start and the part it keeps at the
 * end) are marked, followed through the passes by where each character of the text being masked came from.
 */
export function hiddenChars(s: string): boolean[] {
  const hidden = new Array<boolean>(s.length).fill(false);
  let cur = s;
  /** For each character of `cur`, its index in `s` (-1: a mask a pass put in). */
  let from = Array.from({ length: s.length }, (_, i) => i);
  for (const [re, to] of REDACT_STEPS) {
    re.lastIndex = 0;
    let next = '';
    const nextFrom: number[] = [];
    let last = 0;
    for (let m = re.exec(cur); m; m = re.exec(cur)) {
      const match = m[0];
      if (match === '') {
        re.lastIndex++;
        continue;
      }
      const rep = to(match, ...(m.slice(1) as string[]));
      next += cur.slice(last, m.index);
      copy(nextFrom, from, last, m.index);
      const at = m.index;
      if (rep === match) {
        next += match;
        copy(nextFrom, from, at, at + match.length);
      } else {
        let p = 0;
        while (p < match.length && p < rep.length && match[p] === rep[p]) p++;
        let q = 0;
        while (q < match.length - p && q < rep.length - p && match[match.length - 1 - q] === rep[rep.length - 1 - q]) q++;
        for (let k = at + p; k < at + match.length - q; k++) if (from[k]! >= 0) hidden[from[k]!] = true;
        next += rep;
        copy(nextFrom, from, at, at + p);
        for (let k = 0; k < rep.length - p - q; k++) nextFrom.push(-1);
        copy(nextFrom, from, at + match.length - q, at + match.length);
      }
      last = at + match.length;
    }
    next += cur.slice(last);
    copy(nextFrom, from, last, from.length);
    cur = next;
    from = nextFrom;
  }
  return hidden;
}

/** Appends `src[a..b)` to `dst` (a loop: a spread of a long row's worth would overflow the stack). */
function copy(dst: number[], src: readonly number[], a: number, b: number): void {
  for (let k = a; k < b; k++) dst.push(src[k]!);
}
