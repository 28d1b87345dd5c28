// Line feeds that scroll a region reuse the line xterm would drop (src/screen/line-feed-scroll.ts) and leave the
// very buffer xterm's own scroll leaves: every line's words, wrap flag and text in both buffers, the scrollback,
// the viewport, markers. Real @xterm/headless on both sides, over seeded streams of line feeds in regions (at the
// top and lower down), wraps, erase colours, alternate screens, resizes and a person scrolled up.
import { afterEach, describe, expect, it } from 'vitest';
import { Prng } from '../helpers/hostile-streams.js';
import type { Terminal } from '@xterm/headless';
import { core, dump, makeScreens, writeBare, writeOurs } from '../helpers/xterm-buffers.js';

const SEED = 0x1f5c01;
const screens = makeScreens(30); // a small scrollback: it fills at once, and the region scrolls then trim it
afterEach(() => screens.dispose());
const { ours, bare } = screens;

/** The visible rows as the public API reads them. */
const viewport = (t: Terminal) => Array.from({ length: t.rows }, (_, y) => t.buffer.active.getLine(t.buffer.active.viewportY + y)?.translateToString(true) ?? '');

/** A seeded stream that sets regions and feeds lines through them, among the things a line may carry. */
function stream(r: Prng, rows: number, pieces: number): string {
  const line = () => r.pick(['hello world', 'x'.repeat(r.int(1, 150)), '日本語', `e${'\u0301'.repeat(r.int(1, 2))}`, '\x1b[4:3m\x1b[58;5;3mcurly\x1b[0m', '']);
  let s = '';
  for (let i = 0; i < pieces; i++) {
    switch (r.int(0, 9)) {
      case 0:
        // A region from the top (an agent's footer below it) or lower down (a header above it), or none.
        s += r.pick([`\x1b[1;${r.int(1, rows)}r`, `\x1b[${r.int(1, rows)};${r.int(1, rows)}r`, '\x1b[r']);
        break;
      case 1:
        s += `\x1b[${r.int(1, rows)};1H`;
        break;
      case 2:
        s += r.pick(['\x1b[41m', '\x1b[48;5;200m', '\x1b[0m', '\x1b[7m', '\x1b[32m']);
        break;
      case 3:
        s += r.chance(0.15) ? r.pick(['\x1b[?1049h', '\x1b[?1049l']) : '\x1bD\x1bE';
        break;
      default:
        s += `${line()}${r.pick(['\r\n', '\n', '\r\n\r\n'])}`.repeat(r.int(1, rows + 3));
    }
  }
  return s;
}

describe('line-feed scrolls in a region leave the buffer xterm leaves', () => {
  it('seeded streams of lines through regions, with wraps, colours, both buffers and resizes', async () => {
    const r = new Prng(SEED);
    for (let round = 0; round < 20; round++) {
      let cols = r.pick([20, 80, 133]);
      let rows = r.pick([3, 12, 40]);
      const a = ours(cols, rows);
      const b = bare(cols, rows);
      for (let k = 0; k < 8; k++) {
        const chunk = stream(r, rows, 40);
        await writeOurs(a, chunk);
        await writeBare(b, chunk);
        expect(dump(a.term), `round ${round} chunk ${k}`).toEqual(dump(b));
        // The screen's own reading (dirty rows only) sees every row the region scrolled.
        expect(a.snapshot().lines, `round ${round} chunk ${k}`).toEqual(viewport(b));
        if (r.chance(0.25)) {
          cols = r.pick([20, 57, 80]);
          rows = r.pick([4, 12, 25]);
          a.term.resize(cols, rows);
          b.resize(cols, rows);
        }
      }
    }
  });

  it('a full buffer scrolling a region makes no line: the row it brings in is the one it trimmed', async () => {
    const a = ours(40, 10);
    await writeOurs(a, 'filler\r\n'.repeat(60) + '\x1b[1;8r\x1b[8;1H');
    const normal = core(a.term).normal;
    const before = new Set(Array.from({ length: normal.lines.length }, (_, i) => normal.lines.get(i)));
    await writeOurs(a, 'streamed\r\n'.repeat(100));
    const after = Array.from({ length: normal.lines.length }, (_, i) => normal.lines.get(i));
    expect(after.every((l) => before.has(l))).toBe(true);
    const b = bare(40, 10);
    await writeBare(b, 'filler\r\n'.repeat(60) + '\x1b[1;8r\x1b[8;1H' + 'streamed\r\n'.repeat(100));
    expect(dump(a.term)).toEqual(dump(b));
  });

  it('a person scrolled up keeps the same text in view, and markers move and go as xterm moves them', async () => {
    const a = ours(30, 8);
    const b = bare(30, 8);
    const setup = 'old line\r\n'.repeat(50) + '\x1b[1;6r\x1b[6;1H';
    await writeOurs(a, setup);
    await writeBare(b, setup);
    a.term.scrollLines(-4);
    b.scrollLines(-4);
    const ma = [a.term.registerMarker(0)!, a.term.registerMarker(-20)!];
    const mb = [b.registerMarker(0)!, b.registerMarker(-20)!];
    for (const n of [1, 3, 10, 40]) {
      const lines = 'new line\r\n'.repeat(n) + '\x1b[3;7r\x1b[7;1H' + 'lower region\n'.repeat(n) + '\x1b[1;6r\x1b[6;1H';
      await writeOurs(a, lines);
      await writeBare(b, lines);
      expect(dump(a.term)).toEqual(dump(b));
      expect(ma.map((m) => [m.line, m.isDisposed])).toEqual(mb.map((m) => [m.line, m.isDisposed]));
    }
  });
});
