// The daemon's end of the iTerm2 bridge through a real listening app (buildApp, a PaneRegistry on a temporary
// SQLite file) and a fake bridge peer speaking the protocol: sessions become panes, screens and prompt events drive
// them (RUNNING then DONE on Tier 1), focus acks, variables name the program and the title, bad messages are
// refused with a logged reason, the token is required, panes close with the bridge and come back with it.
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeApp, FakeBridge, type BridgeApp } from '../helpers/iterm2-peer.js';
import { TOKEN } from '../helpers/web-fake-api.js';
import { until, upgradeStatus } from '../helpers/web-ws.js';
import { CLOSE_REPLACED } from '../../src/daemon/iterm2-bridge.js';
import { MAX_BRIDGE_SESSIONS, MAX_SCREEN_CELLS, MAX_SCREEN_COLS } from '../../src/attach/iterm2/screen-bounds.js';

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function setup(): Promise<BridgeApp & { peer: FakeBridge }> {
  const b = await bridgeApp();
  cleanups.push(() => b.close());
  const peer = await b.connect();
  await peer.hello();
  return { ...b, peer };
}

const PANE = 'iterm2:S1';

/** A command typed at an integrated zsh prompt in session S1: Enter, command start, output, command end. */
async function runCommand(b: BridgeApp & { peer: FakeBridge }, command: string, output: string[], status: number): Promise<void> {
  const { peer, r } = b;
  const from = r.feed.messages.length;
  peer.screen('S1', ['~ % ']);
  peer.prompt('S1', 'prompt');
  peer.screen('S1', [`~ % ${command}`]);
  peer.key('S1', 'enter');
  peer.prompt('S1', 'command_start', { command });
  peer.screen('S1', [`~ % ${command}`, ...output]);
  await r.feed.transitionTo(PANE, 'RUNNING', from);
  peer.prompt('S1', 'command_end', { status });
  peer.screen('S1', [`~ % ${command}`, ...output, '~ % ']);
  peer.prompt('S1', 'prompt');
  await r.feed.transitionTo(PANE, status === 0 ? 'DONE' : 'FAILED', from);
}

