// Who may do what, through a real fastify app (inject): open reads on loopback, token for changes, same-origin
// for browsers, Host names against DNS rebinding, the token everywhere off loopback, one-time dashboard links.
import { afterEach, describe, expect, it } from 'vitest';
import { CODE_TTL_MS, loopbackHost, TOKEN_COOKIE } from '../../src/web/auth.js';
import { WebSocket } from 'ws';
import { fakePane, listeningApp, testApp, TOKEN, type TestApp, type TestAppOptions } from '../helpers/web-fake-api.js';

const BEARER = { authorization: `Bearer ${TOKEN}` };
const COOKIE = { cookie: `other=1; ${TOKEN_COOKIE}=${encodeURIComponent(TOKEN)}` };

let apps: TestApp[] = [];
function app(o: TestAppOptions = {}): TestApp {
  const t = testApp(o);
  t.api.add(fakePane('p1', { state: 'DONE', needsYou: true }));
  apps.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
});

describe('loopback app', () => {
  it('reads without a token', async () => {
    const res = await app().app.fastify.inject({ url: '/api/panes' });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((p: { id: string }) => p.id)).toEqual(['p1']);
  });

  it('an ack needs the token: 401 without, 200 with a bearer token', async () => {
    const t = app();
    const no = await t.app.fastify.inject({ method: 'POST', url: '/api/panes/p1/ack' });
    expect(no.statusCode).toBe(401);
    expect(t.api.acks).toEqual([]);
    // The client names itself (x-termsupervisor-client): the ack's rule says who (ack.dashboard).
    const yes = await t.app.fastify.inject({ method: 'POST', url: '/api/panes/p1/ack', headers: { ...BEARER, 'x-termsupervisor-client': 'dashboard' } });
    expect(yes.statusCode).toBe(200);
    expect(yes.json()).toMatchObject({ id: 'p1', state: 'IDLE', needsYou: false });
    expect(t.api.acks).toEqual([{ id: 'p1', by: 'dashboard' }]);
  });

  it('a wrong token is no token', async () => {
    const t = app();
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const res = await t.app.fastify.inject({ method: 'POST', url: '/api/panes/p1/ack', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
    }
    expect(t.api.acks).toEqual([]);
  });

  it('the cookie from a foreign page is refused (403); from our own page it works', async () => {
    const t = app();
    const foreign = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/panes/p1/ack',
      headers: { ...COOKIE, host: 'localhost:7878', origin: 'http://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    const nullOrigin = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/panes/p1/ack',
      headers: { ...COOKIE, host: 'localhost:7878', origin: 'null' },
    });
    expect(nullOrigin.statusCode).toBe(403);
    const otherPort = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/panes/p1/ack',
      headers: { ...COOKIE, host: 'localhost:7878', origin: 'http://localhost:9999' },
    });
    expect(otherPort.statusCode).toBe(403);
    expect(t.api.acks).toEqual([]);
    const own = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/panes/p1/ack',
      headers: { ...COOKIE, host: 'localhost:7878', origin: 'http://localhost:7878' },
    });
    expect(own.statusCode).toBe(200);
    expect(t.api.acks).toHaveLength(1);
  });

  it('a malformed token cookie is no token, not a server error', async () => {
    const t = app();
    const post = await t.app.fastify.inject({ method: 'POST', url: '/api/panes/p1/ack', headers: { cookie: `${TOKEN_COOKIE}=%E0%A4%A` } });
    expect(post.statusCode).toBe(401);
    const get = await t.app.fastify.inject({ url: '/api/panes', headers: { cookie: `${TOKEN_COOKIE}=%` } });
    expect(get.statusCode).toBe(200);
  });

  it('refuses a Host that is not a loopback name (DNS rebinding), even with the token', async () => {
    const f = app().app.fastify;
    for (const host of ['evil.example:7878', 'localhost.evil.example', '127.0.0.1.nip.io:7878', '10.0.0.1:7878']) {
      const res = await f.inject({ url: '/api/panes', headers: { host } });
      expect(res.statusCode, host).toBe(403);
      const withToken = await f.inject({ url: '/api/panes', headers: { host, ...BEARER } });
      expect(withToken.statusCode, host).toBe(403);
    }
    for (const host of ['localhost:7878', '127.0.0.1:45678', 'localhost', '[::1]:7878', '127.0.0.2:7878']) {
      const res = await f.inject({ url: '/api/panes', headers: { host } });
      expect(res.statusCode, host).toBe(200);
    }
    // Even the open pages: a rebinding page must not read the dashboard or trade a code for the cookie.
    expect((await f.inject({ url: '/', headers: { host: 'evil.example:7878' } })).statusCode).toBe(403);
    expect((await f.inject({ url: '/healthz', headers: { host: 'evil.example:7878' } })).statusCode).toBe(403);
  });

  it('POST /api/auth/code needs the token', async () => {
    const f = app().app.fastify;
    expect((await f.inject({ method: 'POST', url: '/api/auth/code' })).statusCode).toBe(401);
    const res = await f.inject({ method: 'POST', url: '/api/auth/code', headers: BEARER });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toMatch(/^[\w-]{20,}$/);
  });
});

