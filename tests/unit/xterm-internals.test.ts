// The contract with @xterm/headless's internals (src/screen/xterm-internals.ts): on the pinned version every shape
// is found and behaves as the pipeline relies on, loudly failing when an update changes one; and the public-API
// path (every internal refused) reads the same screens from the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import xtermHeadless from '@xterm/headless';
import { PaneScreen } from '../../src/screen/pane-screen.js';
import { XTERM_VERSIONS_CHECKED, xtermInternals } from '../../src/screen/xterm-internals.js';
import { RowText } from '../../src/screen/row-text.js';
import { parseCast } from '../../src/attach/asciicast.js';
import { write } from '../helpers/screen.js';

const { Terminal } = xtermHeadless;
const ROOT = path.resolve(__dirname, '../..');
const terms: Array<{ dispose(): void }> = [];
afterEach(() => {
  for (const t of terms.splice(0)) t.dispose();
});
const term = (cols = 40, rows = 6) => {
  const t = new Terminal({ cols, rows, allowProposedApi: true, logLevel: 'off' });
  terms.push(t);
  return t;
};

describe('xterm internals: the contract with the pinned version', () => {
  it('package.json pins @xterm/headless exactly, to a version the shapes were checked on, and that one is installed', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const pinned = pkg.dependencies['@xterm/headless']!;
    expect(pinned, 'an exact version, not a range').toMatch(/^\d+\.\d+\.\d+$/);
    expect(XTERM_VERSIONS_CHECKED).toContain(pinned);
    const require = createRequire(import.meta.url);
    const installed = (JSON.parse(fs.readFileSync(require.resolve('@xterm/headless/package.json'), 'utf8')) as { version: string }).version;
    expect(installed).toBe(pinned);
  });

  it('every internal is found on this version (else the pipeline silently runs the slower public path)', () => {
    const i = xtermInternals(term());
    expect(i.parser, 'parser').not.toBeNull();
    expect(i.userInput, 'userInput').not.toBeNull();
    expect(i.onRefreshRows, 'onRefreshRows').not.toBeNull();
    expect(i.handlers, 'handlers').not.toBeNull();
    expect(i.buffer, 'buffer').not.toBeNull();
    expect(i.payloadHandlers, 'payloadHandlers').not.toBeNull();
    expect(i.scroll, 'scroll').not.toBeNull();
    expect(i.buffers, 'buffers').not.toBeNull();
    expect(i.lineFeeds, 'lineFeeds').not.toBeNull();
  });

  it('parser.parse puts the text on the screen at once, and onRefreshRows reports the rows it touched as numbers', () => {
    const t = term();
    const i = xtermInternals(t);
    const reported: Array<[number, number]> = [];
    const sub = i.onRefreshRows!((from, to) => reported.push([from, to]));
    void i.parser!.parse('\x1b[4;1Hrow four');
    sub.dispose();
    expect(t.buffer.active.getLine(3)!.translateToString(true)).toBe('row four');
    expect(reported.length).toBeGreaterThan(0);
    for (const [from, to] of reported) {
      expect(typeof from).toBe('number');
      expect(typeof to).toBe('number');
    }
    expect(Math.min(...reported.map((r) => r[0]))).toBeLessThanOrEqual(3);
    expect(Math.max(...reported.map((r) => r[1]))).toBeGreaterThanOrEqual(3);
  });

  it('userInput.handleUserInput makes the next write parse before write() returns', () => {
    const t = term();
    xtermInternals(t).userInput!.handleUserInput();
    t.write('now');
    expect(t.buffer.active.getLine(0)!.translateToString(true)).toBe('now');
  });

  it('handlers see the parameter store and may change a count before xterm’s own handler runs', () => {
    const t = term();
    const i = xtermInternals(t);
    const sub = i.handlers!.registerCsiHandler({ final: 'C' }, (p) => {
      (p as unknown as { params: Int32Array }).params[0] = 2; // CUF 30 becomes CUF 2
      return false;
    });
    void i.parser!.parse('\x1b[30Cx');
    sub.dispose();
    expect(t.buffer.active.getLine(0)!.translateToString(true)).toBe('  x');
  });

  it('buffer lines hold three words per cell, read by RowText exactly as translateToString(true)', () => {
    const t = term();
    const i = xtermInternals(t);
    void i.parser!.parse('héllo 漢字 🙂 e\u0301\r\nsecond');
    const core = i.buffer!();
    const rt = new RowText();
    rt.reset(6);
    for (let y = 0; y < 2; y++) {
      const line = core.lines.get(core.ydisp + y)!;
      expect(line._data.length).toBe(3 * t.cols);
      expect(rt.read(y, line)).toBe(t.buffer.active.getLine(y)!.translateToString(true));
    }
  });

  it('payload handler tables hold the buffering OSC handlers registered, with the fields the cap relies on', () => {
    const t = term();
    const sub = t.parser.registerOscHandler(133, () => true);
    const tables = xtermInternals(t).payloadHandlers!;
    const osc = tables[0]![133]!;
    expect(osc.length).toBeGreaterThan(0);
    const h = osc[osc.length - 1]!;
    expect(typeof h._data).toBe('string');
    expect(typeof h._hitLimit).toBe('boolean');
    sub.dispose();
  });
});

describe('xterm internals: the public-API path', () => {
  it('refuses every internal when asked', () => {
    const i = xtermInternals(term(), true);
    expect(Object.values(i).every((v) => v === null)).toBe(true);
  });

  it('reads the same screens from the same bytes as the fast path, through a real recording', async () => {
    const dir = path.join(ROOT, 'tests/fixtures/recordings');
    const names = fs.readdirSync(dir).filter((n) => /^(claude|codex|gemini|opencode|bash)-/.test(n)).slice(0, 6);
    expect(names.length).toBeGreaterThan(2);
    for (const name of names) {
      const cast = parseCast(fs.readFileSync(path.join(dir, name, 'session.cast'), 'utf8'));
      const fast = new PaneScreen({ cols: cast.header.width, rows: cast.header.height });
      const slow = new PaneScreen({ cols: cast.header.width, rows: cast.header.height, publicApiOnly: true });
      terms.push(fast, slow);
      let compared = 0;
      for (const e of cast.events) {
        if (e.code !== 'o') continue;
        await write(fast, e.data);
        await write(slow, e.data);
        const a = fast.snapshot();
        const b = slow.snapshot();
        expect(b.lines, `${name} t=${e.t}`).toEqual(a.lines);
        expect([b.cursorX, b.cursorY, b.altScreen], `${name} t=${e.t}`).toEqual([a.cursorX, a.cursorY, a.altScreen]);
        compared++;
      }
      expect(compared, name).toBeGreaterThan(10);
    }
  }, 120_000);
});
