// The tmux watcher against a real tmux server on a private socket, with a sink that records what it is told: panes
// found in every session and seeded from their screens, output followed, panes created, resized, renamed, closed,
// the foreground command, the server killed and restarted, and a flooding pane paused by tmux and resumed.
// No timed assertions: every wait is for a condition, with a generous bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxWatcher, PAUSE_AFTER_S } from '../../src/attach/tmux/tmux-watcher.js';
import type { TmuxSink } from '../../src/attach/tmux/tmux-sink.js';
import { ControlClient } from '../../src/attach/tmux/control-client.js';
import type { Reply } from '../../src/attach/tmux/control-protocol.js';
import { resolveTmuxSocket } from '../../src/attach/tmux/tmux-socket.js';
import { serverLife } from '../../src/attach/tmux/pane-list.js';
import { testEnv, waitFor } from './harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';

const missing = tmuxMissing();
if (missing) console.warn(`tmux watcher tests SKIPPED: ${missing}`);

type Ev = { type: string; id: string; [k: string]: unknown };

class RecordingSink implements TmuxSink {
  readonly events: Ev[] = [];
  readonly text = new Map<string, string>();
  /** Set to hold back-pressure on every pane (the daemon's pipeline "cannot keep up"). */
  hold: Promise<void> | null = null;
  open(p: { id: string; name: string; command: string; cols: number; rows: number }) {
    this.events.push({ type: 'open', ...p });
    this.text.set(p.id, '');
  }
  output(id: string, data: string) {
    this.text.set(id, (this.text.get(id) ?? '') + data);
  }
  /** Set to make seeds "not read yet" until it resolves. */
  seedRead: Promise<void> | null = null;
  seed(id: string, data: string) {
    this.events.push({ type: 'seed', id });
    this.output(id, data);
    return this.seedRead;
  }
  process(id: string, name: string) {
    this.events.push({ type: 'process', id, name });
  }
  resize(id: string, cols: number, rows: number) {
    this.events.push({ type: 'resize', id, cols, rows });
  }
  rename(id: string, name: string) {
    this.events.push({ type: 'rename', id, name });
  }
  exit(id: string, code: number | null) {
    this.events.push({ type: 'exit', id, code });
  }
  close(id: string, why: string) {
    this.events.push({ type: 'close', id, why });
  }
  backlog(): Promise<void> | null {
    return this.hold;
  }
  opened(): string[] {
    return this.events.filter((e) => e.type === 'open').map((e) => e.id);
  }
  open_(id: string): boolean {
    let open = false;
    for (const e of this.events) if (e.id === id && (e.type === 'open' || e.type === 'close')) open = e.type === 'open';
    return open;
  }
  has(pred: (e: Ev) => boolean): boolean {
    return this.events.some(pred);
  }
  diag = () => `sink events:\n${this.events.map((e) => '  ' + JSON.stringify(e)).join('\n')}`;
}

const logs: Array<{ fields: Record<string, unknown>; msg: string }> = [];
const log = {
  info: (fields: object, msg: string) => void logs.push({ fields: fields as Record<string, unknown>, msg }),
  warn: (fields: object, msg: string) => void logs.push({ fields: fields as Record<string, unknown>, msg }),
  debug: (fields: object, msg: string) => void logs.push({ fields: fields as Record<string, unknown>, msg }),
};

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  logs.length = 0;
});

function setup(): { tmux: TestTmux; sink: RecordingSink; watch: () => Promise<TmuxWatcher>; id: (pane: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-tmux-'));
  const env = testEnv(dir);
  const tmux = new TestTmux(env);
  const sink = new RecordingSink();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => tmux.kill(true));
  const socket = resolveTmuxSocket(tmux.socket, env);
  return {
    tmux,
    sink,
    id: (pane) => tmux.paneId(pane),
    watch: async () => {
      const w = new TmuxWatcher({ socket, sink, log, env });
      cleanups.push(() => w.stop());
      expect(await w.start()).toBe(true);
      return w;
    },
  };
}

