// A screen drawn again from its rows: what a rejoining `run` wrapper sends a daemon that missed the pane's past.
// A real terminal reads it back to the same rows, cursor, title and modes.
import { afterEach, describe, expect, it } from 'vitest';
import { PaneScreen } from '../../src/screen/pane-screen.js';
import { repaint } from '../../src/screen/repaint.js';
import { write } from '../helpers/screen.js';

const screens: PaneScreen[] = [];
afterEach(() => {
  for (const s of screens.splice(0)) s.dispose();
});
const make = () => {
  const s = new PaneScreen({ cols: 60, rows: 10 });
  screens.push(s);
  return s;
};

describe('repaint', () => {
  it('another terminal drawing it shows the same rows, cursor row, title and bracketed-paste mode', async () => {
    const a = make();
    await write(a, '\x1b]2;agent: working\x07● Task: x\r\n  \x1b[31mRunning tests\x1b[0m\r\nAllow command `rm`? [y/n] \x1b[?2004h');
    const b = make();
    await write(b, 'stale text that must go\r\nmore');
    await write(b, repaint(a.drawing()));
    expect(b.text()).toBe(a.text());
    expect(b.cursorLine()).toBe(a.cursorLine());
    const [sa, sb] = [a.snapshot(), b.snapshot()];
    expect([sb.cursorX, sb.cursorY, sb.title, sb.bracketedPaste, sb.altScreen]).toEqual([sa.cursorX, sa.cursorY, sa.title, true, false]);
  });

  it('keeps control characters in row text from becoming commands', async () => {
    const out = repaint({ lines: ['a\x1b[2Jb'], cursorX: 0, cursorY: 0, altScreen: true, bracketedPaste: false, title: 't\x07x' });
    expect(out).not.toContain('a\x1b[2Jb');
    expect(out.startsWith('\x1b[?1049h')).toBe(true);
    expect(out).toContain('\x1b]2;tx\x07');
  });
});
