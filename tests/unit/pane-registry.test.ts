// The daemon's panes on a real history store (temporary SQLite file): LivePane with a real PaneMonitor on the
// wall clock, driven by OSC 133 marks (Tier 1: they act at once), then the views, history, ack and close the
// web layer reads. Then pane links through a real listening app and real websocket clients.
import { afterEach, describe, expect, it } from 'vitest';
import { Auth } from '../../src/web/auth.js';
import { buildApp } from '../../src/web/build-app.js';
import { PaneLinks } from '../../src/daemon/pane-links.js';
import { ParseBudget } from '../../src/screen/parse-budget.js';
import type { AddressInfo } from 'node:net';
import { makeWebDir, TOKEN } from '../helpers/web-fake-api.js';
import { OSC133, testRegistry, type TestRegistry } from '../helpers/web-registry.js';
import { until, WsProbe } from '../helpers/web-ws.js';
import { loadConfig } from '../../src/config/config.js';

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function registry(): TestRegistry {
  const r = testRegistry();
  cleanups.push(() => r.close());
  return r;
}

const shellPane = (id = 'p1') => ({ id, name: 'bash', attach: 'run' as const, command: 'bash --login', cols: 80, rows: 24, agent: 'shell' as const });
const promptMarks = `${OSC133.prompt}$ ${OSC133.input}`;

/** A command typed at an integrated shell prompt, running, then finishing with `code`. */
async function runCommand(r: TestRegistry, id: string, command: string, output: string, code: number): Promise<void> {
  const from = r.feed.messages.length;
  r.registry.feed(id, { kind: 'input', data: `${command}\r` });
  r.registry.feed(id, { kind: 'output', data: `${command}\r\n${OSC133.executed}${output}` });
  await r.feed.transitionTo(id, 'RUNNING', from);
  r.registry.feed(id, { kind: 'output', data: `${OSC133.finished(code)}${promptMarks}` });
  await r.feed.transitionTo(id, code === 0 ? 'DONE' : 'FAILED', from);
}

