// The headless terminal: in-band signals lifted out of a real byte stream (BEL and ST terminated), modes, title,
// bell, and the snapshot the analyzers read.
import { afterEach, describe, expect, it } from 'vitest';
import { PaneScreen } from '../../src/screen/pane-screen.js';
import type { InBandSignal } from '../../src/screen/types.js';
import { write } from '../helpers/screen.js';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;
const osc = (body: string, end = BEL) => `${ESC}]${body}${end}`;

let screens: PaneScreen[] = [];
afterEach(() => {
  for (const s of screens) s.dispose();
  screens = [];
});

function make(cols = 80, rows = 24) {
  const screen = new PaneScreen({ cols, rows });
  screens.push(screen);
  const got: Array<{ signal: InBandSignal; line: string }> = [];
  screen.onSignal((signal, line) => got.push({ signal, line }));
  const signals = () => got.map((g) => g.signal);
  return { screen, got, signals, feed: (d: string) => write(screen, d) };
}

describe('shell integration signals', () => {
  it('OSC 133 A/B/C/D with and without exit codes, BEL or ST terminated', async () => {
    const { feed, signals } = make();
    await feed(`${osc('133;A')}$ ${osc('133;B', ST)}ls\r\n${osc('133;C')}a b\r\n${osc('133;D;0', ST)}`);
    await feed(`${osc('133;A')}$ ${osc('133;B')}${osc('133;C')}${osc('133;D;2')}${osc('133;D')}`);
    expect(signals()).toEqual([
      { kind: 'prompt-start', protocol: 'osc133' },
      { kind: 'command-input', protocol: 'osc133' },
      { kind: 'command-executed', protocol: 'osc133' },
      { kind: 'command-finished', protocol: 'osc133', exitCode: 0 },
      { kind: 'prompt-start', protocol: 'osc133' },
      { kind: 'command-input', protocol: 'osc133' },
      { kind: 'command-executed', protocol: 'osc133' },
      { kind: 'command-finished', protocol: 'osc133', exitCode: 2 },
      { kind: 'command-finished', protocol: 'osc133', exitCode: undefined },
    ]);
  });

  it('OSC 633 A/B/C/D and E;commandline', async () => {
    const { feed, signals } = make();
    await feed(`${osc('633;A')}$ ${osc('633;B')}${osc('633;E;echo a\\x3bb')}${osc('633;C')}${osc('633;D;1')}`);
    expect(signals()).toEqual([
      { kind: 'prompt-start', protocol: 'osc633' },
      { kind: 'command-input', protocol: 'osc633' },
      { kind: 'command-line', protocol: 'osc633', commandLine: 'echo a;b' },
      { kind: 'command-executed', protocol: 'osc633' },
      { kind: 'command-finished', protocol: 'osc633', exitCode: 1 },
    ]);
  });

  it('a signal carries the row the cursor is on', async () => {
    const { feed, got } = make();
    await feed(`build ok\r\nuser@host:~$ ${osc('133;B')}`);
    expect(got).toEqual([{ signal: { kind: 'command-input', protocol: 'osc133' }, line: 'user@host:~$ ' }]);
  });

  it('the OSC never reaches the screen', async () => {
    const { screen, feed } = make();
    await feed(`${osc('133;A')}$ ${osc('133;B')}`);
    expect(screen.snapshot().lines[0]).toBe('$ ');
  });
});

