/// <reference lib="dom" />
// The board's notification indicator and a notification's link, in a real Chromium against a real daemon whose
// webhook is down (issue 28, items 7 and 9): the board says notifications are failing and why; the link
// `#pane=<id>` that a notification carries opens that pane's detail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../helpers/build.js';
import { BROWSER_MISSING, launchBrowser, type Browser } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/browser-build.js';
import { Daemon } from '../helpers/browser-daemon.js';
import { Wrapped, waitFor } from './harness.js';
import type { NotifyHealthView, PaneView } from '../../src/web/api-types.js';

describe.skipIf(BROWSER_MISSING)('dashboard: notification health and links', () => {
  let daemon: Daemon;
  let browser: Browser;
  let w: Wrapped | null = null;
  const cfgHome = mkdtempSync(join(tmpdir(), 'ts-dash-notify-'));

  beforeAll(async () => {
    ensureBuilt();
    ensureWebBuilt();
    // a loopback port nothing listens on any more: the webhook's connection is refused
    const port = await new Promise<number>((r) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as AddressInfo).port;
        srv.close(() => r(p));
      });
    });
    mkdirSync(join(cfgHome, 'termsupervisor'), { recursive: true });
    writeFileSync(join(cfgHome, 'termsupervisor', 'config.json'), JSON.stringify({ notify: { desktop: false, webhook_url: `http://127.0.0.1:${port}/hook`, retry_base_s: 0.2 } }));
    daemon = await Daemon.start({ XDG_CONFIG_HOME: cfgHome });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    w?.kill();
    await browser?.close();
    await daemon?.stop();
    rmSync(cfgHome, { recursive: true, force: true });
  });

  it('shows failing notifications with the cause, and a #pane= link opens the pane', async () => {
    const { page } = browser;
    w = new Wrapped(join(daemon.dir, 'events.jsonl'), ['--daemon', daemon.url, '--name', 'build', '--', 'bash', '-c', 'echo building; sleep 4; exit 3'], daemon.env);
    const api = async <T>(path: string) => (await (await fetch(daemon.url + path)).json()) as T;
    let health: NotifyHealthView | null = null;
    await waitFor('the webhook to fail', () => {
      void api<NotifyHealthView>('/api/notify').then((h) => (health = h));
      return health?.channels[0]?.status === 'failing';
    }, daemon.diag, 40_000);
    const pane = (await api<PaneView[]>('/api/panes')).find((p) => p.name === 'build')!;

    await page.goto(daemon.authUrl);
    await page.goto('about:blank'); // a notification's link opens a fresh page
    await page.goto(`${daemon.url}/#pane=${encodeURIComponent(pane.id)}`);
    await page.locator('#conn[data-conn="live"]').waitFor();
    const badge = page.locator('#notify-health');
    await badge.waitFor({ state: 'visible' });
    expect(await badge.textContent()).toBe('notifications failing: webhook');
    expect(await badge.getAttribute('title')).toMatch(/^webhook \(json http:\/\/127\.0\.0\.1:\d+\/hook\): fetch failed: .*ECONNREFUSED/);
    // the link opened the pane's detail
    await page.locator('#detail:not([hidden])').waitFor();
    expect(await page.locator('#detail-title').textContent()).toContain('build');
    expect(new URL(page.url()).hash).toBe(''); // read once: a reload shows the board
    // the same link in the tab already open (only the hash changes) opens it too
    await page.locator('#detail-close').click();
    await page.locator('#detail').waitFor({ state: 'hidden' });
    await page.evaluate((id) => (location.hash = `#pane=${encodeURIComponent(id)}`), pane.id);
    await page.locator('#detail:not([hidden])').waitFor();
  }, 90_000);
});
