// POST /api/panes/:id/focus through fastify's inject(), on a real registry (temporary SQLite): who asked (the
// client header), refusals (no token, unknown pane, closed pane, a daemon that cannot jump), and a `run` pane's
// answer, which says where it runs.
import { afterEach, describe, expect, it } from 'vitest';
import { Auth } from '../../src/web/auth.js';
import { buildApp } from '../../src/web/build-app.js';
import { makeWebDir, TOKEN } from '../helpers/web-fake-api.js';
import { testRegistry } from '../helpers/web-registry.js';
import type { FocusResult } from '../../src/web/api-types.js';
import type { DaemonApi } from '../../src/web/daemon-api.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function app(api?: (r: ReturnType<typeof testRegistry>) => DaemonApi) {
  const r = testRegistry();
  const web = makeWebDir();
  const a = buildApp({ api: api ? api(r) : r.registry, auth: new Auth(TOKEN, true), webDir: web.dir, loopback: true, hub: { coalesceMs: 20, maxBufferedBytes: 1 << 20, slowDropMs: 10_000 } });
  cleanups.push(() => r.close(), () => a.close(), () => web.remove());
  return { r, a };
}

const post = (a: ReturnType<typeof app>['a'], id: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  a.fastify.inject({ method: 'POST', url: `/api/panes/${encodeURIComponent(id)}/focus`, headers: { host: '127.0.0.1', ...headers } });

describe('POST /api/panes/:id/focus', () => {
  it('a run pane: where it runs, recorded as a focus action with who asked', async () => {
    const { r, a } = app();
    r.registry.open({ id: 'run-1', name: 'api', attach: 'run', command: 'claude', cols: 80, rows: 24, agent: 'auto', where: { host: 'box', tty: '/dev/pts/7', pid: 4242 } });
    const res = await post(a, 'run-1', { authorization: `Bearer ${TOKEN}`, 'x-termsupervisor-client': 'top' });
    expect(res.statusCode).toBe(200);
    const body = res.json<FocusResult>();
    expect(body).toMatchObject({ focused: false, how: 'runs on box in /dev/pts/7 (pid 4242)', pane: { id: 'run-1', where: { host: 'box', tty: '/dev/pts/7', pid: 4242 } } });
    expect(body.action).toMatchObject({ paneId: 'run-1', kind: 'focus', origin: 'top', keys: '', detail: 'runs on box in /dev/pts/7 (pid 4242)' });
    expect(r.feed.messages.some((m) => m.type === 'action')).toBe(true);
    // A client that names itself otherwise is `api`.
    const other = await post(a, 'run-1', { authorization: `Bearer ${TOKEN}`, 'x-termsupervisor-client': 'task' });
    expect(other.json<FocusResult>().action.origin).toBe('api');
  });

  it('a wrapper that did not say where (an older one), a tmux pane no watcher follows', async () => {
    const { r, a } = app();
    r.registry.open({ id: 'run-2', name: 'old', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'auto' });
    expect((await post(a, 'run-2')).json<FocusResult>().how).toContain('did not say where');
    r.registry.open({ id: 'tmux:x@1-a:%1', name: 'w:0.0', attach: 'tmux', command: 'bash', cols: 80, rows: 24, agent: 'auto' });
    expect((await post(a, 'tmux:x@1-a:%1')).json<FocusResult>()).toMatchObject({ focused: false, how: 'its tmux source cannot show it now' });
  });

  it('refuses: no token 401, foreign origin 403, unknown 404, closed 409 with the pane, no ability 501', async () => {
    const { r, a } = app();
    r.registry.open({ id: 'run-3', name: 'x', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'auto' });
    expect((await post(a, 'run-3', {})).statusCode).toBe(401);
    expect((await post(a, 'run-3', { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post(a, 'nope')).statusCode).toBe(404);
    r.registry.close('run-3', 'test');
    const closed = await post(a, 'run-3');
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ error: expect.stringContaining('closed'), pane: { id: 'run-3', alive: false } });

    const { a: without } = app((t) => {
      const api: DaemonApi = Object.create(t.registry) as DaemonApi;
      Object.defineProperty(api, 'focus', { value: undefined });
      return api;
    });
    expect((await post(without, 'run-3')).statusCode).toBe(501);
  });
});
