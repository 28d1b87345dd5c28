// tmux control mode's wire format and the watcher's pure helpers: no tmux needed.
import { StringDecoder } from 'node:string_decoder';
import { describe, expect, it } from 'vitest';
import { ControlParser, layoutPanes, unescapeOutput, type Reply } from '../../src/attach/tmux/control-protocol.js';
import { LIST_PANES, paneName, parsePaneRows, parseSeedState, parseSessionRows, seedBytes, seedCommands, serverLife } from '../../src/attach/tmux/pane-list.js';
import { resolveTmuxSocket, tmuxPaneKey } from '../../src/attach/tmux/tmux-socket.js';

function recorder() {
  const out: Array<[string, Buffer]> = [];
  const replies: Reply[] = [];
  const notes: Array<[string, string]> = [];
  const parser = new ControlParser({ output: (p, d) => out.push([p, Buffer.from(d)]), reply: (r) => replies.push(r), notification: (n, a) => notes.push([n, a]) });
  return { parser, out, replies, notes, push: (s: string | Buffer) => parser.push(typeof s === 'string' ? Buffer.from(s, 'latin1') : s) };
}

describe('unescapeOutput', () => {
  it('turns \\ooo back into bytes and keeps everything else as it is', () => {
    expect(unescapeOutput(Buffer.from('a\\015\\012b\\134c\\033[1m')).toString('latin1')).toBe('a\r\nb\\c\x1b[1m');
    const plain = Buffer.from('no escapes here');
    expect(unescapeOutput(plain)).toEqual(plain);
  });

  it('keeps a backslash that starts no octal escape, and works on a slice', () => {
    expect(unescapeOutput(Buffer.from('x\\9y\\01')).toString('latin1')).toBe('x\\9y\\01');
    expect(unescapeOutput(Buffer.from('ab\\101cd'), 1, 7).toString('latin1')).toBe('bAc');
  });
});

describe('ControlParser', () => {
  it('routes %output and %extended-output by pane, with the data unescaped', () => {
    const r = recorder();
    r.push('%output %3 hi\\015\\012\n%extended-output %12 250 : x : y\\033\n');
    expect(r.out.map(([p, d]) => [p, d.toString('latin1')])).toEqual([
      ['%3', 'hi\r\n'],
      ['%12', 'x : y\x1b'],
    ]);
  });

  it('joins lines split across chunks, and UTF-8 split across %output lines stays whole through a decoder', () => {
    const r = recorder();
    const e = Buffer.from('é€', 'utf8'); // c3 a9 e2 82 ac
    r.push(Buffer.concat([Buffer.from('%output %1 a'), e.subarray(0, 1)]));
    r.push(Buffer.concat([Buffer.from('\n%outp')]));
    r.push(Buffer.concat([Buffer.from('ut %1 '), e.subarray(1, 3), Buffer.from('\n%output %1 '), e.subarray(3), Buffer.from('!\n')]));
    expect(r.out).toHaveLength(3);
    const d = new StringDecoder('utf8');
    expect(r.out.map(([, b]) => d.write(b)).join('')).toBe('aé€!');
  });

  it('collects a reply between %begin and its own %end, even lines that begin with %', () => {
    const r = recorder();
    r.push('%begin 1 10 1\n%0\x1fwork\n%end 1 9 1\n%end 1 10 1\n%begin 2 11 1\ncan\'t find pane: %9\n%error 2 11 1\n');
    expect(r.replies).toEqual([
      { ok: true, flags: 1, lines: ['%0\x1fwork', '%end 1 9 1'] },
      { ok: false, flags: 1, lines: ["can't find pane: %9"] },
    ]);
    expect(r.out).toEqual([]);
  });

  it('hands other lines over as notifications, with CRLF endings tolerated', () => {
    const r = recorder();
    r.push('%layout-change @0 b25d,80x24,0,0,0 b25d,80x24,0,0,0 *\r\n%sessions-changed\n%exit\n');
    expect(r.notes).toEqual([
      ['%layout-change', '@0 b25d,80x24,0,0,0 b25d,80x24,0,0,0 *'],
      ['%sessions-changed', ''],
      ['%exit', ''],
    ]);
  });
});

describe('layoutPanes', () => {
  it('reads the size of every leaf of a nested layout', () => {
    expect([...layoutPanes('c196,80x24,0,0[80x12,0,0,0,80x11,0,13,3]')]).toEqual([
      ['%0', { cols: 80, rows: 12 }],
      ['%3', { cols: 80, rows: 11 }],
    ]);
    expect([...layoutPanes('a1b2,120x40,0,0{60x40,0,0,5,59x40,61,0[59x20,61,0,6,59x19,61,21,7]}')].map(([p, s]) => `${p}=${s.cols}x${s.rows}`)).toEqual(['%5=60x40', '%6=59x20', '%7=59x19']);
  });
});

