/// <reference lib="dom" />
// The dashboard's cookie is the dashboard's only (issue 27): a browser sends a SameSite=Strict cookie to every port of
// 127.0.0.1 (one site), so a page served on another loopback port carries it to the daemon too. Such a page must
// not open /ws (it would read every pane's screen); the daemon's own page still can (the API's side: web-auth.test).
// A real daemon, a real Chromium holding the cookie, and a second HTTP server on 127.0.0.1 serving the attacker's page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { browserSession } from '../helpers/browser-session.js';

/** The attacker's page: opens the daemon's /ws and says what happened. */
function attackPage(daemonUrl: string): string {
  const ws = daemonUrl.replace('http', 'ws') + '/ws';
  return `<!doctype html><title>elsewhere</title><script>
window.result = { ws: [] };
const s = new WebSocket(${JSON.stringify(ws)});
s.onopen = () => window.result.ws.push('open');
s.onmessage = (e) => window.result.ws.push('message:' + String(e.data).slice(0, 60));
s.onerror = () => window.result.ws.push('error');
s.onclose = (e) => { window.result.ws.push('close'); window.result.done = true; };
</script>`;
}

describe.skipIf(BROWSER_MISSING)('the dashboard cookie on a page from another loopback port', () => {
  const s = browserSession();
  let elsewhere: Server;
  let elsewhereUrl = '';
  let hits: Array<{ url: string; cookie: string | undefined }> = [];

  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      hits.push({ url: req.url ?? '', cookie: req.headers.cookie });
      res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(s.daemon.url));
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
  });
  afterAll(() => {
    elsewhere.closeAllConnections();
    return new Promise<void>((r) => elsewhere.close(() => r()));
  });

  it('cannot open /ws with the cookie; the daemon\'s own page can', async () => {
    const { page, context } = s.browser;
    const pane = await s.daemon.link('run-origin-1', 'secret-pane');
    pane.send({ type: 'output', data: 'password: hunter2-visible-on-screen\r\n' });
    // The person's browser holds the cookie (the one-time link), as in the attack.
    await page.goto(s.daemon.authUrl);
    await page.locator('#conn[data-conn="live"]').waitFor();
    const cookies = await context.cookies(s.daemon.url);
    expect(cookies.map((c) => c.name)).toContain('ts_token');

    hits = [];
    await page.goto(elsewhereUrl);
    // The browser does send the cookie to the other port: the attack is real, only the daemon can refuse it.
    expect(hits[0]?.cookie ?? '').toContain('ts_token=');
    await page.waitForFunction(() => (window as unknown as { result: { done?: boolean } }).result.done === true, undefined, { timeout: 10_000 });
    const result = await page.evaluate(() => (window as unknown as { result: { ws: string[] } }).result);
    expect(result.ws).toEqual(['error', 'close']);

    // The daemon's own page still opens its feed with the same cookie.
    await page.goto(s.daemon.url + '/');
    await page.locator('#conn[data-conn="live"]').waitFor();
    pane.close();
  }, 60_000);
});
