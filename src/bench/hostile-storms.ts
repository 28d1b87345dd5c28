// The storms the hostile bench sends, one pane each (issue 27, items 2 and 6): what a program can print that costs
// the daemon most per byte or per second. Each is a generator of pty-sized chunks, endless, seeded.
import { hostileStream, unterminatedString } from './hostile-stream.js';
import { Prng } from './prng.js';

export const STORMS = ['costly', 'scroll', 'titles', 'altscreen', 'marks', 'joins'] as const;
export type Storm = (typeof STORMS)[number];

/** What each storm is, for the report. */
export const STORM_TEXT: Record<Storm, string> = {
  costly: 'the costliest sequences (hostile-stream.ts), with 1 MB OSC strings left open',
  scroll: 'ESC[9999S / ESC[9999T pairs',
  titles: 'title spam (OSC 0/2, kinds flipping)',
  altscreen: 'alternate-screen flapping (?1049h/l with a line each)',
  marks: 'forged OSC 133 marks (A B C D;0, no nonce), one command each',
  joins: 'pane links joining at once, each with a prompt, then leaving',
};

/** One read of a pty. */
export const STORM_CHUNK = 4 << 10;
/** The costly storm leaves a 1 MB OSC string open every this many chunks (the next chunk's ESC aborts it). */
const OPEN_STRING_EVERY = 256;

/** An endless source of chunks for a byte storm (all but `joins`). */
export function stormChunks(storm: Exclude<Storm, 'joins'>, seed: number): () => string {
  const r = new Prng(seed);
  let i = 0;
  const fill = (unit: (k: number) => string) => {
    let s = '';
    while (s.length < STORM_CHUNK) s += unit(i++);
    return s;
  };
  switch (storm) {
    case 'costly':
      return () => (++i % OPEN_STRING_EVERY === 0 ? unterminatedString('osc', 1 << 20) : hostileStream(r, STORM_CHUNK));
    case 'scroll':
      return () => fill(() => '\x1b[9999S\x1b[9999T');
    case 'titles': {
      const titles = ['✳ Claude Code', '⠂ Claude Code', '◐ Claude Code', 'bash', 'vim notes.txt'];
      return () => fill((k) => `\x1b]${k % 2 ? 0 : 2};${titles[k % titles.length]} ${k}\x07`);
    }
    case 'altscreen':
      return () => fill((k) => `\x1b[?1049h\x1b[H\x1b[2Jframe ${k}\x1b[?1049l`);
    case 'marks':
      return () => fill((k) => `\x1b]133;A\x07$ \x1b]133;B\x07\x1b]133;C\x07out ${k}\r\n\x1b]133;D;0\x07`);
  }
}

/** A file of `bytes` of scroll pairs: the wrapper-exit measurement's program `cat`s it. */
export function scrollPairs(bytes: number): string {
  return '\x1b[9999S\x1b[9999T'.repeat(Math.ceil(bytes / 14));
}