describe('pane registry', () => {
  it('a pane attaches, runs a command to DONE, is acked to IDLE, and closes into history', async () => {
    const r = registry();
    const { registry: reg } = r;
    reg.open(shellPane());
    expect(reg.panes()).toHaveLength(1);
    expect(reg.pane('p1')).toMatchObject({ id: 'p1', name: 'bash', state: 'IDLE', alive: true, needsYou: false, rule: 'attach.new', attach: 'run', cols: 80, rows: 24, shellIntegration: false });
    expect(r.feed.messages[0]).toMatchObject({ type: 'pane', pane: { id: 'p1', alive: true } });

    reg.feed('p1', { kind: 'output', data: promptMarks });
    await runCommand(r, 'p1', 'make test', 'building\r\nall 12 tests passed\r\n', 0);

    // Newest first, as the store gives them.
    const trs = reg.transitions('p1', 100)!;
    expect(trs.map((t) => `${t.from}→${t.to}`)).toEqual(['RUNNING→DONE', 'IDLE→RUNNING']);
    expect(trs[0]).toMatchObject({ paneId: 'p1', tier: 1, source: 'in-band', rule: 'osc133.command_finished', startedAtKept: true });
    expect(trs[1]).toMatchObject({ tier: 1, rule: 'osc133.command_executed', startedAtKept: false });
    expect(trs[0]!.at).toBeGreaterThanOrEqual(trs[1]!.at);
    expect(trs[0]!.startedAt).toBe(trs[1]!.at);
    expect(reg.transitions('p1', 1)).toHaveLength(1);

    const view = reg.pane('p1')!;
    expect(view).toMatchObject({ state: 'DONE', needsYou: true, alive: true, program: 'shell', tier: 1, source: 'in-band', shellIntegration: true });
    expect(view.edge.length).toBeGreaterThan(0);
    expect(view.edge.length).toBeLessThanOrEqual(r.cfg.daemon.edge_lines);
    expect(view.edge.join('\n')).toContain('all 12 tests passed');
    expect(reg.screen('p1')).toContain('all 12 tests passed');

    const turns = reg.turns('p1', 10)!;
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ paneId: 'p1', result: 'done', prompt: 'make test' });
    expect(turns[0]!.durationS).toBeGreaterThanOrEqual(0);

    // The person has seen it.
    const acked = reg.ack('p1', 'dashboard')!;
    expect(acked).toMatchObject({ state: 'IDLE', needsYou: false });
    expect(reg.transitions('p1', 1)![0]).toMatchObject({ from: 'DONE', to: 'IDLE', rule: 'ack.dashboard', source: 'user' });

    // A failing command: FAILED, and a failed turn.
    await runCommand(r, 'p1', 'false', '', 1);
    expect(reg.pane('p1')).toMatchObject({ state: 'FAILED', needsYou: true });
    expect(reg.turns('p1', 10)!.map((t) => [t.result, t.prompt])).toEqual([
      ['failed', 'false'],
      ['done', 'make test'],
    ]);

    // Stats: the signals counted, the panes by state.
    const stats = reg.stats();
    expect(Object.keys(stats.counters).length).toBeGreaterThan(0);
    expect(Object.keys(stats.counters).some((k) => k.startsWith('fired.tier1'))).toBe(true);
    expect(stats.panes).toEqual({ total: 1, alive: 1, byState: { FAILED: 1 } });
    expect(reg.metrics()).toMatch(/^termsupervisor_panes\{state="FAILED"\} 1$/m);
    expect(reg.metrics()).toMatch(/^termsupervisor_transitions_total\{to="DONE"\} 1$/m);

    // The source goes away: still listed, from the store, as closed.
    const from = r.feed.messages.length;
    reg.close('p1', 'test');
    const closed = await r.feed.paneView('p1', (p) => !p.alive, 'closed view', from);
    expect(closed.pane).toMatchObject({ alive: false, needsYou: false, edge: [], state: 'FAILED' });
    expect(reg.liveCount).toBe(0);
    expect(reg.panes()).toEqual([closed.pane]);
    expect(reg.pane('p1')).toEqual(closed.pane);
    expect(reg.screen('p1')).toBeNull();
    expect(reg.transitions('p1', 100)).toHaveLength(5);
    expect(r.store.pane('p1')!.closedAt).not.toBeNull();
    expect(reg.stats().panes).toEqual({ total: 1, alive: 0, byState: {} });
    // Feeding or acking a closed pane changes nothing.
    reg.feed('p1', { kind: 'output', data: 'late' });
    expect(reg.ack('p1', 'dashboard')).toEqual(closed.pane);
  });

  it("LONG_RUNNING keeps the turn's start: the pane's startedAt stays the command's start (the dashboard's \"running 4 m 30 s\"), through to DONE", async () => {
    const r = testRegistry({ cfg: loadConfig({ overrides: { thresholds: { long_running_s: 0.2 } } }) });
    cleanups.push(() => r.close());
    const reg = r.registry;
    reg.open(shellPane());
    reg.feed('p1', { kind: 'output', data: promptMarks });
    reg.feed('p1', { kind: 'input', data: 'sleep 5\r' });
    reg.feed('p1', { kind: 'output', data: `sleep 5\r\n${OSC133.executed}` });
    const run = await r.feed.transitionTo('p1', 'RUNNING');
    const long = await r.feed.transitionTo('p1', 'LONG_RUNNING');
    expect(long.transition).toMatchObject({ rule: 'timer.long_running', startedAt: run.transition.at, startedAtKept: true });
    const view = reg.pane('p1')!;
    expect(view.startedAt).toBe(run.transition.at);
    expect(view.since).toBe(long.transition.at);
    expect(view.since).toBeGreaterThan(view.startedAt);
    reg.feed('p1', { kind: 'output', data: `${OSC133.finished(0)}${promptMarks}` });
    await r.feed.transitionTo('p1', 'DONE');
    expect(reg.pane('p1')!.startedAt).toBe(run.transition.at);
  });

  it("a pane says which keys an interrupt types into it (config actions.keys), so a client can say it before sending; a closed pane none", () => {
    const r = registry();
    const reg = r.registry;
    reg.open(shellPane('sh'));
    reg.open({ ...shellPane('cc'), name: 'claude', command: 'claude', agent: 'claude' });
    expect(reg.pane('sh')!.interruptKeys).toBe(r.cfg.actions.keys['shell']!.interrupt);
    expect(reg.pane('sh')!.interruptKeys).toBe('Ctrl-C');
    expect(reg.pane('cc')!.interruptKeys).toBe('Esc');
    reg.close('sh', 'test');
    expect(reg.pane('sh')!.interruptKeys).toBeUndefined();
  });

  it('unknown panes are null everywhere', () => {
    const { registry: reg } = registry();
    expect(reg.pane('nope')).toBeNull();
    expect(reg.screen('nope')).toBeNull();
    expect(reg.transitions('nope', 10)).toBeNull();
    expect(reg.turns('nope', 10)).toBeNull();
    expect(reg.ack('nope', 'dashboard')).toBeNull();
    reg.feed('nope', { kind: 'output', data: 'x' });
    reg.close('nope', 'never opened');
    expect(reg.panes()).toEqual([]);
  });

  it('closing mid-turn saves the turn as interrupted', async () => {
    const r = registry();
    r.registry.open(shellPane());
    r.registry.feed('p1', { kind: 'output', data: promptMarks });
    r.registry.feed('p1', { kind: 'input', data: 'sleep 100\r' });
    r.registry.feed('p1', { kind: 'output', data: `sleep 100\r\n${OSC133.executed}` });
    await r.feed.transitionTo('p1', 'RUNNING');
    expect(r.registry.turns('p1', 10)).toEqual([expect.objectContaining({ result: null, end: null, prompt: 'sleep 100' })]);
    r.registry.close('p1', 'test');
    const [turn] = r.registry.turns('p1', 10)!;
    expect(turn).toMatchObject({ result: 'interrupted', prompt: 'sleep 100' });
    expect(turn!.end).not.toBeNull();
  });

  it("a one-shot program's exit, fed just before its source closes, is the closed pane's state (closeWhenRead)", async () => {
    for (const [how, want] of [['closeWhenRead', 'FAILED'], ['close', 'RUNNING']] as const) {
      const r = registry();
      const { registry: reg } = r;
      reg.open({ ...shellPane(), command: 'make test' });
      reg.feed('p1', { kind: 'command', phase: 'executed' });
      await r.feed.transitionTo('p1', 'RUNNING', 0);
      // Far longer than one parse slice (1.2 MB, tens of ms): the rest is parsed on later turns, so the events
      // behind it wait.
      reg.feed('p1', { kind: 'output', data: `${'compiling…\r\n'.repeat(100_000)}make: *** [test] Error 2\r\n` });
      reg.feed('p1', { kind: 'command', phase: 'finished', exitCode: 2 });
      reg.feed('p1', { kind: 'exit', code: 2 });
      // The link closes as soon as the wrapper's last message is sent: the events may not be parsed yet.
      if (how === 'closeWhenRead') await reg.closeWhenRead('p1', 'link closed');
      else reg.close('p1', 'link closed');
      expect(reg.pane('p1'), how).toMatchObject({ alive: false, state: want });
      if (how === 'closeWhenRead') expect(reg.pane('p1')).toMatchObject({ rule: 'run.command_failed', line: 'exit 2: make: *** [test] Error 2', source: 'process' });
    }
  });

  it('a pane coming back with the same id continues its history', async () => {
    const r = registry();
    r.registry.open(shellPane());
    r.registry.feed('p1', { kind: 'output', data: promptMarks });
    await runCommand(r, 'p1', 'ls', 'a b c\r\n', 0);
    const createdAt = r.store.pane('p1')!.createdAt;
    r.registry.close('p1', 'link closed');
    const before = r.store.pane('p1')!;
    expect(before.state).toBe('DONE');
    r.registry.open(shellPane());
    // Issue 26 item 7: an end nobody saw stays unseen on the new attachment (not IDLE), until acked.
    expect(r.registry.pane('p1')).toMatchObject({ alive: true, state: 'DONE', since: before.since, rule: before.rule, needsYou: true });
    expect(r.store.pane('p1')!.createdAt).toBe(createdAt);
    expect(r.registry.transitions('p1', 100)).toHaveLength(2);
    expect(r.registry.panes()).toHaveLength(1);
    expect(r.registry.ack('p1', 'test')).toMatchObject({ state: 'IDLE', needsYou: false, rule: 'ack.test' });
    // A pane that was acked before it went comes back as it was left: at rest, needing nobody.
    r.registry.close('p1', 'link closed');
    r.registry.open(shellPane());
    expect(r.registry.pane('p1')).toMatchObject({ alive: true, state: 'IDLE', rule: 'attach.reconnected', needsYou: false });
  });

  it('redacts secrets in what it keeps and shows', async () => {
    const r = registry();
    r.registry.open({ ...shellPane(), command: 'deploy --token=ghp_abcdefghijklmnopqrstuvwxyz0123456789' });
    expect(r.registry.pane('p1')!.command).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(r.store.pane('p1')!.command).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });

  it('GET /api/panes/:id/screen shows a key on screen redacted, as the edge and the log do; a task still reads it raw', async () => {
    const r = registry();
    const web = makeWebDir();
    const app = buildApp({ api: r.registry, auth: new Auth(TOKEN, true), webDir: web.dir, loopback: true, hub: { coalesceMs: 20, maxBufferedBytes: 1 << 20, slowDropMs: 10_000 } });
    cleanups.push(() => web.remove());
    cleanups.push(() => app.close());
    const key = 'sk-ant-' + 'api03-' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe';
    r.registry.open(shellPane());
    r.registry.feed('p1', { kind: 'output', data: `$ cat .env\r\nANTHROPIC_API_KEY=${key}\r\nexport KEY2 ${key}\r\n$ ` });
    await until(() => r.registry.rawScreen('p1')?.includes('KEY2') ?? false, 'the key on screen');
    const res = await app.fastify.inject({ method: 'GET', url: '/api/panes/p1/screen', headers: { host: '127.0.0.1' } });
    expect(res.statusCode).toBe(200);
    const text = (res.json() as { text: string }).text;
    expect(text).toContain('ANTHROPIC_API_KEY=');
    expect(text).toContain('export KEY2');
    expect(text).not.toContain('Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe');
    expect(r.registry.rawScreen('p1')).toContain(key);
  });
});