describe.skipIf(missing !== null)('tmux control client (real tmux, private socket)', () => {
  it('holds commands until the attach is answered, and keeps replies in step when a command in a list fails', async () => {
    const { tmux } = setup();
    tmux.newSession('work', BASH);
    const socket = resolveTmuxSocket(tmux.socket, tmux.env);
    let attached: boolean | null = null;
    const c = new ControlClient(
      { tmux: 'tmux', socketArgs: socket.args, session: '$0', flags: 'ignore-size', env: tmux.env },
      { output: () => {}, notification: () => {}, attached: (ok) => (attached = ok), chunkDone: () => {}, exit: () => {} },
    );
    cleanups.push(() => c.close());
    const replies: Reply[][] = [];
    // Sent at once: before the attach, refresh-client would fail ("no current client").
    c.command([`refresh-client -B 'x:%*:#{pane_id}'`], (r) => replies.push(r));
    // tmux runs nothing after a failing command of a list: the watcher must not wait for those replies.
    c.command(['capture-pane -p -t %99', 'display-message -p never'], (r) => replies.push(r));
    c.command(['display-message -p after'], (r) => replies.push(r));
    await waitFor('three replies', () => replies.length === 3, () => JSON.stringify(replies));
    expect(attached).toBe(true);
    expect(replies.map((r) => r.map((x) => x.ok))).toEqual([[true], [false, false], [true]]);
    expect(replies[2]![0]!.lines).toEqual(['after']);
  });
});