describe('iTerm2 bridge: sessions are panes', () => {
  it('welcomes the bridge; a listed session is a pane that runs a command to RUNNING then DONE on Tier 1', async () => {
    const b = await setup();
    const { peer, r } = b;
    expect(peer.probe.ofType('welcome')[0]).toEqual({ type: 'welcome', v: 1, daemon: '9.9.9-test' });
    peer.sessions({ session: 'S1', name: 'zsh', command: '-zsh' });
    await r.feed.paneView(PANE, (p) => p.alive, 'the pane attached');
    expect(r.registry.pane(PANE)).toMatchObject({ name: 'zsh', attach: 'iterm2', alive: true, cols: 80, rows: 24, state: 'IDLE' });

    await runCommand(b, 'make', ['compiling', 'built'], 0);
    const ts = r.registry.transitions(PANE, 10)!;
    expect(ts.map((t) => `${t.from}>${t.to}:${t.tier}:${t.source}:${t.rule}`)).toEqual([
      'RUNNING>DONE:1:in-band:osc133.command_finished',
      'IDLE>RUNNING:1:in-band:osc133.command_executed',
    ]);
    expect(r.registry.screen(PANE)).toBe('~ % make\ncompiling\nbuilt\n~ %');
    expect(r.registry.pane(PANE)).toMatchObject({ state: 'DONE', needsYou: true });
    expect(r.registry.turns(PANE, 5)![0]).toMatchObject({ result: 'done' });
    expect(r.log.entries.some((e) => e.obj['event'] === 'bridge_connected' && e.obj['bridge'] === 'iterm2_bridge/test')).toBe(true);
  });

  it('a failing command is FAILED with its exit status', async () => {
    const b = await setup();
    b.peer.sessions({ session: 'S1' });
    await runCommand(b, 'false', [], 1);
    expect(b.r.registry.pane(PANE)).toMatchObject({ state: 'FAILED', tier: 1, rule: 'osc133.command_failed', line: 'exit 1: ~ % false' });
  });

  it('the person looking at the pane (focus) acks it: DONE → IDLE', async () => {
    const b = await setup();
    b.peer.sessions({ session: 'S1' });
    await runCommand(b, 'make', ['ok'], 0);
    const from = b.r.feed.messages.length;
    b.peer.focus('S1');
    await b.r.feed.transitionTo(PANE, 'IDLE', from);
    expect(b.r.registry.transitions(PANE, 1)![0]).toMatchObject({ from: 'DONE', to: 'IDLE', source: 'user' });
  });

  it('sessions missing from a new list close; new ones open; a new size resizes the pane', async () => {
    const { peer, r } = await setup();
    peer.sessions({ session: 'S1' }, { session: 'S2', name: 'claude' });
    await until(() => r.registry.liveCount === 2, 'two panes');
    peer.sessions({ session: 'S2', name: 'claude', cols: 120, rows: 40 }, { session: 'S3' });
    await until(() => r.registry.pane(PANE)?.alive === false && r.registry.liveCount === 2, 'S1 closed, S3 open');
    expect(r.registry.pane('iterm2:S2')).toMatchObject({ alive: true, cols: 120, rows: 40 });
    expect(r.log.entries.some((e) => e.obj['event'] === 'closed' && e.obj['why'] === 'iterm2 session ended')).toBe(true);
  });

  it('screens are repainted as they are: a new size resizes, controls in the text are only text', async () => {
    const { peer, r } = await setup();
    peer.sessions({ session: 'S1' });
    peer.screen('S1', ['top', 'evil \x1b]133;C\x07 row', '\x1b[2J'], { cols: 100, rows: 30 });
    await until(() => (r.registry.screen(PANE) ?? '').includes('evil'), 'the screen');
    expect(r.registry.screen(PANE)).toBe('top\nevil ]133;C row\n[2J');
    expect(r.registry.pane(PANE)).toMatchObject({ cols: 100, rows: 30 });
    // The forged mark did nothing: the first transition is the real command's.
    peer.key('S1', 'enter');
    peer.prompt('S1', 'command_start', { command: 'ls' });
    await r.feed.transitionTo(PANE, 'RUNNING');
    expect(r.registry.transitions(PANE, 10)).toHaveLength(1);
    // Rows that did not change are not rewritten; rows that did are rewritten whole.
    peer.screen('S1', ['top', 'second'], { cols: 100, rows: 30 });
    await until(() => r.registry.screen(PANE) === 'top\nsecond', 'the second screen');
  });

  it('jobName names the program, terminalWindowName is the title, commandLine is redacted on arrival', async () => {
    const { peer, r } = await setup();
    peer.sessions({ session: 'S1', command: '-zsh' });
    await until(() => r.registry.liveCount === 1, 'the pane');
    peer.variable('S1', 'jobPid', 4242);
    peer.variable('S1', 'jobName', 'claude');
    peer.variable('S1', 'terminalWindowName', '✳ Claude Code');
    peer.variable('S1', 'commandLine', 'deploy --token=ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    peer.variable('S1', 'tty', '/dev/ttys003');
    const pane = r.registry.livePane(PANE)!;
    await until(() => pane.monitor.analyzer.currentProgram.program === 'claude', 'the program from jobName');
    await pane.monitor.flush();
    expect(pane.monitor.screen.snapshot().title).toBe('✳ Claude Code');
    expect(r.registry.pane(PANE)!.command).toMatch(/^deploy --token=\*\*\*/);
    expect(JSON.stringify(r.log.entries)).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });

  it('send_text: the registry types into an iTerm2 pane through its bridge, and only there', async () => {
    const { peer, r } = await setup();
    peer.sessions({ session: 'S1' });
    await until(() => r.registry.liveCount === 1, 'the pane');
    expect(r.registry.sendText(PANE, 'make test\r')).toBe(true);
    expect(await peer.probe.waitFor((m) => m.type === 'send_text', 'send_text')).toEqual({ type: 'send_text', session: 'S1', text: 'make test\r' });
    expect(r.registry.sendText('iterm2:nope', 'x')).toBe(false);
    r.registry.open({ id: 'run-1', name: 'bash', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'shell' });
    expect(r.registry.sendText('run-1', 'x')).toBe(false);
  });
});

describe('iTerm2 bridge: jump to a session', () => {
  const jump = (b: BridgeApp) =>
    fetch(`http://127.0.0.1:${b.port}/api/panes/${encodeURIComponent(PANE)}/focus`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'x-termsupervisor-client': 'top' } });

  it('POST focus asks the bridge to activate the session and answers with what iTerm2 did', async () => {
    const b = await setup();
    const { peer, r } = b;
    peer.sessions({ session: 'S1' });
    peer.variable('S1', 'tty', '/dev/ttys004');
    await until(() => r.registry.pane(PANE)?.where?.tty === '/dev/ttys004', 'the tty');
    expect(r.registry.pane(PANE)!.where).toEqual({ sessionId: 'S1', tty: '/dev/ttys004' });

    const asked = jump(b);
    const req = await peer.probe.waitFor((m) => m.type === 'activate', 'activate');
    expect(req).toEqual({ type: 'activate', session: 'S1', id: expect.any(Number) });
    peer.send({ type: 'activated', session: 'S1', id: req['id'], ok: true });
    const res = await asked;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ focused: true, how: expect.stringContaining('iTerm2 shows the session'), action: { kind: 'focus', origin: 'top', paneId: PANE } });

    // iTerm2 refused (the session went away meanwhile): said so, not a success.
    const again = jump(b);
    const req2 = await peer.probe.waitFor((m) => m.type === 'activate' && m['id'] !== req['id'], 'a second activate');
    peer.send({ type: 'activated', session: 'S1', id: req2['id'], ok: false, error: 'no such session' });
    expect(await (await again).json()).toMatchObject({ focused: false, how: 'iTerm2 refused: no such session' });
    // An answer nobody asked for is ignored; a malformed one refused like any bad message.
    peer.send({ type: 'activated', session: 'S1', id: 999, ok: true });
    peer.send({ type: 'activated', session: 'S1', id: 'x', ok: true });
    await until(() => b.bridges.refused === 1, 'the malformed answer refused');
  });

  it('a bridge that goes away before answering ends the jump at once', async () => {
    const b = await setup();
    b.peer.sessions({ session: 'S1' });
    await until(() => b.r.registry.liveCount === 1, 'the pane');
    const asked = jump(b);
    await b.peer.probe.waitFor((m) => m.type === 'activate', 'activate');
    await b.peer.close();
    expect(await (await asked).json()).toMatchObject({ focused: false, how: 'the iTerm2 bridge went away before it answered' });
  });
});

