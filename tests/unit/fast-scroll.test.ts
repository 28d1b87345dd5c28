// Scroll up/down done by moving lines (src/screen/fast-scroll.ts) leaves the very buffer xterm's own handler does:
// every line's words, wrap flag and text, in both buffers, scrollback included, over seeded streams of scrolls
// mixed with coloured and wide text, combining marks, scroll regions, wraps and alternate-screen switches. Real
// @xterm/headless on both sides.
import { afterEach, describe, expect, it } from 'vitest';
import type { Terminal } from '@xterm/headless';
import { Prng } from '../helpers/hostile-streams.js';
import { core, dump, makeScreens, writeBare, writeOurs } from '../helpers/xterm-buffers.js';

const SEED = 0x5c7011;
const screens = makeScreens();
afterEach(() => screens.dispose());
const { ours, bare } = screens;

/** A seeded stream where scrolls at every count meet every kind of cell. */
function stream(r: Prng, rows: number, pieces: number): string {
  const colour = () =>
    r.pick([`\x1b[3${r.int(0, 7)}m`, `\x1b[4${r.int(0, 7)}m`, `\x1b[48;5;${r.int(0, 255)}m`, `\x1b[38;2;${r.int(0, 255)};1;2m`, '\x1b[0m', '\x1b[7m', '\x1b[4:3m\x1b[58;5;3m', '\x1b[1;2;3m']);
  const text = () => r.pick(['hello world ', 'x'.repeat(r.int(1, 200)), '日本語テキスト', `e${'\u0301'.repeat(r.int(1, 3))}`, '🙂 ok', '\t|']);
  let s = '';
  for (let i = 0; i < pieces; i++) {
    switch (r.int(0, 9)) {
      case 0:
      case 1:
        s += `\x1b[${r.pick(['', '0', '1', String(r.int(2, rows)), '9999', `${r.int(1, rows)}:2`])}${r.pick(['S', 'T'])}`;
        break;
      case 2:
        s += colour();
        break;
      case 3:
        s += `\x1b[${r.int(1, rows)};${r.int(1, 4)}H`;
        break;
      case 4:
        s += r.chance(0.5) ? `\x1b[${r.int(1, rows)};${r.int(1, rows)}r` : '\x1b[r';
        break;
      case 5:
        s += r.pick(['\r\n', '\n', '\x1bM', '\x1b[2K', '\x1b[J', '\x1b[2J', `\x1b[${r.int(1, rows)}L`, `\x1b[${r.int(1, rows)}M`, '\x1b#8', r.chance(0.2) ? '\x1bc' : '\x1b[3J']);
        break;
      case 6:
        if (r.chance(0.3)) s += r.pick(['\x1b[?1049h', '\x1b[?1049l', '\x1b[?47h', '\x1b[?47l']);
        else s += text();
        break;
      default:
        s += text();
    }
  }
  return s;
}

describe('fast scrolls and blank lines by copy leave the buffer xterm leaves', () => {
  it('seeded streams of scrolls among coloured, wide, combining and wrapped text, in regions and both buffers', async () => {
    const r = new Prng(SEED);
    for (let round = 0; round < 24; round++) {
      const cols = r.pick([20, 80, 133]);
      const rows = r.pick([5, 24, 40]);
      const a = ours(cols, rows);
      const b = bare(cols, rows);
      for (let k = 0; k < 6; k++) {
        const chunk = stream(r, rows, 60);
        await writeOurs(a, chunk);
        await writeBare(b, chunk);
      }
      expect(dump(a.term)).toEqual(dump(b));
    }
  });

  it('a scroll storm moves the pane\'s own lines instead of making new ones', async () => {
    const a = ours(80, 24);
    await writeOurs(a, 'a line\r\n'.repeat(30));
    const normal = core(a.term).normal;
    const before = new Set(Array.from({ length: 24 }, (_, y) => normal.lines.get(normal.ybase + y)));
    await writeOurs(a, '\x1b[9999S\x1b[9999T'.repeat(100));
    const after = Array.from({ length: 24 }, (_, y) => normal.lines.get(normal.ybase + y));
    expect(after.every((l) => before.has(l))).toBe(true);
    const b = bare(80, 24);
    await writeBare(b, 'a line\r\n'.repeat(30) + '\x1b[9999S\x1b[9999T'.repeat(100));
    expect(dump(a.term)).toEqual(dump(b));
  });

  it('both buffers make their blank lines by copy, and again after a reset made new ones', async () => {
    const a = ours(40, 10);
    const own = (t: Terminal) => Object.values(core(t)).filter((b) => Object.prototype.hasOwnProperty.call(b, 'getBlankLine')).length;
    expect(own(a.term)).toBeGreaterThanOrEqual(2); // normal and alt (active is one of them)
    await writeOurs(a, 'x\x1bc\x1b[?1049hy');
    expect(own(a.term)).toBeGreaterThanOrEqual(2);
  });

  it('alternate-screen flapping reuses the lines the alternate screen dropped, also across a resize, to xterm\'s very buffer', async () => {
    const a = ours(60, 12);
    const b = bare(60, 12);
    const alt = () => core(a.term).alt;
    const flap = (k: number) => `\x1b[?1049h\x1b[H\x1b[2J\x1b[4${k % 8}mframe ${k}\x1b[0m\x1b[?1049l`;
    await writeOurs(a, flap(0) + '\x1b[?1049h');
    const first = new Set(Array.from({ length: 12 }, (_, y) => alt().lines.get(y)));
    await writeOurs(a, '\x1b[?1049l' + flap(1) + '\x1b[?1049h');
    expect(Array.from({ length: 12 }, (_, y) => alt().lines.get(y)).every((l) => first.has(l))).toBe(true);
    await writeBare(b, flap(0) + '\x1b[?1049h\x1b[?1049l' + flap(1) + '\x1b[?1049h');
    expect(dump(a.term)).toEqual(dump(b));
    for (const t of [a.term, b]) t.resize(50, 14);
    const more = '\x1b[?1049l' + [2, 3, 4].map(flap).join('') + '\x1b[?1049hon alt';
    await writeOurs(a, more);
    await writeBare(b, more);
    expect(dump(a.term)).toEqual(dump(b));
  });

  it('with a marker on the buffer xterm scrolls (its splices move markers), and the marker moves as xterm moves it', async () => {
    const a = ours(40, 10);
    const b = bare(40, 10);
    const setup = 'one\r\ntwo\r\nthree\r\n\x1b[2;9r';
    await writeOurs(a, setup);
    await writeBare(b, setup);
    const ma = a.term.registerMarker(0)!;
    const mb = b.registerMarker(0)!;
    await writeOurs(a, '\x1b[3S\x1b[2T\x1b[9999S');
    await writeBare(b, '\x1b[3S\x1b[2T\x1b[9999S');
    expect(ma.line).toBe(mb.line);
    expect(ma.isDisposed).toBe(mb.isDisposed);
    expect(dump(a.term)).toEqual(dump(b));
  });
});
