// Row text read from xterm's internal lines (and remembered per row) must be exactly what xterm's own
// translateToString(true) gives, whatever the cells hold: wide and astral characters, combining marks, lone
// surrogates, a leading BOM, attribute-only redraws, rows that change and change back, resizes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaneScreen } from '../../src/screen/pane-screen.js';
import { RowText, type CoreLine } from '../../src/screen/row-text.js';
import { xtermInternals } from '../../src/screen/xterm-internals.js';
import { write } from '../helpers/screen.js';

let screens: PaneScreen[] = [];
afterEach(() => {
  for (const s of screens) s.dispose();
  screens = [];
});

function make(cols = 40, rows = 8) {
  const screen = new PaneScreen({ cols, rows });
  screens.push(screen);
  return screen;
}

/** Every visible row as xterm's public API spells it. */
function xtermRows(screen: PaneScreen): string[] {
  const buf = screen.term.buffer.active;
  const out: string[] = [];
  for (let y = 0; y < screen.term.rows; y++) out.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
  return out;
}

const ESC = '\x1b';
const home = (row: number, col = 1) => `${ESC}[${row};${col}H`;

describe('row text', () => {
  it('reads rows through the internal buffer on this xterm (else the test below proves nothing new)', () => {
    expect(xtermInternals(make().term).buffer).not.toBeNull();
  });

  const cases: Array<[string, string]> = [
    ['ascii and trailing blanks', 'hello world   \r\n  indented'],
    ['wide CJK characters', '漢字テスト wide\r\n全角'],
    ['astral emoji', 'done ✅ 🚀 ok\r\n𝄞 music'],
    ['combining marks and ZWJ sequences', 'e\u0301 cafe\u0301\r\n👩\u200d💻 dev'],
    ['a lone surrogate', 'bad \ud800 half\r\nalso \udc00 low'],
    ['box drawing and spinners', '╭──────╮\r\n│ ✻ Thinking… (12s) │\r\n╰──────╯'],
    ['attributes only', `${ESC}[1;31mred${ESC}[0m plain ${ESC}[7minverse${ESC}[0m`],
  ];
  for (const [name, text] of cases) {
    it(`matches translateToString: ${name}`, async () => {
      const screen = make();
      await write(screen, text);
      expect(screen.snapshot().lines).toEqual(xtermRows(screen));
    });
  }

  it('stays exact as rows are redrawn in place, recoloured, changed back, scrolled and resized', async () => {
    const screen = make(30, 6);
    const steps = [
      `${home(1)}spinner ⠋ working${home(3)}status line`,
      `${home(1)}spinner ⠙ working`,
      `${home(1)}${ESC}[32mspinner ⠙ working${ESC}[0m`, // same characters, new colour
      `${home(3)}${ESC}[2Kstatus changed`,
      `${home(3)}${ESC}[2Kstatus line`, // back to the text it had before
      `${home(2)}wide 漢字 then 🚀`,
      `${home(2)}wide 漢x then 🚀`, // a wide character overwritten by a narrow one
      `${home(6)}\r\nscrolled 1\r\nscrolled 2\r\nscrolled 3`,
      `${home(4)}e\u0301\u0301 combined twice`,
      `${home(4)}e\u0300\u0301 combined twice`, // same base character, another combining string
    ];
    for (const step of steps) {
      await write(screen, step);
      expect(screen.snapshot().lines, JSON.stringify(step)).toEqual(xtermRows(screen));
    }
    screen.resize(20, 4);
    await write(screen, `${home(1)}after resize`);
    expect(screen.snapshot().lines).toEqual(xtermRows(screen));
    screen.resize(50, 7);
    await write(screen, `${home(7)}wider now ✅`);
    expect(screen.snapshot().lines).toEqual(xtermRows(screen));
  });

  it('stays exact when scrolling moves rows up and down, inside a scroll region too, and reuses a moved row\'s text', async () => {
    const screen = make(30, 8);
    await write(screen, Array.from({ length: 8 }, (_, i) => `row ${i} ${'x'.repeat(i)}`).join('\r\n'));
    screen.snapshot();
    const steps = [
      '\r\nnew bottom', // the whole screen scrolls up one row
      `${ESC}[3;6r${home(6)}\r\nin region\r\nand again`, // a region (rows 3-6) scrolls up twice
      `${home(3)}${ESC}M${ESC}M`, // reverse index at the region's top: it scrolls down twice
      `${ESC}[r${home(1)}${ESC}[2L`, // whole screen again, two lines inserted at the top
      `${home(2)}${ESC}[3M`, // three deleted below the first
    ];
    for (const step of steps) {
      await write(screen, step);
      expect(screen.snapshot().lines, JSON.stringify(step)).toEqual(xtermRows(screen));
    }
    // One more plain scroll: only the new bottom row is spelled afresh; the rows that moved up keep their text.
    await write(screen, `${ESC}[2J${home(1)}${Array.from({ length: 8 }, (_, i) => `line ${i}`).join('\r\n')}`);
    screen.snapshot();
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    try {
      await write(screen, '\r\nline 8');
      expect(screen.snapshot().lines).toEqual(xtermRows(screen));
      expect(decode).toHaveBeenCalledTimes(1);
    } finally {
      decode.mockRestore();
    }
  });

  it('keeps a leading U+FEFF in a cell (a decoder would take it for a byte order mark)', () => {
    // xterm never stores a zero-width character in a cell of its own, so the line is built by hand.
    const cells = [0xfeff, 0x41, 0x20, 0x42];
    const data = new Uint32Array(cells.length * 3);
    cells.forEach((cp, x) => (data[x * 3] = cp | (1 << 22)));
    const line: CoreLine = { _data: data, length: cells.length, translateToString: () => 'xterm' };
    const rows = new RowText();
    rows.reset(1);
    expect(rows.read(0, line)).toBe('\ufeffA B');
  });

  it('reports only the rows whose text changed, not those xterm merely redrew', async () => {
    const screen = make(30, 6);
    await write(screen, `${home(1)}one${home(2)}two${home(3)}three`);
    screen.snapshot();
    await write(screen, `${home(1)}${ESC}[33mone${ESC}[0m${home(3)}THREE`);
    expect(screen.snapshot().changedRows).toEqual([2]);
  });
});