describe('pane and session listings', () => {
  it('parses list-panes rows; the title keeps whatever it holds', () => {
    expect(LIST_PANES).toContain('list-panes -a -F');
    const [row, ours] = parsePaneRows(['%7\x1f$2\x1fmy work\x1f3\x1f1\x1f100\x1f29\x1f0\x1f\x1fclaude\x1f4321\x1f@5\x1fclaude\x1f1\x1f\x1f\x1f✳ Claude Code: a \x1f b', 'garbage', '%8\x1f$2\x1fw\x1f0\x1f0\x1f80\x1f24\x1f0\x1f\x1fnode\x1f99\x1f@6\x1fnode\x1f1\x1f\x1frun:run-1-1-abc\x1fhost']);
    expect(row).toEqual({ pane: '%7', session: '$2', sessionName: 'my work', windowIndex: 3, paneIndex: 1, cols: 100, rows: 29, dead: false, deadStatus: null, command: 'claude', pid: 4321, window: '@5', windowName: 'claude', autoName: true, ownName: '', ours: '', title: '✳ Claude Code: a \x1f b' });
    // A pane one of our programs holds says so (attach/tmux/ours.ts).
    expect(ours).toMatchObject({ pane: '%8', ours: 'run:run-1-1-abc', title: 'host' });
    // A window tmux names by itself (automatic-rename: its command) names nothing: the target by index.
    expect(paneName(row!)).toBe('my work:3.1');
    // A window the person named names its pane (with the pane's index once the window has several).
    expect(paneName({ ...row!, autoName: false, windowName: 'api' })).toBe('my work:api');
    expect(paneName({ ...row!, autoName: false, windowName: 'api' }, 2)).toBe('my work:api.1');
    // A name given with `termsupervisor name` (the pane option) comes first.
    expect(paneName({ ...row!, autoName: false, windowName: 'api', ownName: 'reviewer' }, 2)).toBe('reviewer');
    expect(parseSessionRows(['$0\x1f1700000000\x1f4242\x1f1700000000', '$3\x1f1700000100\x1f4242\x1f1700000000', 'nope'])).toEqual([
      { session: '$0', activity: 1700000000, life: '4242-s44we8' },
      { session: '$3', activity: 1700000100, life: '4242-s44we8' },
    ]);
  });
});

describe('the seed', () => {
  it('asks for the cursor, the screen and the screen behind a full-screen program in one list', () => {
    expect(seedCommands('%4')).toEqual([expect.stringMatching(/^display-message -p -t %4 '/), 'capture-pane -p -e -t %4', 'capture-pane -p -e -a -q -t %4']);
  });

  it('places rows with cursor moves (no newline, so no "work" for the newline gate), then the cursor and title', () => {
    const st = parseSeedState('2\x1f1\x1f0\x1fclaude\x1fhost\x1f✳ Claude Code');
    expect(st).toEqual({ cx: 2, cy: 1, alt: false, command: 'claude', title: '✳ Claude Code' });
    const s = seedBytes(st, ['\x1b[1mhello', '$ ', ''], [], true);
    expect(s).not.toContain('\n');
    expect(s).toBe('\x1b[0m\x1b[H\x1b[2J\x1b[1H\x1b[1mhello\x1b[2H$ \x1b[0m\x1b[2;3H\x1b]2;✳ Claude Code\x07');
  });

  it('ignores tmux\'s default title (the host name), draws the normal screen under a full-screen one, and leaves a stale one on a re-seed', () => {
    const st = parseSeedState('0\x1f0\x1f1\x1fvim\x1fbox\x1fbox');
    expect(st.title).toBeNull();
    const s = seedBytes(st, ['vim'], ['$ vim x'], false);
    expect(s.startsWith('\x1b[?1049l')).toBe(true);
    expect(s.indexOf('$ vim x')).toBeLessThan(s.indexOf('\x1b[?1049h'));
    expect(s.indexOf('\x1b[?1049h')).toBeLessThan(s.indexOf('vim\x1b'));
  });
});

describe('sockets and ids', () => {
  const env = { TMUX_TMPDIR: '/run/t' };
  const uid = process.getuid?.() ?? 0;
  it('names sockets in tmux\'s folder by their name, others by a hash of their path', () => {
    expect(resolveTmuxSocket('', env)).toEqual({ args: ['-S', `/run/t/tmux-${uid}/default`], path: `/run/t/tmux-${uid}/default`, key: 'default' });
    expect(resolveTmuxSocket('work', env).key).toBe('work');
    const other = resolveTmuxSocket('/var/run/shared.sock', env);
    expect(other.args).toEqual(['-S', '/var/run/shared.sock']);
    expect(other.key).toMatch(/^s[0-9a-f]{12}$/);
    expect(resolveTmuxSocket('/var/run/shared.sock', env).key).toBe(other.key);
    expect(tmuxPaneKey(resolveTmuxSocket('work', env), serverLife('4242', '1700000000'), '%3')).toBe('tmux:work@4242-s44we8:%3');
    expect(serverLife('', 'x')).toBe('0-0');
  });

  it('follows $TMUX for the default server, as plain tmux does', () => {
    expect(resolveTmuxSocket('', { ...env, TMUX: `/run/t/tmux-${uid}/mine,123,0` }).key).toBe('mine');
  });
});
