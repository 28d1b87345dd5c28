// POST /api/panes/:id/{answer,reply,interrupt,ack} and GET /api/panes/:id/actions through fastify inject(), on a
// real PaneRegistry (real terminal, analyzer and state machine on the wall clock) and a real SQLite history. The
// pane's source is the one stand-in: a function that keeps the keys it is asked to type (a real PTY types them in
// tests/e2e/pane-actions.test.ts). Every refusal: 401, 403 foreign origin, 400, 404, 409 stale, 409 wrong state,
// 503 a source that cannot type — and that nothing was typed or recorded then.
import { afterEach, describe, expect, it } from 'vitest';
import { Auth } from '../../src/web/auth.js';
import { buildApp } from '../../src/web/build-app.js';
import { PaneActions } from '../../src/daemon/pane-actions.js';
import { taskPanes } from '../../src/daemon/task-panes.js';
import type { ActionView, PaneView, WsMessage } from '../../src/web/api-types.js';
import { makeWebDir, TOKEN } from '../helpers/web-fake-api.js';
import { OSC133, testRegistry } from '../helpers/web-registry.js';
import { WAIT_MS } from '../helpers/web-ws.js';

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const HOST = { host: '127.0.0.1:7878' };
const AUTH = { ...HOST, authorization: `Bearer ${TOKEN}` };