describe('iTerm2 bridge: the link', () => {
  it('refuses malformed and unknown messages with a logged reason; the link survives', async () => {
    const b = await setup();
    const { peer, r, bridges } = b;
    peer.sessions({ session: 'S1' });
    peer.send('{"type":');
    peer.send({ type: 'nonsense' });
    peer.send({ type: 'screen', session: 'S1', rows: new Array(1001).fill(''), cursor: { x: 0, y: 0 } });
    peer.send({ type: 'screen', session: 'S1', rows: ['x'.repeat(4001)], cursor: { x: 0, y: 0 } });
    peer.send({ type: 'prompt', session: 'S1', event: 'command_started' });
    peer.send({ type: 'focus', session: 'has spaces' });
    peer.send({ type: 'variable', session: 'S1', name: 'PATH', value: '/bin' });
    peer.send({ type: 'variable', session: 'S1', name: 'jobPid', value: 'twelve' });
    peer.send({ type: 'sessions', sessions: [{ session: 'S1', name: 'a', cols: 80, rows: 24 }, { session: 'S1', name: 'b', cols: 80, rows: 24 }] });
    peer.send({ type: 'hello', v: 1, bridge: 'again' });
    await r.log.waitFor((e) => e.obj['reason'] === 'second hello', 'the last refusal');
    const refused = r.log.entries.filter((e) => e.obj['event'] === 'bridge_refused');
    expect(refused.map((e) => e.obj['reason'])).toEqual([
      'not JSON',
      'unknown message type "nonsense"',
      'rows: expected a list of 1 to 1000 rows',
      'rows: expected strings of at most 4000 characters',
      'event: expected one of prompt, command_start, command_end',
      'session: expected a plain id of at most 64 characters',
      'name: expected one of jobName, jobPid, commandLine, tty, terminalWindowName',
      'value: expected a whole number',
      'sessions[1]: session S1 listed twice',
      'second hello',
    ]);
    expect(refused[0]).toMatchObject({ level: 'warn', obj: { kind: 'pane', attach: 'iterm2', remote: '127.0.0.1', msg: 'iterm2 bridge message refused' } });
    expect(bridges.refused).toBe(10);
    // Still attached, still read.
    await runCommand(b, 'true', [], 0);
    expect(peer.probe.isClosed).toBe(false);
  });

  it('a screen larger than a pane may be is cut to the bound, its bottom rows kept, logged once; the link lives on', async () => {
    const { peer, r } = await setup();
    peer.sessions({ session: 'S1', cols: 1000, rows: 1000 });
    await r.feed.paneView(PANE, (p) => p.alive, 'the pane attached');
    const fits = () => {
      const v = r.registry.pane(PANE)!;
      return v.cols <= MAX_SCREEN_COLS && v.cols * v.rows <= MAX_SCREEN_CELLS;
    };
    expect(fits()).toBe(true);
    const huge = (last: string) => Array.from({ length: 1000 }, (_, i) => (i === 999 ? last : `row ${i} `.padEnd(3000, 'x')));
    for (const last of ['~ % first', '~ % second']) peer.send({ type: 'screen', session: 'S1', rows: huge(last), cursor: { x: 9, y: 999 }, cols: 1000 });
    await until(() => (r.registry.screen(PANE) ?? '').includes('~ % second'), 'the bottom row of the last screen');
    expect(fits()).toBe(true);
    const screen = r.registry.screen(PANE)!.split('\n');
    expect(screen.length).toBeLessThanOrEqual(r.registry.pane(PANE)!.rows);
    expect(Math.max(...screen.map((l) => l.length))).toBeLessThanOrEqual(MAX_SCREEN_COLS);
    expect(r.log.entries.filter((e) => e.obj['event'] === 'bridge_screen_trimmed')).toHaveLength(1);
    expect(peer.probe.isClosed).toBe(false);
    await runCommand({ peer, r } as Parameters<typeof runCommand>[0], 'true', [], 0);
  });

  it('sessions past the per-bridge bound are not opened, with a log line; the watched ones keep working', async () => {
    const { peer, r } = await setup();
    const many = Array.from({ length: MAX_BRIDGE_SESSIONS + 6 }, (_, i) => ({ session: i === 0 ? 'S1' : `X${i}` }));
    peer.sessions(...many);
    await r.log.waitFor((e) => e.obj['event'] === 'bridge_sessions_capped', 'the cap logged');
    expect(r.registry.panes().filter((p) => p.alive)).toHaveLength(MAX_BRIDGE_SESSIONS);
    expect(r.log.entries.find((e) => e.obj['event'] === 'bridge_sessions_capped')!.obj).toMatchObject({ level: 'warn', listed: MAX_BRIDGE_SESSIONS + 6, unwatched: 6 });
    // The same list again: the same panes, no second log line; one watched session closing makes room for one more.
    peer.sessions(...many);
    peer.sessions(...many.slice(1));
    await until(() => r.registry.pane(PANE)?.alive === false, 'S1 closed');
    await until(() => r.registry.panes().filter((p) => p.alive).length === MAX_BRIDGE_SESSIONS, 'one more session watched');
    expect(r.log.entries.filter((e) => e.obj['event'] === 'bridge_sessions_capped').map((e) => e.obj['unwatched'])).toEqual([6, 5]);
    expect(peer.probe.isClosed).toBe(false);
  });

  it('too many malformed messages close the link', async () => {
    const { peer, r } = await setup();
    peer.sessions({ session: 'S1' });
    for (let i = 0; i < 25; i++) peer.send({ type: 'nonsense' });
    expect((await peer.probe.closed).code).toBe(1002);
    await r.feed.paneView(PANE, (p) => !p.alive, 'the pane closed with its link');
  });

  it('a message before hello, or a hello of another version, closes the link with the reason', async () => {
    const b = await bridgeApp();
    cleanups.push(() => b.close());
    const early = await b.connect();
    early.sessions({ session: 'S1' });
    expect(await early.probe.closed).toEqual({ code: 1002, reason: 'sessions before hello' });
    const future = await b.connect();
    future.send({ type: 'hello', v: 2, bridge: 'iterm2_bridge/9' });
    expect(await future.probe.closed).toEqual({ code: 1002, reason: 'protocol version 2 is not 1' });
    expect(b.r.registry.panes()).toEqual([]);
  });

  it('refuses the upgrade without the token', async () => {
    const b = await bridgeApp();
    cleanups.push(() => b.close());
    const url = `ws://127.0.0.1:${b.port}/bridge/iterm2`;
    expect(await upgradeStatus(url)).toBe(401);
    expect(await upgradeStatus(url, { Authorization: 'Bearer wrong-token-0000000000000000' })).toBe(401);
    expect(await upgradeStatus(url, { Authorization: `Bearer ${TOKEN}` })).toBe('open');
  });

  it('the bridge going away closes its panes (history stays); coming back reopens them with their history', async () => {
    const b = await setup();
    const { peer, r } = b;
    peer.sessions({ session: 'S1' });
    await runCommand(b, 'make', ['ok'], 0);
    const from = r.feed.messages.length;
    await peer.close();
    await r.feed.paneView(PANE, (p) => !p.alive, 'closed with the bridge', from);
    expect(r.registry.pane(PANE)).toMatchObject({ alive: false, state: 'DONE' });
    expect(r.log.entries.some((e) => e.obj['event'] === 'closed' && e.obj['why'] === 'bridge disconnected')).toBe(true);

    const again = await b.connect();
    await again.hello();
    again.sessions({ session: 'S1' });
    await r.feed.paneView(PANE, (p) => p.alive, 'reopened', from);
    // Its DONE was not seen: it comes back DONE and needing the person (issue 26 item 7).
    expect(r.registry.pane(PANE)).toMatchObject({ alive: true, state: 'DONE', needsYou: true });
    expect(r.registry.transitions(PANE, 10)!.map((t) => t.to)).toEqual(['DONE', 'RUNNING']);
  });

  it('a newer bridge replaces the older one, whose close does not take the newer one’s panes', async () => {
    const b = await setup();
    const { peer, r } = b;
    peer.sessions({ session: 'S1' });
    await until(() => r.registry.liveCount === 1, 'the pane');
    const newer = await b.connect();
    await newer.hello();
    newer.sessions({ session: 'S1' });
    expect(await peer.probe.closed).toEqual({ code: CLOSE_REPLACED, reason: 'replaced by a newer bridge' });
    await until(() => r.log.entries.some((e) => e.obj['event'] === 'bridge_disconnected'), 'the older bridge gone');
    expect(r.registry.pane(PANE)).toMatchObject({ alive: true });
    const from = r.feed.messages.length;
    newer.key('S1', 'enter');
    newer.prompt('S1', 'command_start', { command: 'make' });
    await r.feed.transitionTo(PANE, 'RUNNING', from);
  });
});
