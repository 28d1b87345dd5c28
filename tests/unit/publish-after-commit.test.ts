// Publish after commit, on a real registry and a real SQLite file: when a transition reaches the live feed (and
// the pane's view shows its state), another connection to the file already finds its row. While history is
// degraded (another writer holds the lock past the store's patience) the transition is still published, marked
// unsaved, and /healthz and /metrics say history is degraded, with the cause; once the
// lock is gone the store recovers by itself and says so.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Auth } from '../../src/web/auth.js';
import { buildApp } from '../../src/web/build-app.js';
import type { HealthView, WsMessage } from '../../src/web/api-types.js';
import { makeWebDir, TOKEN } from '../helpers/web-fake-api.js';
import { OSC133, testRegistry, type TestRegistry } from '../helpers/web-registry.js';

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const shellPane = { id: 'p1', name: 'bash', attach: 'run' as const, command: 'bash', cols: 80, rows: 24, agent: 'shell' as const };

function rowsOnDisk(path: string): Array<{ to_state: string }> {
  const raw = new Database(path, { readonly: true });
  try {
    return raw.prepare('SELECT to_state FROM transitions ORDER BY id').all() as Array<{ to_state: string }>;
  } finally {
    raw.close();
  }
}

describe('publish after commit', () => {
  it('a transition reaches the feed and the view only once its row is on disk', async () => {
    const r = testRegistry();
    cleanups.push(() => r.close());
    const atPublish: Array<{ to: string; onDisk: string[]; viewState: string | undefined }> = [];
    r.registry.subscribe((m) => {
      if (m.type === 'transition') atPublish.push({ to: m.transition.to, onDisk: rowsOnDisk(r.dbPath).map((x) => x.to_state), viewState: r.registry.pane('p1')?.state });
    });
    r.registry.open(shellPane);
    r.registry.feed('p1', { kind: 'output', data: `${OSC133.prompt}$ ${OSC133.input}` });
    r.registry.feed('p1', { kind: 'output', data: `ls\r\n${OSC133.executed}` });
    await r.feed.transitionTo('p1', 'RUNNING', 0);
    r.registry.feed('p1', { kind: 'output', data: `${OSC133.finished(0)}` });
    await r.feed.transitionTo('p1', 'DONE', 0);
    expect(atPublish.map((p) => p.to)).toEqual(['RUNNING', 'DONE']);
    expect(atPublish[0]!.onDisk).toEqual(['RUNNING']);
    expect(atPublish[1]!.onDisk).toEqual(['RUNNING', 'DONE']);
    expect(atPublish.every((p) => !('unsaved' in p))).toBe(true);
  });

  it('history degraded: published unsaved, reported by /healthz and /metrics; then recovered by itself', async () => {
    const r: TestRegistry = testRegistry();
    cleanups.push(() => r.close());
    const web = makeWebDir();
    cleanups.push(() => web.remove());
    const app = buildApp({ api: r.registry, auth: new Auth(TOKEN, true), webDir: web.dir, loopback: true, hub: { coalesceMs: 10, maxBufferedBytes: 1 << 20, slowDropMs: 1000 } });
    cleanups.push(() => app.close());
    const get = async (url: string) => app.fastify.inject({ url, headers: { authorization: `Bearer ${TOKEN}` } });
    expect((await get('/healthz')).json<HealthView>()).toMatchObject({ ok: true, history: { status: 'ok' } });

    r.registry.open(shellPane);
    r.store.flush();
    const other = new Database(r.dbPath);
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE'); // another writer holds the lock beyond the store's busy timeout
    const msgs: WsMessage[] = [];
    r.registry.subscribe((m) => msgs.push(m));
    r.registry.feed('p1', { kind: 'output', data: `${OSC133.prompt}$ ${OSC133.input}ls\r\n${OSC133.executed}` });
    await r.feed.transitionTo('p1', 'RUNNING', 0);
    const tr = msgs.find((m) => m.type === 'transition');
    expect(tr).toMatchObject({ type: 'transition', unsaved: true, transition: { to: 'RUNNING' } });

    const health = (await get('/healthz')).json<HealthView>();
    expect(health).toMatchObject({ ok: false, history: { status: 'degraded', op: 'write', cause: expect.stringMatching(/SQLITE_BUSY/) } });
    const metrics = (await get('/metrics')).body;
    expect(metrics).toMatch(/^termsupervisor_history_degraded\{op="write",cause="SQLITE_BUSY[^"]*"\} 1$/m);
    // Reads still show the transition waiting in memory.
    expect(r.registry.transitions('p1', 10)!.map((t) => t.to)).toEqual(['RUNNING']);

    other.exec('ROLLBACK');
    other.close();
    for (const end = Date.now() + 20_000; r.store.health().status !== 'ok'; ) {
      if (Date.now() > end) throw new Error('history did not recover by itself');
      await new Promise((res) => setTimeout(res, 20));
    }
    expect((await get('/healthz')).json<HealthView>()).toMatchObject({ ok: true, history: { status: 'ok', recoveries: 1, queued: 0 } });
    expect(rowsOnDisk(r.dbPath).map((x) => x.to_state)).toEqual(['RUNNING']);
    expect((await get('/metrics')).body).toMatch(/^termsupervisor_history_degraded 0$/m);
  });
});