describe.skipIf(missing !== null)('tmux watcher (real tmux, private socket)', () => {
  it('finds the panes of every session, seeds each from its screen, follows output, and never resizes a window', async () => {
    const { tmux, sink, watch, id } = setup();
    const a = tmux.newSession('alpha', BASH, 90, 20);
    const b0 = tmux.newSession('beta', BASH, 100, 30);
    const b1 = tmux.split(b0, BASH);
    tmux.type(a, 'echo before-attach');
    await waitFor('the echo in tmux', () => tmux.screen(a).includes('before-attach\n'));
    const sizes = tmux.run('list-windows', '-a', '-F', '#{session_name} #{window_width}x#{window_height}');

    await watch();
    await waitFor('three panes opened', () => sink.opened().length === 3, sink.diag);
    expect(sink.events.find((e) => e.type === 'open' && e.id === id(a))).toMatchObject({ name: 'alpha:0.0', command: 'bash', cols: 90, rows: 20 });
    expect(sink.events.find((e) => e.type === 'open' && e.id === id(b1))).toMatchObject({ name: 'beta:0.1', command: 'bash' });
    // The seed: what was on screen before we came, without a newline (it is not output anybody produced now).
    await waitFor('the seed of alpha', () => sink.text.get(id(a))!.includes('before-attach'), sink.diag);
    expect(sink.text.get(id(a))).not.toContain('\n');

    tmux.type(b1, "printf '\\303\\251t\\303\\251 %s\\n' done");
    await waitFor('the output of beta:0.1, UTF-8 whole', () => sink.text.get(id(b1))!.includes('été done\r\n'), () => `${sink.diag()}\n${JSON.stringify(sink.text.get(id(b1)))}`);
    expect(sink.text.get(id(b0))).not.toContain('été');
    expect(tmux.run('list-windows', '-a', '-F', '#{session_name} #{window_width}x#{window_height}')).toBe(sizes);
    // Our clients are control clients of no size (ignore-size), attached to each session.
    expect(tmux.run('list-clients', '-F', '#{client_control_mode} #{client_flags}').trim().split('\n')).toEqual([expect.stringMatching(/^1 .*ignore-size,pause-after=2/), expect.stringMatching(/^1 .*ignore-size/)]);
  });

  it('follows new, resized, renamed and closed panes, and the foreground command', async () => {
    const { tmux, sink, watch, id } = setup();
    const a = tmux.newSession('work', BASH, 100, 30);
    await watch();
    await waitFor('the first pane', () => sink.opened().length === 1, sink.diag);

    const b = tmux.split(a, BASH);
    await waitFor('the new pane opened', () => sink.opened().includes(id(b)), sink.diag);
    await waitFor('the first pane resized by the split', () => sink.has((e) => e.type === 'resize' && e.id === id(a) && e.rows === 15), sink.diag);

    tmux.type(b, 'sleep 30');
    await waitFor('the foreground command: sleep', () => sink.has((e) => e.type === 'process' && e.id === id(b) && e.name === 'sleep'), sink.diag);
    tmux.keys(b, 'C-c');
    await waitFor('back to bash', () => sink.events.filter((e) => e.type === 'process' && e.id === id(b)).at(-1)?.name === 'bash', sink.diag);

    tmux.run('rename-session', '-t', 'work', 'play');
    await waitFor('renamed', () => sink.has((e) => e.type === 'rename' && e.id === id(a) && e.name === 'play:0.0'), sink.diag);

    tmux.run('new-window', '-d', '-t', 'play', BASH);
    await waitFor('a pane in a new window', () => sink.opened().length === 3, sink.diag);

    tmux.run('kill-pane', '-t', b);
    await waitFor('the killed pane closed', () => sink.has((e) => e.type === 'close' && e.id === id(b) && e.why === 'pane closed'), sink.diag);
    await waitFor('the first pane back to full height', () => sink.events.filter((e) => e.type === 'resize' && e.id === id(a)).at(-1)?.rows === 30, sink.diag);
    const s2 = tmux.newSession('second', BASH);
    await waitFor('a pane of a session created later', () => sink.opened().includes(id(s2)), sink.diag);
    // With detach-on-destroy off tmux moves a client of an ended session to another one: ours leaves instead.
    tmux.run('set-option', '-g', 'detach-on-destroy', 'off');
    tmux.run('kill-session', '-t', 'second');
    await waitFor('its pane closed with the session', () => !sink.open_(id(s2)), sink.diag);
    expect(sink.open_(id(a))).toBe(true);
    await waitFor('one control client per session left', () => tmux.run('list-clients', '-F', '#{client_session}').trim() === 'play', () => tmux.run('list-clients'));
  });

  it('holds a pane\'s output until its seed has been read, then hands it over in order', async () => {
    const { tmux, sink, watch, id } = setup();
    const a = tmux.newSession('work', BASH);
    await waitFor('the prompt on the tmux screen', () => tmux.screen(a).includes('$'));
    let read!: () => void;
    sink.seedRead = new Promise<void>((r) => (read = r));
    await watch();
    await waitFor('the seed', () => sink.has((e) => e.type === 'seed' && e.id === id(a)), sink.diag);
    const seeded = sink.text.get(id(a))!.length;
    tmux.type(a, 'echo one; echo two');
    await waitFor('the echo in tmux', () => tmux.screen(a).includes('two\n$'));
    expect(sink.text.get(id(a))!.length).toBe(seeded);
    read();
    await waitFor('the held output', () => sink.text.get(id(a))!.slice(seeded).includes('one\r\ntwo\r\n'), sink.diag);
  });

  it('closes every pane when the server dies; a restarted server\'s panes are new panes (new ids), though tmux numbers them alike', async () => {
    const { tmux, sink, watch, id } = setup();
    const a = tmux.newSession('work', BASH);
    await watch();
    const first = id(a);
    await waitFor('the pane', () => sink.open_(first), sink.diag);
    tmux.kill();
    await waitFor('closed: server gone', () => sink.has((e) => e.type === 'close' && e.id === first && e.why === 'tmux server gone'), sink.diag);
    const again = tmux.newSession('work', BASH);
    expect(again).toBe(a); // a new server numbers its panes from %0 again…
    expect(id(a)).not.toBe(first); // …but it is another pane: its id carries the server's run
    await waitFor('the new pane', () => sink.open_(id(a)), sink.diag);
    expect(sink.events.filter((e) => e.type === 'open' && e.id === first)).toHaveLength(1);
    // Typed once the pane is followed (seeded with its prompt, or its prompt streamed): else the echo is in the seed.
    await waitFor('the prompt', () => sink.text.get(id(a))!.includes('$'), sink.diag);
    tmux.type(a, 'echo after-restart');
    await waitFor('followed again', () => sink.text.get(id(a))!.includes('after-restart\r\n'), sink.diag);
  });

  it('a server restarted before the watcher saw it gone: the old panes end, the new %0 is a new pane', async () => {
    const { tmux, sink, watch, id } = setup();
    const a = tmux.newSession('work', 'sleep 600');
    await watch();
    const first = id(a);
    await waitFor('the pane', () => sink.open_(first), sink.diag);
    // kill-server and a new server in one go, as a script or a person's quick `tmux kill-server; tmux` does.
    const [pid = '', start = ''] = tmux.run('display-message', '-p', '#{pid} #{start_time}').trim().split(' ');
    tmux.kill();
    // kill-server returns before the old server has gone: a new-session that reaches it as it exits is refused
    // ("server exited unexpectedly"), and is simply tried again, as the person would.
    let again = '';
    for (let i = 0; !again; i++) {
      try {
        again = tmux.newSession('work', 'sleep 600');
      } catch (e) {
        if (i >= 40 || !/server exited unexpectedly/.test(String(e))) throw e;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    expect(again).toBe(a);
    expect(id(a)).not.toBe(first);
    expect(first).toBe(`tmux:${tmux.socket}@${serverLife(pid, start)}:${a}`);
    await waitFor('the new pane open', () => sink.open_(id(a)), sink.diag);
    await waitFor('the old pane closed', () => sink.has((e) => e.type === 'close' && e.id === first), sink.diag);
    expect(sink.open_(first)).toBe(false);
  });

  it('a flooding pane the daemon cannot keep up with is paused by tmux, then resumed and re-read; its neighbour goes on', async () => {
    const { tmux, sink, watch, id } = setup();
    const flood = tmux.newSession('flood', BASH);
    const calm = tmux.split(flood, BASH);
    // The person watching the session in their terminal: tmux keeps reading the pane for them (a session only
    // control clients watch is instead read no faster than they take it, so there is nothing to pause).
    const person = pty.spawn('tmux', ['-L', tmux.socket, 'attach-session', '-t', 'flood'], { name: 'xterm-256color', cols: 100, rows: 30, env: tmux.env });
    person.onData(() => {});
    cleanups.push(() => person.kill());
    await waitFor('the person attached', () => tmux.run('list-clients', '-F', '#{client_control_mode}').includes('0'));
    await watch();
    await waitFor('both panes seeded', () => sink.opened().length === 2 && [flood, calm].every((p) => sink.text.get(id(p))!.includes('$')), sink.diag);

    tmux.type(flood, 'yes flooding-the-pane');
    await waitFor('the flood reaching us', () => sink.text.get(id(flood))!.includes('flooding-the-pane\r\nflooding-the-pane\r\n'), sink.diag);
    let release!: () => void;
    sink.hold = new Promise<void>((r) => (release = r));
    // The pipeline "cannot keep up" for longer than the pause-after age: tmux must pause the pane, not stall.
    await new Promise((r) => setTimeout(r, PAUSE_AFTER_S * 1000 + 2000));
    sink.hold = null;
    release();
    await waitFor('tmux paused the flooding pane', () => logs.some((l) => l.fields['event'] === 'tmux_paused' && l.fields['pane'] === id(flood)), () => JSON.stringify(logs));
    const before = sink.text.get(id(flood))!.length;
    await waitFor('resumed and re-seeded', () => sink.text.get(id(flood))!.slice(before).includes('\x1b[?1049l\x1b[0m\x1b[H\x1b[2J'), sink.diag);
    tmux.keys(flood, 'C-c');
    tmux.type(calm, 'echo calm-neighbour');
    await waitFor('the neighbour still followed', () => sink.text.get(id(calm))!.includes('calm-neighbour\r\n'), sink.diag);
  });
});