describe('iTerm2, Codex, notifications', () => {
  it('OSC 1337 SetUserVar and CurrentDir', async () => {
    const { feed, signals } = make();
    await feed(osc(`1337;SetUserVar=agent=${Buffer.from('codex').toString('base64')}`) + osc('1337;CurrentDir=/srv/app', ST));
    expect(signals()).toEqual([
      { kind: 'user-var', name: 'agent', value: 'codex' },
      { kind: 'cwd', path: '/srv/app' },
    ]);
  });

  it('OSC 7501 working, then blocked with kind=permission', async () => {
    const { feed, signals } = make();
    await feed(osc('7501;state=working:app=codex', ST) + osc('7501;state=blocked:app=codex:kind=permission', ST));
    expect(signals()).toEqual([
      { kind: 'agent-state', protocol: 'osc7501', state: 'working', extra: { app: 'codex' } },
      { kind: 'agent-state', protocol: 'osc7501', state: 'blocked', extra: { app: 'codex', kind: 'permission' } },
    ]);
  });

  it('OSC 9 is a notification, OSC 9;4 progress is not', async () => {
    const { feed, signals } = make();
    await feed(osc('9;4;1;42') + osc('9;Task done') + osc('9;4;0'));
    expect(signals()).toEqual([{ kind: 'notification', protocol: 'osc9', title: '', body: 'Task done' }]);
  });

  it('OSC 777 notify', async () => {
    const { feed, signals } = make();
    await feed(osc('777;notify;Claude;Needs your permission'));
    expect(signals()).toEqual([{ kind: 'notification', protocol: 'osc777', title: 'Claude', body: 'Needs your permission' }]);
  });
});

describe('title, bell, modes', () => {
  it('OSC 0 and OSC 2 set the title (signal and snapshot)', async () => {
    const { screen, feed, signals } = make();
    await feed(osc('0;✳ Claude Code'));
    expect(screen.snapshot().title).toBe('✳ Claude Code');
    await feed(osc('2;◐ Claude Code', ST));
    expect(screen.snapshot().title).toBe('◐ Claude Code');
    expect(signals()).toEqual([
      { kind: 'title', title: '✳ Claude Code' },
      { kind: 'title', title: '◐ Claude Code' },
    ]);
  });

  it('a bare BEL rings the bell; a BEL ending an OSC does not', async () => {
    const { feed, signals } = make();
    await feed(`${osc('2;x')}hello${BEL}`);
    expect(signals()).toEqual([{ kind: 'title', title: 'x' }, { kind: 'bell' }]);
  });

  it('bracketed paste on and off', async () => {
    const { screen, feed, signals } = make();
    expect(screen.snapshot().bracketedPaste).toBe(false);
    await feed(`${ESC}[?2004h$ `);
    expect(screen.snapshot().bracketedPaste).toBe(true);
    await feed(`${ESC}[?2004l\r\n`);
    expect(screen.snapshot().bracketedPaste).toBe(false);
    expect(signals()).toEqual([
      { kind: 'bracketed-paste', on: true },
      { kind: 'bracketed-paste', on: false },
    ]);
  });

  it('bracketed paste inside a combined mode sequence', async () => {
    const { feed, signals } = make();
    await feed(`${ESC}[?1;2004h`);
    expect(signals()).toEqual([{ kind: 'bracketed-paste', on: true }]);
  });

  it('alternate screen on and off; the main screen comes back', async () => {
    const { screen, feed, signals } = make();
    await feed('$ vim notes.txt');
    await feed(`${ESC}[?1049h${ESC}[H~ editing`);
    let snap = screen.snapshot();
    expect(snap.altScreen).toBe(true);
    expect(snap.lines[0]).toBe('~ editing');
    await feed(`${ESC}[?1049l`);
    snap = screen.snapshot();
    expect(snap.altScreen).toBe(false);
    expect(snap.lines[0]).toBe('$ vim notes.txt');
    expect(signals()).toEqual([
      { kind: 'alt-screen', on: true },
      { kind: 'alt-screen', on: false },
    ]);
  });

  it('synchronized output frames are tracked (CSI ?2026 h/l)', async () => {
    const { screen, feed } = make();
    await feed(`${ESC}[?2026h`);
    expect(screen.inSyncFrame).toBe(true);
    await feed(`half drawn${ESC}[?2026l`);
    expect(screen.inSyncFrame).toBe(false);
  });
});