function setup(opts: { canType?: boolean } = {}) {
  const typed: Array<{ id: string; text: string }> = [];
  const r = testRegistry({ sendText: (id, text) => (opts.canType === false ? false : (typed.push({ id, text }), true)) });
  const actions = new PaneActions({ registry: r.registry, store: r.store, cfg: r.cfg, enterDelayS: 0.01, publish: (m) => r.registry.broadcast(m) });
  r.registry.actions = actions;
  const web = makeWebDir();
  const app = buildApp({ api: r.registry, auth: new Auth(TOKEN, true), webDir: web.dir, loopback: true, hub: { coalesceMs: 20, maxBufferedBytes: 1 << 20, slowDropMs: 10_000 } });
  cleanups.push(() => r.close(), () => web.remove(), () => app.close());
  const post = (path: string, body: unknown, headers: Record<string, string> = { ...AUTH, 'x-termsupervisor-client': 'dashboard' }) =>
    app.fastify.inject({ method: 'POST', url: path, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { r, app, typed, post };
}

type Setup = ReturnType<typeof setup>;

/** The probe's first value that is not null, polled (the pane's pipeline runs on the wall clock). */
async function until<T>(probe: () => T | null, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const v = probe();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A shell pane (integration marks: Tier 1) running a command that asks "Proceed? [y/N]". */
async function waitingShell(s: Setup, id = 'p1'): Promise<PaneView> {
  s.r.registry.open({ id, name: 'sh', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'shell' });
  s.r.registry.feed(id, { kind: 'output', data: `${OSC133.prompt}$ ${OSC133.input}` });
  s.r.registry.feed(id, { kind: 'input', data: './deploy.sh\r' });
  s.r.registry.feed(id, { kind: 'output', data: `./deploy.sh\r\n${OSC133.executed}Deploying 3 services.\r\nProceed? [y/N] ` });
  await s.r.feed.transitionTo(id, 'WAITING_APPROVAL');
  return until(() => {
    const p = s.r.registry.pane(id)!;
    return p.state === 'WAITING_APPROVAL' && p.question ? p : null;
  }, 'the question on the pane view');
}

describe('pane action routes', () => {
  it('answer: types exactly the option keys, records who and from where, publishes after commit', async () => {
    const s = setup();
    const view = await waitingShell(s);
    expect(view.question).toEqual({
      text: 'Proceed? [y/N]',
      options: [
        { id: 'y', label: 'Yes', keys: 'y Enter' },
        { id: 'n', label: 'No (default)', keys: 'n Enter' },
      ],
    });
    const from = s.r.feed.messages.length;
    const res = await s.post('/api/panes/p1/answer', { option: 'y', rev: view.rev });
    expect(res.statusCode).toBe(200);
    // "y", then Enter on its own write (a TUI would take a burst with its Enter for a paste).
    expect(s.typed).toEqual([{ id: 'p1', text: 'y' }, { id: 'p1', text: '\r' }]);
    const { action, pane } = res.json() as { action: ActionView; pane: PaneView };
    expect(action).toMatchObject({ paneId: 'p1', kind: 'answer', origin: 'dashboard', from: '127.0.0.1', keys: 'y Enter', detail: 'Yes', rev: view.rev });
    expect(pane.rev).toBeGreaterThan(view.rev);
    expect(s.r.feed.messages.slice(from).find((m) => m.type === 'action')).toEqual({ type: 'action', action });
    const listed = await s.app.fastify.inject({ method: 'GET', url: '/api/panes/p1/actions', headers: AUTH });
    expect(listed.json()).toEqual([action]);
    // What the SQLite file holds, not a cache.
    expect(s.r.store.actions('p1', 10)).toEqual([action]);
  });

  it('answer refusals: 401 without the token, 403 from a foreign origin, 400 bad bodies and unoffered options, 404, 409 stale — nothing typed', async () => {
    const s = setup();
    const view = await waitingShell(s);
    const body = { option: 'y', rev: view.rev };
    expect((await s.post('/api/panes/p1/answer', body, HOST)).statusCode).toBe(401);
    expect((await s.post('/api/panes/p1/answer', body, { ...AUTH, origin: 'http://evil.example' })).statusCode).toBe(403);
    for (const bad of [{ rev: view.rev }, { option: 'y' }, { option: 'y', rev: -1 }, { option: 'y', rev: 1.5 }, { option: '', rev: view.rev }, [1], null]) {
      expect((await s.post('/api/panes/p1/answer', bad)).statusCode).toBe(400);
    }
    const unoffered = await s.post('/api/panes/p1/answer', { option: '3', rev: view.rev });
    expect(unoffered.statusCode).toBe(400);
    expect(unoffered.json().error).toContain('offered: y, n');
    expect((await s.post('/api/panes/nope/answer', body)).statusCode).toBe(404);
    const stale = await s.post('/api/panes/p1/answer', { option: 'y', rev: view.rev - 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'the pane changed — look again', pane: { id: 'p1', state: 'WAITING_APPROVAL', rev: view.rev } });
    // The screen moves on: the revision the person answered on is stale.
    s.r.registry.feed('p1', { kind: 'output', data: '\r\n(checking the cluster first)\r\nProceed? [y/N] ' });
    await until(() => (s.r.registry.pane('p1')!.rev > view.rev ? true : null), 'the new revision');
    expect((await s.post('/api/panes/p1/answer', body)).statusCode).toBe(409);
    expect(s.typed).toEqual([]);
    expect(s.r.store.actions('p1', 10)).toEqual([]);
  });

  it('answer in the wrong state is 409 with the fresh pane; a closed pane is 409; reply and interrupt follow their states', async () => {
    const s = setup();
    s.r.registry.open({ id: 'p1', name: 'sh', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'shell' });
    s.r.registry.feed('p1', { kind: 'output', data: `${OSC133.prompt}$ ${OSC133.input}` });
    const idle = await until(() => (s.r.registry.pane('p1')!.rev > 0 ? s.r.registry.pane('p1') : null), 'a first read');
    const wrong = await s.post('/api/panes/p1/answer', { option: 'y', rev: idle.rev });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ pane: { id: 'p1', state: 'IDLE' } });
    expect(wrong.json().error).toContain('not waiting for an answer');
    // Nothing to interrupt at rest.
    expect((await s.post('/api/panes/p1/interrupt', { rev: idle.rev })).statusCode).toBe(409);
    // Reply: 400 for empty text, 409 for a stale revision, 200 at rest.
    expect((await s.post('/api/panes/p1/reply', { text: '  ', rev: idle.rev })).statusCode).toBe(400);
    expect((await s.post('/api/panes/p1/reply', { text: 'ls', rev: idle.rev + 5 })).statusCode).toBe(409);
    expect((await s.post('/api/panes/p1/reply', { text: 'x'.repeat(s.r.cfg.actions.max_reply_chars + 1), rev: idle.rev })).statusCode).toBe(400);
    expect(s.typed).toEqual([]);
    const replied = await s.post('/api/panes/p1/reply', { text: 'make test', rev: idle.rev }, { ...AUTH, 'x-termsupervisor-client': 'cli' });
    expect(replied.statusCode).toBe(200);
    expect(s.typed.map((t) => t.text)).toEqual(['make test', '\r']);
    expect(replied.json().action).toMatchObject({ kind: 'reply', origin: 'cli', keys: 'make test Enter', detail: 'make test' });

    s.r.registry.close('p1', 'test');
    const closed = await s.post('/api/panes/p1/reply', { text: 'again', rev: replied.json().pane.rev });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ error: 'the pane is closed', pane: { id: 'p1', alive: false } });
  });

  it('a reply of several lines goes as one bracketed paste to a pane that has it on, and is refused by one that has not', async () => {
    const s = setup();
    s.r.registry.open({ id: 'p1', name: 'agent', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'shell' });
    s.r.registry.feed('p1', { kind: 'output', data: `${OSC133.prompt}$ ${OSC133.input}` });
    const idle = await until(() => (s.r.registry.pane('p1')!.rev > 0 ? s.r.registry.pane('p1') : null), 'a first read');
    const refused = await s.post('/api/panes/p1/reply', { text: 'line one\nline two', rev: idle.rev });
    expect(refused.statusCode).toBe(400);
    expect(s.typed).toEqual([]);
    // The line editor switches bracketed paste on (bash, zsh, fish, and agents' input boxes do).
    s.r.registry.feed('p1', { kind: 'output', data: '\x1b[?2004h' });
    await until(() => (s.r.registry.livePane('p1')!.monitor.screen.term.modes.bracketedPasteMode ? true : null), 'bracketed paste on');
    const now = s.r.registry.livePane('p1')!.monitor.freshRev();
    const ok = await s.post('/api/panes/p1/reply', { text: 'line one\r\nline two\n', rev: now });
    expect(ok.statusCode).toBe(200);
    expect(s.typed.map((t) => t.text)).toEqual(['\x1b[200~line one\nline two\x1b[201~', '\r']);
    expect(ok.json().action).toMatchObject({ keys: 'line one Enter line two Enter', detail: 'line one' });
  });

  it('interrupt: Ctrl-C for a shell, allowed on any screen of the current state, refused on one from before it', async () => {
    const s = setup();
    s.r.registry.open({ id: 'p1', name: 'sh', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'shell' });
    s.r.registry.feed('p1', { kind: 'output', data: `${OSC133.prompt}$ ${OSC133.input}` });
    const idle = await until(() => (s.r.registry.pane('p1')!.rev > 0 ? s.r.registry.pane('p1') : null), 'a first read');
    s.r.registry.feed('p1', { kind: 'input', data: 'make\r' });
    s.r.registry.feed('p1', { kind: 'output', data: `make\r\n${OSC133.executed}building 1\r\n` });
    await s.r.feed.transitionTo('p1', 'RUNNING');
    const running = await until(() => (s.r.registry.pane('p1')!.state === 'RUNNING' ? s.r.registry.pane('p1') : null), 'RUNNING shown');
    // The screen changes while it runs: an earlier frame of the same state will still do.
    s.r.registry.feed('p1', { kind: 'output', data: 'building 2\r\n' });
    await until(() => (s.r.registry.pane('p1')!.rev > running.rev ? true : null), 'a later frame');
    expect((await s.post('/api/panes/p1/interrupt', { rev: idle.rev })).statusCode).toBe(409);
    expect((await s.post('/api/panes/p1/interrupt', { rev: 'x' })).statusCode).toBe(400);
    const res = await s.post('/api/panes/p1/interrupt', { rev: running.rev }, { ...AUTH, 'x-termsupervisor-client': 'top' });
    expect(res.statusCode).toBe(200);
    expect(s.typed.map((t) => t.text)).toEqual(['\x03']);
    expect(res.json().action).toMatchObject({ kind: 'interrupt', origin: 'top', keys: 'Ctrl-C' });
  });

  it('a source that cannot type: 503, nothing recorded as sent', async () => {
    const s = setup({ canType: false });
    const view = await waitingShell(s);
    const res = await s.post('/api/panes/p1/answer', { option: 'n', rev: view.rev });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: expect.stringContaining('cannot type'), pane: { id: 'p1', state: 'WAITING_APPROVAL' } });
    expect(s.r.store.actions('p1', 10)).toEqual([]);
  });

  it('ack is kept as an action with its origin; GET actions: newest first, limit, 400, 404', async () => {
    const s = setup();
    const view = await waitingShell(s);
    expect((await s.post('/api/panes/p1/answer', { option: 'n', rev: view.rev })).statusCode).toBe(200);
    const acked = await s.app.fastify.inject({ method: 'POST', url: '/api/panes/p1/ack', headers: AUTH });
    expect(acked.statusCode).toBe(200);
    const get = (q: string) => s.app.fastify.inject({ method: 'GET', url: `/api/panes/p1/actions${q}`, headers: AUTH });
    const all = (await get('')).json() as ActionView[];
    expect(all.map((a) => [a.kind, a.origin, a.keys])).toEqual([
      ['ack', 'api', ''],
      ['answer', 'dashboard', 'n Enter'],
    ]);
    expect(((await get('?limit=1')).json() as ActionView[]).map((a) => a.kind)).toEqual(['ack']);
    expect((await get('?limit=0')).statusCode).toBe(400);
    expect((await get('?limit=abc')).statusCode).toBe(400);
    expect((await s.app.fastify.inject({ method: 'GET', url: '/api/panes/nope/actions', headers: AUTH })).statusCode).toBe(404);
    expect((await s.app.fastify.inject({ method: 'POST', url: '/api/panes/nope/ack', headers: AUTH })).statusCode).toBe(404);
  });

  it('GET /api/panes/:id/screen carries the revision the text belongs to', async () => {
    const s = setup();
    const view = await waitingShell(s);
    const res = await s.app.fastify.inject({ method: 'GET', url: '/api/panes/p1/screen', headers: AUTH });
    expect(res.json()).toMatchObject({ rev: view.rev });
    expect(res.json().text).toContain('Proceed? [y/N]');
  });

  it('a task typing into its pane is kept with origin task, redacted', async () => {
    const s = setup();
    s.r.registry.open({ id: 'p1', name: 'sh', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'shell' });
    const feed: WsMessage[] = [];
    s.r.registry.subscribe((m) => void feed.push(m));
    // The daemon's wiring: what a task types goes through taskPanes to the pane's source, then into history.
    const actions = s.r.registry.actions as PaneActions;
    const panes = taskPanes(s.r.registry, 0.01, (id, text) => actions.taskTyped(id, text));
    expect(await panes.type('p1', 'deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789', true)).toBe(true);
    expect(s.typed.map((t) => t.text)).toEqual(['deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789', '\r']);
    const [a] = s.r.store.actions('p1', 10);
    expect(a).toMatchObject({ kind: 'keys', origin: 'task', from: '', rev: null });
    expect(a!.keys).toMatch(/^deploy with token .* Enter$/);
    expect(a!.keys).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(feed.some((m) => m.type === 'action')).toBe(true);
  });
});
