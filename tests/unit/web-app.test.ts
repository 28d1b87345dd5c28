// The REST routes, /healthz, /metrics and the dashboard's files, through a real fastify app on a fake api.
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonApi, TaskApi } from '../../src/web/daemon-api.js';
import { fakePane, fakeTransition, listeningApp, makeWebDir, testApp, TOKEN, type TestApp, type TestAppOptions } from '../helpers/web-fake-api.js';

let cleanups: Array<() => unknown> = [];
function app(o: TestAppOptions = {}): TestApp {
  const t = testApp(o);
  t.api.add(fakePane('p1'));
  t.api.transitionsById.set('p1', [fakeTransition('p1', 2), fakeTransition('p1', 1)]);
  cleanups.push(() => t.close());
  return t;
}
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A raw GET over a real socket: inject() normalizes `..` in paths, a real client need not. */
function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('panes', () => {
  it('lists, shows, screens', async () => {
    const f = app().app.fastify;
    expect((await f.inject({ url: '/api/panes' })).json()).toEqual([fakePane('p1')]);
    expect((await f.inject({ url: '/api/panes/p1' })).json()).toEqual(fakePane('p1'));
    expect((await f.inject({ url: '/api/panes/p1/screen' })).json()).toEqual({ text: 'screen of p1', rev: 1 });
  });

  it('an unknown pane is 404 on every per-pane route', async () => {
    const f = app().app.fastify;
    for (const url of ['/api/panes/nope', '/api/panes/nope/screen', '/api/panes/nope/transitions', '/api/panes/nope/turns']) {
      const res = await f.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: 'no such pane' });
    }
    const ack = await f.inject({ method: 'POST', url: '/api/panes/nope/ack', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ack.statusCode).toBe(404);
  });

  it('transitions: limit is a whole number from 1 to 1000, 100 when not given', async () => {
    const t = app();
    const f = t.app.fastify;
    for (const limit of ['0', '1001', 'abc', '', '-1', '1.5', '1e3', '99999999999999999999']) {
      const res = await f.inject({ url: `/api/panes/p1/transitions?limit=${limit}` });
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().error, limit).toMatch(/limit/);
    }
    expect(t.api.limits).toEqual([]);

    const def = await f.inject({ url: '/api/panes/p1/transitions' });
    expect(def.statusCode).toBe(200);
    expect(def.json()).toEqual([fakeTransition('p1', 2), fakeTransition('p1', 1)]);
    expect((await f.inject({ url: '/api/panes/p1/transitions?limit=1' })).json()).toEqual([fakeTransition('p1', 2)]);
    expect((await f.inject({ url: '/api/panes/p1/transitions?limit=1000' })).statusCode).toBe(200);
    expect((await f.inject({ url: '/api/panes/p1/turns?limit=7' })).statusCode).toBe(200);
    expect((await f.inject({ url: '/api/panes/p1/turns?limit=0' })).statusCode).toBe(400);
    expect(t.api.limits).toEqual([
      { what: 'transitions', id: 'p1', limit: 100 },
      { what: 'transitions', id: 'p1', limit: 1 },
      { what: 'transitions', id: 'p1', limit: 1000 },
      { what: 'turns', id: 'p1', limit: 7 },
    ]);
  });

  it('a query parameter given twice is 400 naming it, on every route that reads one (not a 500 from the handler)', async () => {
    const t = app();
    // A tasks api that binds `pane` as the real one does (SQLite takes one value): an array would throw.
    (t.api as DaemonApi).tasks = {
      list: (_limit: number, pane?: unknown) => {
        if (pane !== undefined && typeof pane !== 'string') throw new TypeError('Too many parameter values were provided');
        return [];
      },
    } as unknown as TaskApi;
    expect((await t.app.fastify.inject({ method: 'GET', url: '/api/tasks?pane=a', headers: { host: '127.0.0.1' } })).statusCode).toBe(200);
    for (const url of ['/api/tasks?pane=a&pane=b', '/api/tasks?limit=1&limit=2', '/api/panes/p1/transitions?limit=1&limit=2', '/api/panes/p1/turns?limit=3&limit=3', '/auth?code=a&code=b']) {
      const res = await t.app.fastify.inject({ method: 'GET', url, headers: { host: '127.0.0.1' } });
      expect(res.statusCode, url).toBe(400);
      const name = new URL(url, 'http://x').searchParams.keys().next().value;
      expect(res.json(), url).toEqual({ error: `query parameter "${name}" is given 2 times: give it once` });
    }
  });

  it('stats', async () => {
    const res = await app().app.fastify.inject({ url: '/api/stats' });
    expect(res.json()).toMatchObject({ panes: { total: 1, alive: 1 }, counters: { 'notify.sent': 1 } });
  });
});

