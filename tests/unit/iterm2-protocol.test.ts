// The iTerm2 bridge protocol's pure parts: each message validated field by field (accepted as documented, refused
// with a reason), screens repainted as the bytes that reproduce them, prompt events as OSC 133 marks.
import { describe, expect, it } from 'vitest';
import { BridgeMessageError, parseBridgeMessage } from '../../src/attach/iterm2/protocol.js';
import { ScreenPainter } from '../../src/attach/iterm2/screen-painter.js';
import { KEY_BYTES, promptMark, titleBytes } from '../../src/attach/iterm2/in-band.js';
import { PaneScreen } from '../../src/screen/pane-screen.js';
import type { InBandSignal } from '../../src/screen/types.js';

const parse = (m: unknown) => parseBridgeMessage(JSON.stringify(m));
const refusal = (m: unknown) => {
  try {
    parseBridgeMessage(typeof m === 'string' ? m : JSON.stringify(m));
  } catch (e) {
    expect(e).toBeInstanceOf(BridgeMessageError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('bridge messages', () => {
  it('accepts each kind as documented, dropping unknown extra fields', () => {
    expect(parse({ type: 'hello', v: 1, bridge: 'iterm2_bridge/0.1.0', iterm2: '2.7', extra: true })).toEqual({ type: 'hello', v: 1, bridge: 'iterm2_bridge/0.1.0', iterm2: '2.7' });
    expect(parse({ type: 'sessions', sessions: [{ session: 'A-1', name: 'zsh', cols: 80, rows: 24, command: null }, { session: 'B', name: 'x', cols: 1, rows: 1000, command: '-zsh' }] })).toEqual({
      type: 'sessions',
      sessions: [{ session: 'A-1', name: 'zsh', cols: 80, rows: 24 }, { session: 'B', name: 'x', cols: 1, rows: 1000, command: '-zsh' }],
    });
    expect(parse({ type: 'sessions', sessions: [] })).toEqual({ type: 'sessions', sessions: [] });
    expect(parse({ type: 'screen', session: 'A', rows: ['$ '], cursor: { x: 2, y: 0 } })).toEqual({ type: 'screen', session: 'A', rows: ['$ '], cursor: { x: 2, y: 0 } });
    expect(parse({ type: 'screen', session: 'A', rows: ['$ '], cursor: { x: 2, y: 0 }, cols: 90 })).toMatchObject({ cols: 90 });
    expect(parse({ type: 'prompt', session: 'A', event: 'prompt', status: 3 })).toEqual({ type: 'prompt', session: 'A', event: 'prompt' });
    expect(parse({ type: 'prompt', session: 'A', event: 'command_start', command: 'make' })).toEqual({ type: 'prompt', session: 'A', event: 'command_start', command: 'make' });
    expect(parse({ type: 'prompt', session: 'A', event: 'command_start' })).toEqual({ type: 'prompt', session: 'A', event: 'command_start', command: null });
    expect(parse({ type: 'prompt', session: 'A', event: 'command_end', status: 130 })).toEqual({ type: 'prompt', session: 'A', event: 'command_end', status: 130 });
    expect(parse({ type: 'variable', session: 'A', name: 'jobPid', value: 12 })).toEqual({ type: 'variable', session: 'A', name: 'jobPid', value: 12 });
    expect(parse({ type: 'variable', session: 'A', name: 'jobName', value: null })).toEqual({ type: 'variable', session: 'A', name: 'jobName', value: null });
    expect(parse({ type: 'focus', session: 'A' })).toEqual({ type: 'focus', session: 'A' });
    expect(parse({ type: 'key', session: 'A', key: 'interrupt' })).toEqual({ type: 'key', session: 'A', key: 'interrupt' });
  });

  it('refuses what is malformed, with the reason', () => {
    expect(refusal('nope')).toBe('not JSON');
    expect(refusal([1])).toBe('message: not an object');
    expect(refusal({ type: 'hello', v: '1', bridge: 'x' })).toBe('protocol version "1" is not 1');
    expect(refusal({ type: 'hello', v: 1 })).toBe('bridge: expected a string of at most 64 characters');
    expect(refusal({ type: 'sessions', sessions: {} })).toBe('sessions: expected a list of at most 256');
    expect(refusal({ type: 'sessions', sessions: [null] })).toBe('sessions[0]: not an object');
    expect(refusal({ type: 'sessions', sessions: [{ session: 'A', name: 'n'.repeat(81), cols: 80, rows: 24 }] })).toBe('name: expected a string of at most 80 characters');
    expect(refusal({ type: 'sessions', sessions: [{ session: 'A', name: 'n', cols: 0, rows: 24 }] })).toBe('cols: expected 1 to 1000');
    expect(refusal({ type: 'sessions', sessions: [{ session: 'A', name: 'n', cols: 80, rows: 24.5 }] })).toBe('rows: expected a whole number');
    expect(refusal({ type: 'screen', session: 'A', rows: [], cursor: { x: 0, y: 0 } })).toBe('rows: expected a list of 1 to 1000 rows');
    expect(refusal({ type: 'screen', session: 'A', rows: [3], cursor: { x: 0, y: 0 } })).toBe('rows: expected strings of at most 4000 characters');
    expect(refusal({ type: 'screen', session: 'A', rows: ['x'] })).toBe('cursor: not an object');
    expect(refusal({ type: 'screen', session: 'A', rows: ['x'], cursor: { x: -1, y: 0 } })).toBe('cursor.x: expected 0 to 999');
    expect(refusal({ type: 'screen', session: '../etc', rows: ['x'], cursor: { x: 0, y: 0 } })).toBe('session: expected a plain id of at most 64 characters');
    expect(refusal({ type: 'focus', session: 'x'.repeat(65) })).toBe('session: expected a plain id of at most 64 characters');
    expect(refusal({ type: 'prompt', session: 'A', event: 'command_end', status: '0' })).toBe('status: expected a whole number');
    expect(refusal({ type: 'prompt', session: 'A', event: 'command_start', command: 'x'.repeat(4097) })).toBe('command: expected a string of at most 4096 characters');
    expect(refusal({ type: 'variable', session: 'A', name: 'tty', value: 3 })).toBe('value: expected a string of at most 4096 characters');
    expect(refusal({ type: 'key', session: 'A', key: 'a' })).toBe('key: expected one of enter, escape, interrupt');
    expect(refusal({ type: 'send_text', session: 'A', text: 'x' })).toBe('unknown message type "send_text"');
    expect(refusal({})).toBe('unknown message type undefined');
  });
});

describe('screen painter', () => {
  const size = { cols: 20, rows: 4 };

  it('paints every row first, then only the rows that changed, then nothing when nothing did', () => {
    const p = new ScreenPainter();
    expect(p.paint(['$ ls', 'a b'], { x: 0, y: 2 }, size)).toBe('\x1b[?7l\x1b[1;1H$ ls\x1b[K\x1b[2;1Ha b\x1b[K\x1b[3;1H\x1b[K\x1b[4;1H\x1b[K\x1b[3;1H');
    expect(p.paint(['$ ls', 'a b', '$ '], { x: 2, y: 2 }, size)).toBe('\x1b[3;1H$\x1b[K\x1b[3;3H');
    expect(p.paint(['$ ls', 'a b', '$ '], { x: 2, y: 2 }, size)).toBe('');
    expect(p.paint(['$ ls', 'a b', '$ '], { x: 99, y: 99 }, size)).toBe('\x1b[4;20H');
    p.reset();
    expect(p.paint(['x'], { x: 0, y: 0 }, size)).toMatch(/^\x1b\[\?7l\x1b\[1;1Hx\x1b\[K\x1b\[2;1H\x1b\[K/);
  });

  it('reproduces the screen in a real terminal: long rows do not wrap, controls are dropped', async () => {
    const screen = new PaneScreen(size);
    const signals: InBandSignal[] = [];
    screen.onSignal((s) => signals.push(s));
    const p = new ScreenPainter();
    const write = (bytes: string) => new Promise<void>((resolve) => screen.write(bytes, resolve));
    await write(p.paint(['first', 'x'.repeat(30), 'evil\x1b]133;C\x07!', 'last'], { x: 3, y: 3 }, size));
    await write(p.paint(['first', 'short', 'evil\x1b]133;C\x07!', 'last'], { x: 4, y: 3 }, size));
    expect(screen.text()).toBe(`first\nshort\nevil]133;C!\nlast`);
    const snap = screen.snapshot();
    expect([snap.cursorX, snap.cursorY]).toEqual([4, 3]);
    expect(signals).toEqual([]);
    screen.dispose();
  });
});

describe('in-band marks', () => {
  it('writes prompt events as OSC 133, the title as OSC 2, keys as their bytes', async () => {
    expect(promptMark('prompt')).toBe('\x1b]133;A\x07');
    expect(promptMark('command_start')).toBe('\x1b]133;C\x07');
    expect(promptMark('command_end', 2)).toBe('\x1b]133;D;2\x07');
    expect(promptMark('command_end', null)).toBe('\x1b]133;D\x07');
    expect(promptMark('prompt', undefined, 'ab12')).toBe('\x1b]133;A;nonce=ab12\x07');
    expect(promptMark('command_end', 0, 'ab12')).toBe('\x1b]133;D;0;nonce=ab12\x07');
    expect(promptMark('command_end', null, 'ab12')).toBe('\x1b]133;D;nonce=ab12\x07');
    expect(KEY_BYTES).toEqual({ enter: '\r', escape: '\x1b', interrupt: '\x03' });
    const screen = new PaneScreen({ cols: 20, rows: 4 });
    const signals: InBandSignal[] = [];
    screen.onSignal((s) => signals.push(s));
    await new Promise<void>((resolve) => screen.write(promptMark('command_start') + promptMark('command_end', 1) + titleBytes('a\x07b\x1b]2;c'), resolve));
    expect(signals).toEqual([
      { kind: 'command-executed', protocol: 'osc133' },
      { kind: 'command-finished', protocol: 'osc133', exitCode: 1 },
      { kind: 'title', title: 'ab]2;c' },
    ]);
    screen.dispose();
  });
});
