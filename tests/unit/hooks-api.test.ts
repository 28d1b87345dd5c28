// POST /api/hooks: the route (token required, malformed bodies refused with a reason, 200 delivered / 202
// unmatched) on a fake api, then the real registry delivering hook events to a live pane: Tier 1 transitions with
// source `hook`, one notification per turn end, unmatched hooks counted.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeApi, testApp, TOKEN, type TestApp } from '../helpers/web-fake-api.js';
import { testRegistry, type TestRegistry } from '../helpers/web-registry.js';
import type { HookBody } from '../../src/hooks/hook-body.js';
import type { HookReply } from '../../src/web/daemon-api.js';
import type { NotifyEvent } from '../../src/notify/types.js';

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

class HookApi extends FakeApi {
  readonly hooks: HookBody[] = [];
  hook(body: HookBody): HookReply {
    this.hooks.push(body);
    return body.pane.id === 'p1' ? { matched: true, pane: 'p1' } : { matched: false };
  }
}

function app(api: FakeApi = new HookApi()): TestApp & { hookApi: FakeApi } {
  const t = testApp({ api });
  cleanups.push(() => t.close());
  return { ...t, hookApi: api };
}

const body = (over: Partial<HookBody> = {}): HookBody => ({ v: 1, agent: 'claude', event: 'Stop', detail: '', session: 's1', message: '', pane: { id: 'p1' }, ...over });
const post = (t: TestApp, payload: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  t.app.fastify.inject({ method: 'POST', url: '/api/hooks', headers: { 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

describe('POST /api/hooks', () => {
  it('needs the token (it changes state), and a browser page of this daemon only', async () => {
    const t = app();
    expect((await post(t, body(), {})).statusCode).toBe(401);
    expect((await post(t, body(), { authorization: 'Bearer wrong-token-0123456789' })).statusCode).toBe(401);
    expect((await post(t, body(), { authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' })).statusCode).toBe(403);
    expect((t.hookApi as HookApi).hooks).toEqual([]);
  });

  it('200 when a pane took it, 202 when none matched', async () => {
    const t = app();
    const ok = await post(t, body());
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ matched: true, pane: 'p1' });
    const un = await post(t, body({ pane: { tmuxPane: '%9' } }));
    expect(un.statusCode).toBe(202);
    expect(un.json()).toEqual({ matched: false });
    expect((t.hookApi as HookApi).hooks.map((h) => h.pane)).toEqual([{ id: 'p1' }, { tmuxPane: '%9' }]);
  });

  it('a malformed body is a 400 with the reason, never reaching the daemon', async () => {
    const t = app();
    for (const bad of [{ ...body(), agent: 'copilot' }, { ...body(), event: '' }, { ...body(), pane: null }, [], 'not json {']) {
      const r = await post(t, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json().error ?? r.json().message).toBeTruthy();
    }
    expect((t.hookApi as HookApi).hooks).toEqual([]);
  });

  it('a daemon api without hooks answers 501', async () => {
    const t = app(new FakeApi());
    expect((await post(t, body())).statusCode).toBe(501);
  });
});

describe('the registry delivers hooks to live panes', () => {
  function registry(notified: NotifyEvent[]): TestRegistry {
    const r = testRegistry({ notify: (ev) => notified.push(ev) });
    cleanups.push(() => r.close());
    return r;
  }
  const pane = { id: 'run-42-1-abc', name: 'claude', attach: 'run' as const, command: 'claude', cols: 80, rows: 24, agent: 'auto' as const };

  it('a turn by hooks: Tier 1, source hook; the screen reporting the same end notifies nothing more', async () => {
    const notified: NotifyEvent[] = [];
    const r = registry(notified);
    const reg = r.registry;
    reg.open(pane);
    expect(reg.hook(body({ event: 'UserPromptSubmit', message: 'fix it', pane: { id: pane.id } }))).toEqual({ matched: true, pane: pane.id });
    await r.feed.transitionTo(pane.id, 'RUNNING');
    reg.hook(body({ event: 'Stop', pane: { id: pane.id } }));
    await r.feed.transitionTo(pane.id, 'DONE');
    // Claude's own done line arrives on screen a moment later: the pane is DONE already.
    reg.feed(pane.id, { kind: 'output', data: '\x1b[?1049h\x1b[H● Fixed.\r\n\r\n✻ Cooked for 6s · done 12:07 AM\r\n' });
    reg.hook(body({ event: 'Stop', pane: { id: pane.id } }));
    await reg.livePane(pane.id)!.monitor.flush();

    const trs = reg.transitions(pane.id, 10)!;
    expect(trs.map((t) => [t.from, t.to, t.tier, t.source, t.rule])).toEqual([
      ['RUNNING', 'DONE', 1, 'hook', 'hook.claude.stop'],
      ['IDLE', 'RUNNING', 1, 'hook', 'hook.claude.user_prompt_submit'],
    ]);
    expect(trs[1]!.line).toBe('fix it');
    expect(reg.pane(pane.id)).toMatchObject({ state: 'DONE', source: 'hook', tier: 1, program: 'claude', needsYou: true });
    expect(notified.map((n) => n.kind)).toEqual(['DONE']);
    expect(reg.stats().counters).toMatchObject({ 'hook.matched': 3, 'fired.tier1.done.hook.claude.stop': 1 });
  });

  it('a hook naming no live pane is counted, not guessed', async () => {
    const r = registry([]);
    r.registry.open(pane);
    expect(r.registry.hook(body({ pane: { id: 'run-elsewhere' } }))).toEqual({ matched: false });
    expect(r.registry.hook(body({ pane: { tmuxPane: '%1', tmuxSocket: '/tmp/tmux-1000/default' } }))).toEqual({ matched: false });
    expect(r.registry.stats().counters['hook.unmatched']).toBe(2);
    expect(r.registry.pane(pane.id)).toMatchObject({ state: 'IDLE' });
  });
});
