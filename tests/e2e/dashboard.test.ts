/// <reference lib="dom" />
// The dashboard end to end: a real daemon, a real pane (`termsupervisor run --daemon` around bash in a pty made
// here), a real Chromium. Waits are for text or state on the page, never for time. (The README's screenshots of the
// board are taken by dashboard-act.test.ts, with a question waiting.)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ensureBuilt } from '../helpers/build.js';
import { BROWSER_MISSING, launchBrowser, type Browser } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/browser-build.js';
import { Daemon } from '../helpers/browser-daemon.js';
import { Wrapped } from './harness.js';

describe.skipIf(BROWSER_MISSING)('dashboard with a real daemon and a real pane', () => {
  let daemon: Daemon;
  let browser: Browser;
  const panes: Wrapped[] = [];

  beforeAll(async () => {
    ensureBuilt();
    ensureWebBuilt();
    daemon = await Daemon.start();
    browser = await launchBrowser();
  });

  afterEach(({ task }) => {
    if (task.result?.state === 'fail') console.error(daemon?.diag());
  });

  afterAll(async () => {
    for (const w of panes) w.kill();
    await browser?.close();
    await daemon?.stop();
  });

  it('empty state, then a bash pane goes RUNNING then DONE, Ack makes it IDLE, the detail view shows the transitions', async () => {
    const { page } = browser;
    // the one-time link sets the cookie and redirects to the dashboard
    await page.goto(daemon.authUrl);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.locator('#conn[data-conn="live"]').waitFor();
    await page.locator('#empty', { hasText: 'termsupervisor run -- claude' }).waitFor();

    const w = new Wrapped(join(daemon.dir, 'events.jsonl'), ['--daemon', daemon.url, '--name', 'e2e', '--', 'bash', '--norc', '--noprofile'], daemon.env);
    panes.push(w);
    await w.waitOutput('the first prompt', (o) => o.includes('$ '));
    const card = page.locator('li.card', { has: page.locator('.open', { hasText: /^e2e$/ }) });
    await card.waitFor();
    expect(await page.locator('#empty').isHidden()).toBe(true);

    // every state the card shows, in order, recorded in the page (a state may last less than a poll)
    await card.evaluate((li) => {
      const seen: string[] = [li.getAttribute('data-state')!];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.at(-1) !== li.getAttribute('data-state') && seen.push(li.getAttribute('data-state')!)).observe(li, { attributes: true, attributeFilter: ['data-state'] });
    });
    const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    await w.typeLine('sleep 2; echo ok');
    await page.waitForFunction(() => {
      const s = (window as unknown as { seen: string[] }).seen;
      const r = s.indexOf('RUNNING');
      return r >= 0 && s.indexOf('DONE', r) > r;
    }, undefined, { timeout: 30_000 }).catch(async (e) => {
      throw new Error(`card states ${JSON.stringify(await seen())}\n${w.diag()}\n${daemon.diag()}\n${e}`);
    });
    await card.locator('.state', { hasText: 'DONE' }).waitFor();
    expect(await card.innerText()).toContain('ok');
    expect(await card.getAttribute('data-needs')).toBe('true');
    // the DONE came live: the softer tone and a line in the alert log
    await page.locator('#alert-log li[data-kind="DONE"]', { hasText: 'e2e is done' }).waitFor({ state: 'attached' });

    await card.locator('.open').click();
    const detail = page.locator('#detail');
    await detail.waitFor();
    await page.locator('#detail-ack:not([disabled])').click();
    await card.locator('.state', { hasText: 'IDLE' }).waitFor();
    const rows = detail.locator('#detail-transitions tbody tr');
    await rows.filter({ hasText: 'DONE → IDLE' }).waitFor();
    const text = await detail.locator('#detail-transitions').innerText();
    expect(text).toContain('IDLE → RUNNING');
    expect(text).toContain('RUNNING → DONE');
    expect(await detail.locator('.seg[data-state="DONE"]').count()).toBeGreaterThan(0);
    await detail.locator('#detail-screen', { hasText: 'sleep 2; echo ok' }).waitFor();
    expect(await page.locator('#detail-ack-msg').innerText()).toBe('acknowledged');

    await page.screenshot({ path: join(daemon.dir, 'dashboard-detail.png') }); // kept with the daemon's files when a test fails

    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });
    await w.typeLine('exit');
    // closed: it leaves the live cards for the (collapsed) closed section
    await page.locator('#closed-cards > li', { has: page.locator('.open', { hasText: /^e2e$/ }) }).waitFor({ state: 'attached' });
  });

  it('20 panes joined over the pane link: 20 cards; closed ones grey at the end', async () => {
    const { page } = browser;
    const links = [];
    for (let i = 0; i < 20; i++) links.push(await daemon.link(`many-${i}`, `many ${String(i).padStart(2, '0')}`));
    for (const l of links) l.send({ type: 'output', data: '$ ' });
    await page.waitForFunction(() => document.querySelectorAll('#cards > li[data-id^="many-"]').length === 20);
    for (const l of links.slice(0, 5)) {
      l.send({ type: 'exit', code: 0 });
      l.close();
    }
    await page.waitForFunction(() => document.querySelectorAll('#closed-cards > li[data-id^="many-"][data-alive="false"]').length === 5);
    // the 5 closed ones and the e2e pane (exited above) are in the closed section, none among the live cards
    expect(await page.$$eval('#closed-cards > li', (lis) => lis.map((li) => li.getAttribute('data-alive')))).toEqual(Array(6).fill('false'));
    expect(await page.$$eval('#cards > li', (lis) => lis.map((li) => li.getAttribute('data-alive')))).not.toContain('false');
    expect(await page.locator('#closed-box summary').innerText()).toBe('Closed panes (6)');
    expect(await page.locator('#summary').innerText()).toContain('15 open');
  });
});