describe('pane links', () => {
  async function linkedApp(budget?: ParseBudget) {
    let links: PaneLinks | null = null;
    const r = testRegistry({ onLink: (_kind, ws, remote) => links!.accept(ws, remote) });
    links = new PaneLinks(r.registry, r.log.logger, budget);
    const web = makeWebDir();
    const app = buildApp({ api: r.registry, auth: new Auth(TOKEN, true), webDir: web.dir, loopback: true, hub: { coalesceMs: 20, maxBufferedBytes: 1 << 20, slowDropMs: 10_000 } });
    await app.fastify.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.fastify.server.address() as AddressInfo).port;
    cleanups.push(() => r.close());
    cleanups.push(() => web.remove());
    cleanups.push(() => app.close());
    cleanups.push(() => links!.closeAll());
    const connect = async () => {
      const ws = await WsProbe.open(`ws://127.0.0.1:${port}/api/pane-link`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      cleanups.push(() => ws.close());
      return ws;
    };
    return { r, links, app, port, connect };
  }
  const hello = { type: 'hello', v: 1, id: 'run-1-1-abc', name: 'bash', agent: 'shell', command: 'bash', cols: 80, rows: 24 };

  it('hello, output, exit: the pane appears, works, and closes with its link', async () => {
    const { r, connect } = await linkedApp();
    const link = await connect();
    link.send(hello);
    expect(await link.waitFor((m) => m.type === 'welcome', 'welcome')).toEqual({ type: 'welcome', v: 1, id: 'run-1-1-abc' });
    expect(r.registry.pane('run-1-1-abc')).toMatchObject({ alive: true, name: 'bash', attach: 'run', state: 'IDLE' });

    link.send({ type: 'output', data: promptMarks });
    link.send({ type: 'input', data: 'make\r' });
    link.send({ type: 'output', data: `make\r\n${OSC133.executed}compiling\r\n` });
    await r.feed.transitionTo('run-1-1-abc', 'RUNNING');
    link.send({ type: 'resize', cols: 100, rows: 30 });
    link.send({ type: 'output', data: `${OSC133.finished(0)}${promptMarks}` });
    await r.feed.transitionTo('run-1-1-abc', 'DONE');
    expect(r.registry.pane('run-1-1-abc')).toMatchObject({ state: 'DONE', cols: 100, rows: 30, needsYou: true });
    expect(r.registry.turns('run-1-1-abc', 10)![0]).toMatchObject({ result: 'done', prompt: 'make' });

    const from = r.feed.messages.length;
    link.send({ type: 'exit', code: 0 });
    link.ws.close(1000, 'exited');
    await r.feed.paneView('run-1-1-abc', (p) => !p.alive, 'closed view', from);
    expect(r.registry.liveCount).toBe(0);
    expect(r.registry.pane('run-1-1-abc')).toMatchObject({ alive: false, state: 'DONE' });
    expect(r.log.entries.some((e) => e.obj['event'] === 'closed' && e.obj['why'] === 'link closed')).toBe(true);
  });

  it('a hello that finds the thread\'s slice spent is admitted in a later turn, the link\'s next messages after it, in order', async () => {
    // A budget whose slice is spent for the first two asks: the hello waits for a later turn, and finds no room there
    // either, then is admitted (500 hellos at once held the daemon 451 ms in one turn).
    class Spent extends ParseBudget {
      deferred = 0;
      private asks = 0;
      override spent(): boolean {
        return ++this.asks <= 2;
      }
      override later(go: () => void, parsed: boolean): void {
        this.deferred++;
        super.later(go, parsed);
      }
    }
    const budget = new Spent();
    const { r, connect } = await linkedApp(budget);
    const link = await connect();
    link.send(hello);
    link.send({ type: 'output', data: 'first\r\n' });
    link.send({ type: 'output', data: 'second\r\n' });
    await link.waitFor((m) => m.type === 'welcome', 'welcome');
    await until(() => r.registry.rawScreen('run-1-1-abc')?.includes('second') ?? false, 'both outputs on screen');
    expect(r.registry.rawScreen('run-1-1-abc')!.split('\n').slice(0, 2)).toEqual(['first', 'second']);
    expect(budget.deferred).toBe(2);
    expect(r.log.entries.filter((e) => e.obj['event'] === 'link_refused')).toEqual([]);
  });

  it('a hello with the shell\'s mark nonce: marks without it are ignored, marks with it are Tier 1', async () => {
    const { r, connect } = await linkedApp();
    const link = await connect();
    const nonce = 'ab'.repeat(16);
    const signed = (m: string) => `\x1b]133;${m};nonce=${nonce}\x07`;
    link.send({ ...hello, markNonce: nonce });
    await link.waitFor((m) => m.type === 'welcome', 'welcome');
    // Plain marks, as a `cat` of a file would print them, before anything the shell marked: not believed.
    link.send({ type: 'output', data: promptMarks });
    expect(r.registry.pane('run-1-1-abc')).toMatchObject({ shellIntegration: false });
    link.send({ type: 'output', data: `${signed('A')}$ ${signed('B')}` });
    link.send({ type: 'input', data: 'make\r' });
    link.send({ type: 'output', data: `make\r\n${signed('C')}compiling\r\n` });
    await r.feed.transitionTo('run-1-1-abc', 'RUNNING');
    link.send({ type: 'output', data: `${OSC133.finished(2)}${promptMarks}still compiling\r\n` });
    link.send({ type: 'output', data: `${signed('D;0')}${signed('A')}$ ` });
    await r.feed.transitionTo('run-1-1-abc', 'DONE');
    expect(r.registry.transitions('run-1-1-abc', 10)!.map((t) => `${t.to} ${t.rule}`).reverse()).toEqual(['RUNNING osc133.command_executed', 'DONE osc133.command_finished']);
    expect(r.registry.pane('run-1-1-abc')).toMatchObject({ shellIntegration: true });
  });

  it('a malformed message is refused with a logged reason, and the link survives', async () => {
    const { r, links, connect } = await linkedApp();
    const link = await connect();
    link.send(hello);
    await link.waitFor((m) => m.type === 'welcome', 'welcome');
    link.send('{"type":"output",');
    const refused = await r.log.waitFor((e) => e.obj['event'] === 'link_refused', 'refusal logged');
    expect(refused).toMatchObject({ level: 'warn', obj: { kind: 'pane', pane: 'run-1-1-abc', reason: 'not JSON', remote: '127.0.0.1', msg: 'pane link message refused' } });
    link.send({ type: 'resize', cols: 99999, rows: 24 });
    link.send({ ...hello });
    await r.log.waitFor((e) => e.obj['reason'] === 'second hello', 'second hello refused');
    expect(r.log.entries.filter((e) => e.obj['event'] === 'link_refused').map((e) => e.obj['reason'])).toEqual([
      'not JSON',
      'cols: expected 1 to 2000',
      'second hello',
    ]);
    expect(links.refused).toBe(3);
    // Still attached and still read.
    link.send({ type: 'output', data: promptMarks });
    link.send({ type: 'input', data: 'true\r' });
    link.send({ type: 'output', data: `true\r\n${OSC133.executed}` });
    await r.feed.transitionTo('run-1-1-abc', 'RUNNING');
    expect(link.isClosed).toBe(false);
    expect(r.registry.pane('run-1-1-abc')!.alive).toBe(true);
  });

  it('too many malformed messages close the link', async () => {
    const { r, connect } = await linkedApp();
    const link = await connect();
    link.send(hello);
    await link.waitFor((m) => m.type === 'welcome', 'welcome');
    for (let i = 0; i < 25; i++) link.send({ type: 'nonsense' });
    const closed = await link.closed;
    expect(closed.code).toBe(1002);
    await r.feed.paneView('run-1-1-abc', (p) => !p.alive, 'closed view');
  });

  it('a message before hello closes the link, with the reason', async () => {
    const { r, connect } = await linkedApp();
    const link = await connect();
    link.send({ type: 'output', data: 'hi' });
    const closed = await link.closed;
    expect(closed).toEqual({ code: 1002, reason: 'output before hello' });
    expect(r.log.entries.find((e) => e.obj['event'] === 'link_refused')!.obj).toMatchObject({ pane: null, reason: 'output before hello' });
    expect(r.registry.panes()).toEqual([]);
  });

  it('a bad hello closes the link before any pane exists', async () => {
    const { r, connect } = await linkedApp();
    const link = await connect();
    link.send({ ...hello, v: 2 });
    expect((await link.closed).code).toBe(1002);
    expect(r.registry.panes()).toEqual([]);
  });

  it('a new link for the same pane replaces the old one; the pane stays attached', async () => {
    const { r, connect } = await linkedApp();
    const first = await connect();
    first.send(hello);
    await first.waitFor((m) => m.type === 'welcome', 'welcome 1');
    const second = await connect();
    second.send(hello);
    await second.waitFor((m) => m.type === 'welcome', 'welcome 2');
    expect((await first.closed).code).toBe(1000);
    expect(r.registry.liveCount).toBe(1);
    expect(r.registry.pane('run-1-1-abc')!.alive).toBe(true);
    expect(r.registry.pane('run-1-1-abc')!.rule).toBe('attach.reconnected');
  });

  it('the dashboard feed sees the linked pane', async () => {
    const { port, connect } = await linkedApp();
    const dash = await WsProbe.open(`ws://127.0.0.1:${port}/ws`);
    cleanups.push(() => dash.close());
    await dash.waitFor((m) => m.type === 'hello', 'hello');
    const link = await connect();
    link.send(hello);
    await dash.waitFor((m) => m.type === 'pane' && m.pane.id === 'run-1-1-abc' && m.pane.alive, 'linked pane on the feed');
    link.send({ type: 'output', data: promptMarks });
    link.send({ type: 'input', data: 'make\r' });
    link.send({ type: 'output', data: `make\r\n${OSC133.executed}` });
    const t = await dash.waitFor((m) => m.type === 'transition' && m.transition.to === 'RUNNING', 'RUNNING on the feed');
    expect(t.transition).toMatchObject({ paneId: 'run-1-1-abc', from: 'IDLE', tier: 1 });
  });
});