describe('health and metrics', () => {
  it('/healthz', async () => {
    const res = await app().app.fastify.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, version: '9.9.9-test' });
  });

  it('/metrics is Prometheus text: every sample parses, every metric has HELP and TYPE first', async () => {
    const res = await app().app.fastify.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body.endsWith('\n')).toBe(true);
    const help = new Set<string>();
    const type = new Map<string, string>();
    const samples: Array<{ name: string; labels: string; value: number }> = [];
    const LABEL = String.raw`[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\["\\n])*"`;
    const SAMPLE = new RegExp(String.raw`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:${LABEL}(?:,${LABEL})*)?\})? (\S+)$`);
    for (const line of res.body.split('\n').filter(Boolean)) {
      const h = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) \S.*$/.exec(line);
      const ty = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (h) help.add(h[1]!);
      else if (ty) type.set(ty[1]!, ty[2]!);
      else {
        const m = SAMPLE.exec(line);
        expect(m, `sample line: ${line}`).not.toBeNull();
        const value = Number(m![3]);
        expect(Number.isFinite(value), line).toBe(true);
        expect(help.has(m![1]!), `HELP before ${line}`).toBe(true);
        expect(type.has(m![1]!), `TYPE before ${line}`).toBe(true);
        samples.push({ name: m![1]!, labels: m![2] ?? '', value });
      }
    }
    const names = new Set(samples.map((s) => s.name));
    for (const n of ['termsupervisor_panes', 'termsupervisor_signals_total', 'termsupervisor_ws_clients', 'termsupervisor_ws_dropped_total', 'process_resident_memory_bytes']) {
      expect(names.has(n), n).toBe(true);
    }
    expect(samples).toContainEqual({ name: 'termsupervisor_panes', labels: '{state="IDLE"}', value: 1 });
    expect(samples).toContainEqual({ name: 'termsupervisor_ws_clients', labels: '', value: 0 });
    // A counter key with a quote and a backslash is escaped, not a broken line.
    expect(res.body).toContain('{key="odd \\"key\\"\\\\x"} 1');
    for (const [n, t] of type) if (n.endsWith('_total')) expect(t, n).toBe('counter');
  });
});

describe('dashboard files', () => {
  it('serves index.html at / and the dashboard assets with their types', async () => {
    const f = app().app.fastify;
    const index = await f.inject({ url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.body).toContain('<title>termsupervisor</title>');
    const js = await f.inject({ url: '/assets/app.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.body).toBe('console.log("dashboard");');
    const css = await f.inject({ url: '/assets/style.css' });
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('serves nothing else from the folder: server modules, unknown names, paths out of it', async () => {
    const t = await listeningApp();
    cleanups.push(() => t.close());
    const f = t.app.fastify;
    for (const url of ['/assets/build-app.js', '/assets/index.html', '/assets/nope.js', '/assets/..%2Fbuild-app.js', '/assets/%2e%2e%2fx', '/assets/app.js%00']) {
      const res = await f.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('server module');
    }
    for (const path of ['/assets/../x', '/assets/../build-app.js', '/assets/./build-app.js', '/assets/../../etc/passwd']) {
      const res = await rawGet(t.port, path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('server module');
    }
  });

  it('without index.html: 503 with a message that says what to do', async () => {
    const web = makeWebDir({ 'app.js': 'x' });
    cleanups.push(() => web.remove());
    const f = app({ webDir: web.dir }).app.fastify;
    const res = await f.inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toMatch(/dashboard not built/);
    expect((await f.inject({ url: '/assets/style.css' })).statusCode).toBe(404);
    // Built after the daemon started: served on the next request, no restart needed.
    writeFileSync(join(web.dir, 'index.html'), '<!doctype html><title>late</title>');
    writeFileSync(join(web.dir, 'style.css'), 'body{}');
    expect((await f.inject({ url: '/' })).body).toContain('<title>late</title>');
    expect((await f.inject({ url: '/assets/style.css' })).statusCode).toBe(200);
  });

  it('unknown routes are 404', async () => {
    const f = app().app.fastify;
    expect((await f.inject({ url: '/api/nothing' })).statusCode).toBe(404);
  });
});
