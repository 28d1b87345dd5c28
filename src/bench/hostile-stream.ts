// The costliest output a program can print, as measured in a real @xterm/headless (src/screen/costly-sequences.ts):
// looping CSIs at absurd counts (plain and with colon sub-parameters), whole-screen erases and fills, alternate
// screen switches, resets, REP of a cell full of combining marks, insert-mode printing, line-feed floods, huge
// parameter lists and unterminated OSC/DCS strings. Used by the hostile bench case and the fuzz tests.
import { Prng } from './prng.js';

/** Sequences whose cost grows with the pane, not with their bytes. */
export const COSTLY_SEQUENCES: readonly string[] = [
  '\x1b[9999S',
  '\x1b[9999T',
  '\x1b[9999L',
  '\x1b[9999M',
  '\x1b[9999:1L',
  '\x1b[2147483647;2147483647S',
  '\x1b[2;3r\x1b[9999S\x1b[r',
  'x\x1b[9999b',
  `e${'\u0301'.repeat(200)}\x1b[9999b`,
  '\x1b[9999@',
  '\x1b[9999P',
  '\x1b[9999X',
  '\x1b[9999I',
  '\x1b[9999Z',
  "\x1b[9999'}",
  "\x1b[9999'~",
  '\x1b[2J',
  '\x1b[?2J',
  '\x1b#8',
  '\x1b[?1049h\x1b[?1049l',
  '\x1b[?47h\x1b[?47l',
  '\x1bc',
  '\x1b[H\x1bM\x1bM\x1bM',
];

/** Floods whose cost is per byte but high: kept to a few KB each. */
function flood(r: Prng): string {
  switch (r.int(0, 5)) {
    case 0:
      return '\n'.repeat(r.int(100, 4000));
    case 1:
      return `\x1b[4h${'x'.repeat(r.int(100, 4000))}\x1b[4l`;
    case 2:
      return `\x1b[${'1:'.repeat(r.int(100, 8000))}m`; // colon-separated parameters
    case 3:
      return `\x1b[${'9999;'.repeat(r.int(100, 8000))}L`; // a huge parameter list on a looping final
    case 4:
      return '\0'.repeat(r.int(100, 4000));
    default:
      return `e${'\u0301'.repeat(r.int(100, 4000))}`;
  }
}

/** About `chars` characters of costly sequences and floods, in a seeded order. */
export function hostileStream(r: Prng, chars: number): string {
  let s = '';
  while (s.length < chars) s += r.chance(0.9) ? r.pick(COSTLY_SEQUENCES) : flood(r);
  return s;
}

/** An OSC (or DCS, APC) string opened and never closed: `chars` of payload. */
export function unterminatedString(kind: 'osc' | 'dcs' | 'apc', chars: number): string {
  const intro = kind === 'osc' ? '\x1b]133;D;' : kind === 'dcs' ? '\x1bP$q' : '\x1b_G';
  return intro + 'A'.repeat(chars);
}
