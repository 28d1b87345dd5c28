// A pane title's kind: spinner frames keep it, a change of words or of spinning changes it. The spinner prefix is
// scanned by hand; it must say what /^\s*[⠀-⣿◐◑◒◓]\s*/u says about any title.
import { describe, expect, it } from 'vitest';
import { spinnerPrefix, TitleKind } from '../../src/daemon/title-kind.js';

const SPINNER = /^\s*[⠀-⣿◐◑◒◓]\s*/u;

describe('TitleKind', () => {
  it('spinner frames keep the kind; other words, or a spinner stopping, change it', () => {
    const k = new TitleKind();
    expect(k.changed('⠋ Claude Code')).toBe(true);
    expect(k.changed('⠙ Claude Code')).toBe(false);
    expect(k.changed('◐  Claude Code')).toBe(false);
    expect(k.changed('✳ Claude Code')).toBe(true);
    expect(k.changed('✳ Claude Code')).toBe(false);
    expect(k.changed('⠋ Claude Code')).toBe(true);
    expect(k.changed('⠋ Claude Cod')).toBe(true);
    expect(k.changed('Claude Code')).toBe(true);
  });

  it('finds the same spinner prefix as the pattern it replaces, on generated titles', () => {
    const parts = [' ', '\t', '\u00a0', '\u3000', '\u2028', '⠋', '⣿', '⠀', '◐', '◓', '◔', '●', '✳', 'a', 'Claude', '', '\u27ff', '\u2900'];
    let seed = 5;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 5000; i++) {
      const title = Array.from({ length: next(6) }, () => parts[next(parts.length)]!).join('');
      const m = SPINNER.exec(title);
      expect(spinnerPrefix(title), JSON.stringify(title)).toBe(m ? m[0].length : -1);
    }
  });
});