describe('snapshot', () => {
  it('visible rows (never-written cells trimmed, written spaces kept), cursor position, size', async () => {
    const { screen, feed } = make(40, 6);
    await feed('hello\r\n$ \r\nworld');
    const snap = screen.snapshot();
    expect(snap.cols).toBe(40);
    expect(snap.rows).toBe(6);
    // the prompt's trailing space is content: prompt anchors ("$ ") depend on it
    expect(snap.lines).toEqual(['hello', '$ ', 'world', '', '', '']);
    expect(snap.cursorX).toBe(5);
    expect(snap.cursorY).toBe(2);
    expect(snap.altScreen).toBe(false);
    expect(snap.title).toBe('');
  });

  it('cursor-addressed repaints render as the terminal shows them, not as the byte stream', async () => {
    const { screen, feed } = make(40, 4);
    // words placed by cursor moves (as Claude Code paints): no spaces in the stream
    await feed(`${ESC}[2;1HI'll${ESC}[2;6Hcreate${ESC}[2;13Hit`);
    expect(screen.snapshot().lines[1]).toBe("I'll create it");
    expect(screen.cursorLine()).toBe("I'll create it");
  });

  it('the viewport follows output; scrollback is kept for text(history)', async () => {
    const { screen, feed } = make(20, 3);
    await feed('one\r\ntwo\r\nthree\r\nfour\r\nfive');
    const snap = screen.snapshot();
    expect(snap.lines).toEqual(['three', 'four', 'five']);
    expect(snap.cursorY).toBe(2);
    expect(screen.text(0)).toBe('three\nfour\nfive');
    expect(screen.text(2)).toBe('one\ntwo\nthree\nfour\nfive');
  });

  it('\\r redraws a progress bar in place', async () => {
    const { screen, feed } = make(40, 3);
    await feed('[##        ] 20%\r[#####     ] 50%');
    const snap = screen.snapshot();
    expect(snap.lines[0]).toBe('[#####     ] 50%');
    expect(snap.cursorY).toBe(0);
  });

  it('resize applies; an invalid size keeps the current one', async () => {
    const { screen } = make(80, 24);
    screen.resize(120, 40);
    expect([screen.snapshot().cols, screen.snapshot().rows]).toEqual([120, 40]);
    screen.resize(Number.NaN, 1);
    expect([screen.snapshot().cols, screen.snapshot().rows]).toEqual([120, 40]);
  });

  it('an invalid initial size falls back to 80x24', () => {
    const screen = new PaneScreen({ cols: 0, rows: Number.NaN });
    screens.push(screen);
    expect([screen.snapshot().cols, screen.snapshot().rows]).toEqual([80, 24]);
  });
});

describe('garbage is ignored', () => {
  it('unknown or malformed OSC payloads produce no signal and do not break the screen', async () => {
    const { screen, feed, signals } = make();
    await feed(
      [
        osc('133;Z'),
        osc('133;'),
        osc('133'),
        osc('633;Q;x'),
        osc('1337;NoSuchKey=1'),
        osc('1337;SetUserVar=broken'),
        osc('1337;'),
        osc('7501;app=codex'),
        osc('7501;garbage'),
        osc('7501;'),
        osc('777;precmd'),
        osc('9;4;3;0'),
        osc('12345;whatever'),
        osc('52;c;aGVsbG8='),
        `${ESC}]133;D;\x00\xff${BEL}`,
        'still fine',
      ].join(''),
    );
    expect(signals()).toEqual([{ kind: 'command-finished', protocol: 'osc133', exitCode: undefined }]);
    expect(screen.snapshot().lines[0]).toBe('still fine');
  });

  it('an OSC cut across two writes is still parsed once', async () => {
    const { feed, signals } = make();
    await feed(`${ESC}]7501;state=work`);
    await feed(`ing:app=codex${ESC}\\`);
    expect(signals()).toEqual([{ kind: 'agent-state', protocol: 'osc7501', state: 'working', extra: { app: 'codex' } }]);
  });
});
