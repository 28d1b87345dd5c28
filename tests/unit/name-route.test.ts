// POST /api/panes/:id/name through fastify's inject(), on a real registry (temporary SQLite): a `run` pane is named
// in the registry (kept in history, shown on the feed at once), a tmux pane through its source's door; bad names,
// no token, unknown and closed panes are refused.
import { afterEach, describe, expect, it } from 'vitest';
import { Auth } from '../../src/web/auth.js';
import { buildApp } from '../../src/web/build-app.js';
import { makeWebDir, TOKEN } from '../helpers/web-fake-api.js';
import { testRegistry } from '../helpers/web-registry.js';
import type { PaneView } from '../../src/web/api-types.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function app(opts: Parameters<typeof testRegistry>[0] = {}) {
  const r = testRegistry(opts);
  const web = makeWebDir();
  const a = buildApp({ api: r.registry, auth: new Auth(TOKEN, true), webDir: web.dir, loopback: true, hub: { coalesceMs: 20, maxBufferedBytes: 1 << 20, slowDropMs: 10_000 } });
  cleanups.push(() => r.close(), () => a.close(), () => web.remove());
  return { r, a };
}

const post = (a: ReturnType<typeof app>['a'], id: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  a.fastify.inject({ method: 'POST', url: `/api/panes/${encodeURIComponent(id)}/name`, headers: { host: '127.0.0.1', 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });

describe('POST /api/panes/:id/name', () => {
  it('names a run pane: the view, history and the live feed say it', async () => {
    const { r, a } = app();
    r.registry.open({ id: 'run-1', name: 'api', attach: 'run', command: 'claude', cols: 80, rows: 24, agent: 'auto' });
    const res = await post(a, 'run-1', { name: '  reviewer ' });
    expect(res.statusCode).toBe(200);
    expect(res.json<PaneView>().name).toBe('reviewer');
    expect(r.registry.pane('run-1')!.name).toBe('reviewer');
    expect(r.feed.messages.some((m) => m.type === 'pane' && m.pane.id === 'run-1' && m.pane.name === 'reviewer')).toBe(true);
    expect((await post(a, 'run-1', { name: '' })).json()).toMatchObject({ error: 'a name is needed' });
  });

  it("a tmux pane is named through its source's door ('' too: its tmux name comes back from the source)", async () => {
    const asked: Array<[string, string]> = [];
    const { r, a } = app({ nameDoors: { tmux: async (id, name) => (asked.push([id, name]), true) } });
    r.registry.open({ id: 'tmux:x@1-a:%1', name: 'w:0.0', attach: 'tmux', command: 'bash', cols: 80, rows: 24, agent: 'auto' });
    expect((await post(a, 'tmux:x@1-a:%1', { name: 'build' })).json<PaneView>().name).toBe('build');
    expect((await post(a, 'tmux:x@1-a:%1', { name: '' })).statusCode).toBe(200);
    expect(asked).toEqual([['tmux:x@1-a:%1', 'build'], ['tmux:x@1-a:%1', '']]);
  });

  it('refuses: not a string, too long, control characters 400; no token 401; unknown 404; closed 409', async () => {
    const { r, a } = app();
    r.registry.open({ id: 'run-2', name: 'x', attach: 'run', command: 'bash', cols: 80, rows: 24, agent: 'auto' });
    expect((await post(a, 'run-2', { name: 3 })).statusCode).toBe(400);
    expect((await post(a, 'run-2', { name: 'x'.repeat(65) })).statusCode).toBe(400);
    expect((await post(a, 'run-2', { name: 'a\x1b[31mb' })).statusCode).toBe(400);
    expect((await post(a, 'run-2', { name: 'y' }, {})).statusCode).toBe(401);
    expect((await post(a, 'nope', { name: 'y' })).statusCode).toBe(404);
    r.registry.close('run-2', 'test');
    expect((await post(a, 'run-2', { name: 'y' })).statusCode).toBe(409);
  });
});
