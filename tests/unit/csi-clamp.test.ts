// Runaway repeat counts (ESC[2147483647S) must not freeze the parser; split sequences are clamped too.
import { describe, expect, it } from 'vitest';
import { CsiClamp, MAX_CSI_REPEAT } from '../../src/screen/csi-clamp.js';
import { PaneScreen } from '../../src/screen/pane-screen.js';
import { parseAgentState } from '../../src/screen/osc-parse.js';
import { parseCast, MAX_CAST_TIME_S } from '../../src/attach/asciicast.js';

const write = (s: PaneScreen, d: string) => new Promise<void>((r) => s.write(d, r));

describe('CsiClamp', () => {
  it('clamps huge counts of the looping CSIs and leaves others alone', () => {
    const c = new CsiClamp();
    expect(c.filter('\x1b[2147483647S')).toBe(`\x1b[${MAX_CSI_REPEAT}S`);
    expect(c.filter('x\x9b100000000b')).toBe(`x\x9b${MAX_CSI_REPEAT}b`);
    expect(c.filter('\x1b[5S\x1b[12345678H')).toBe('\x1b[5S\x1b[12345678H'); // cursor moves are xterm-bounded
  });

  it('holds back a sequence split across chunks and clamps it whole', () => {
    const c = new CsiClamp();
    expect(c.filter('ab\x1b[21474')).toBe('ab');
    expect(c.filter('83647L done')).toBe(`\x1b[${MAX_CSI_REPEAT}L done`);
    expect(c.filter('\x1b')).toBe('');
    expect(c.filter('[3m')).toBe('\x1b[3m');
  });

  it('hold() cuts chunks exactly as filter() does and leaves the counts to the parser', () => {
    const c = new CsiClamp();
    expect(c.hold('ab\x1b[21474')).toBe('ab');
    expect(c.hold('83647L done\x1b')).toBe('\x1b[2147483647L done');
    expect(c.hold(']0;t\x07')).toBe('\x1b]0;t\x07');
  });

  it('a real screen survives the sequences that used to hang it (bounded by the test timeout)', async () => {
    const s = new PaneScreen({ cols: 80, rows: 24 });
    for (const seq of ['\x1b[2147483647S', '\x1b[2147483647T', '\x1b[2147483647L', '\x1b[2147483647M', 'xy\x1b[2147483647b', '\x1b[2147483647I', '\x1b[2147483647Z']) {
      await write(s, seq);
    }
    await write(s, '\x1b[21474');
    await write(s, '83647S$ ');
    expect(s.snapshot().lines.some((l) => l.includes('$'))).toBe(true);
    s.dispose();
  });
});

describe('bounded inputs', () => {
  it('OSC 7501 keeps only short word fields (a megabyte "kind" is dropped)', () => {
    const big = 'k'.repeat(1 << 20);
    const sig = parseAgentState(`state=blocked:app=codex:kind=${big}`);
    expect(sig).toEqual({ kind: 'agent-state', protocol: 'osc7501', state: 'blocked', extra: { app: 'codex' } });
    expect(parseAgentState(`state=${big}`)).toBeNull();
  });

  it('a title is clipped', async () => {
    const s = new PaneScreen({ cols: 80, rows: 24 });
    await write(s, `\x1b]0;${'t'.repeat(100_000)}\x07`);
    expect(s.snapshot().title.length).toBeLessThanOrEqual(512);
    s.dispose();
  });

  it('cast events stamped past the plausible length of a session are skipped, not replayed for hours', () => {
    const cast = parseCast(['{"version":2,"width":80,"height":24}', '[1, "o", "a"]', `[${MAX_CAST_TIME_S * 2}, "o", "b"]`, '[2, "o", "c"]'].join('\n'));
    expect(cast.events.map((e) => e.data)).toEqual(['a', 'c']);
    expect(cast.skipped).toBe(1);
  });
});