describe('loopbackHost', () => {
  it.each([
    ['localhost', true],
    ['localhost:7878', true],
    ['127.0.0.1:7878', true],
    ['127.255.0.9', true],
    ['[::1]:7878', true],
    ['[::1]', true],
    ['evil.example:7878', false],
    ['localhost.evil.example:7878', false],
    ['127.0.0.1.evil.example', false],
    ['[::2]:7878', false],
    ['0.0.0.0:7878', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (host, ok) => {
    expect(loopbackHost(host)).toBe(ok);
  });
});

describe('the cookie counts only from our own page (issue 27)', () => {
  /** Opens /ws with these headers: 'open' or the refusal's status. */
  const openFeed = (url: string, headers: Record<string, string>) =>
    new Promise<string>((resolve) => {
      const ws = new WebSocket(url, { headers });
      ws.on('open', () => {
        ws.close();
        resolve('open');
      });
      ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      ws.on('error', (e) => resolve(e.message));
    });

  it('a page on another loopback port carrying the cookie cannot open /ws; our own page and a token-holding client can', async () => {
    const t = await listeningApp();
    apps.push(t);
    const host = `127.0.0.1:${t.port}`;
    expect(await openFeed(`${t.ws}/ws`, { ...COOKIE, origin: 'http://127.0.0.1:9999' })).toBe('401');
    // The header is no browser's (a page cannot set it on a websocket): it counts wherever the client says it is.
    expect(await openFeed(`${t.ws}/ws`, { ...BEARER, origin: 'http://127.0.0.1:9999' })).toBe('open');
    expect(await openFeed(`${t.ws}/ws`, { ...COOKIE, origin: `http://${host}` })).toBe('open');
    expect(await openFeed(`${t.ws}/ws`, BEARER)).toBe('open');
  });

  it('off loopback, a read carrying the cookie from another page of the same site (Sec-Fetch-Site) is refused', async () => {
    const f = app({ loopback: false }).app.fastify;
    const url = '/api/panes/p1/screen';
    expect((await f.inject({ url, headers: { ...COOKIE, 'sec-fetch-site': 'same-site' } })).statusCode).toBe(401);
    expect((await f.inject({ url, headers: { ...COOKIE, 'sec-fetch-site': 'cross-site' } })).statusCode).toBe(401);
    expect((await f.inject({ url, headers: { ...COOKIE, 'sec-fetch-site': 'same-origin' } })).statusCode).toBe(200);
    expect((await f.inject({ url, headers: { ...COOKIE, 'sec-fetch-site': 'none' } })).statusCode).toBe(200);
    // A token-holding client is no browser page: its header counts whatever it says of sites.
    expect((await f.inject({ url, headers: { ...BEARER, 'sec-fetch-site': 'cross-site' } })).statusCode).toBe(200);
  });
});

describe('non-loopback app', () => {
  it('every read needs the token', async () => {
    const f = app({ loopback: false }).app.fastify;
    for (const url of ['/api/panes', '/api/panes/p1', '/api/stats', '/metrics', '/api/panes/p1/screen']) {
      expect((await f.inject({ url })).statusCode, url).toBe(401);
      expect((await f.inject({ url, headers: BEARER })).statusCode, url).toBe(200);
      expect((await f.inject({ url, headers: COOKIE })).statusCode, url).toBe(200);
    }
  });

  it('takes any Host (it is not bound to loopback), with the token', async () => {
    const f = app({ loopback: false }).app.fastify;
    const res = await f.inject({ url: '/api/panes', headers: { host: 'box.lan:7878', ...BEARER } });
    expect(res.statusCode).toBe(200);
  });

  it('keeps the login page, assets and health open', async () => {
    const f = app({ loopback: false }).app.fastify;
    expect((await f.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await f.inject({ url: '/' })).statusCode).toBe(200);
    expect((await f.inject({ url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await f.inject({ url: '/auth?code=nope' })).statusCode).toBe(403);
  });
});

describe('one-time dashboard links', () => {
  it('a code works once: 302 to / with the HttpOnly SameSite=Strict cookie, then 403', async () => {
    const t = app();
    const code = t.auth.issueCode();
    const first = await t.app.fastify.inject({ url: `/auth?code=${code}` });
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe('/');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toContain(`${TOKEN_COOKIE}=${encodeURIComponent(TOKEN)}`);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Strict/i);
    expect(setCookie).toMatch(/;\s*Path=\//);

    // The cookie it set is the token: it may change things from our own page.
    const cookie = setCookie.split(';')[0]!;
    const ack = await t.app.fastify.inject({ method: 'POST', url: '/api/panes/p1/ack', headers: { cookie } });
    expect(ack.statusCode).toBe(200);

    const second = await t.app.fastify.inject({ url: `/auth?code=${code}` });
    expect(second.statusCode).toBe(403);
    expect(second.headers['set-cookie']).toBeUndefined();
    expect(second.body).toMatch(/used already or has expired/);
  });

  it('an unknown or missing code is refused', async () => {
    const f = app().app.fastify;
    for (const url of ['/auth?code=not-a-code', '/auth?code=', '/auth']) {
      const res = await f.inject({ url });
      expect(res.statusCode, url).toBe(403);
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
  });

  it('a code past its lifetime is refused', async () => {
    let now = 1_000_000;
    const t = app({ now: () => now });
    const fresh = t.auth.issueCode();
    const stale = t.auth.issueCode();
    now += CODE_TTL_MS - 1;
    expect((await t.app.fastify.inject({ url: `/auth?code=${fresh}` })).statusCode).toBe(302);
    now += 1;
    expect((await t.app.fastify.inject({ url: `/auth?code=${stale}` })).statusCode).toBe(403);
  });

  it('a code issued through the API redeems', async () => {
    const t = app();
    const { code } = (await t.app.fastify.inject({ method: 'POST', url: '/api/auth/code', headers: BEARER })).json();
    expect((await t.app.fastify.inject({ url: `/auth?code=${encodeURIComponent(code)}` })).statusCode).toBe(302);
  });

  it('keeps at most 32 unused codes: the oldest goes first', async () => {
    const t = app();
    const codes = Array.from({ length: 33 }, () => t.auth.issueCode());
    expect(t.auth.redeem(codes[0]!)).toBe(false);
    expect(t.auth.redeem(codes[1]!)).toBe(true);
    expect(t.auth.redeem(codes[32]!)).toBe(true);
  });
});
