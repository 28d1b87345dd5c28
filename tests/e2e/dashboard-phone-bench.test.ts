/// <reference lib="dom" />
// The board on a phone (issue 26): a 390 px viewport with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate),
// against the stand-in daemon. Measures the page's share of the main thread at 10 panes, then at 100 busy panes the
// long tasks a minute, a key press in the reply box and opening a detail view. Timing on a shared machine is noisy:
// run on its own with BOARD_BENCH=1 (`BOARD_BENCH=1 npx vitest run tests/e2e/dashboard-phone-bench.test.ts`); the
// budgets are loose enough for a busy 2-core box and still far under the figures before the fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { BROWSER_MISSING, launchBrowser, type Browser } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/browser-build.js';
import { FakeDaemon, paneView } from '../helpers/browser-fake-daemon.js';
import { busy, seedPanes } from '../helpers/board-load.js';

const PHONE = { width: 390, height: 844 };
const CPU_SLOWDOWN = 4;
const MEASURE_MS = 10_000;
/** Share of the main thread the page may take at 10 panes (before: 23.7% in the issue). */
const MAX_BUSY_10 = 0.15;
/** A key press in the reply box at 100 busy panes, ms (before: 144 ms in the issue). */
const MAX_KEY_MS = 120;
/** Opening a detail view at 100 busy panes, ms (before: up to 344 ms in the issue). */
const MAX_OPEN_MS = 300;

async function taskSeconds(cdp: CDPSession): Promise<number> {
  return (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')!.value;
}

/** Starts collecting long tasks and event timings in the page. */
async function observe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { bench: { long: number; events: Array<{ name: string; duration: number }> } };
    w.bench = { long: 0, events: [] };
    new PerformanceObserver((l) => (w.bench.long += l.getEntries().length)).observe({ type: 'longtask' });
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.bench.events.push({ name: e.name, duration: e.duration });
    }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  });
}

describe.skipIf(BROWSER_MISSING || process.env['BOARD_BENCH'] !== '1')('the board on a phone, CPU ×4 (BOARD_BENCH=1)', () => {
  let browser: Browser;
  let daemon: FakeDaemon;
  let cdp: CDPSession;
  beforeAll(async () => {
    ensureWebBuilt();
    browser = await launchBrowser(PHONE);
    cdp = await browser.context.newCDPSession(browser.page);
    await cdp.send('Performance.enable');
  });
  afterAll(async () => {
    await daemon?.close();
    await browser?.close();
  });

  it('10 panes: the page takes a small share of the main thread', async () => {
    daemon = await FakeDaemon.start();
    const t = Date.now() - 30_000;
    for (let i = 0; i < 10; i++) daemon.pane(paneView(`p${i}`, { name: `agent ${i}`, program: 'claude', state: i < 6 ? 'RUNNING' : 'DONE', needsYou: i >= 6, since: t, startedAt: t, edge: ['> go', '✻ Working…'] }), true);
    const page = browser.page;
    await page.goto(daemon.url + '/');
    await page.locator('#conn[data-conn="live"]').waitFor();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const t0 = await taskSeconds(cdp);
    const w0 = performance.now();
    await page.waitForTimeout(MEASURE_MS);
    const share = (await taskSeconds(cdp)) - t0;
    const busyShare = share / ((performance.now() - w0) / 1000);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    console.log(`phone 390 px, CPU ×${CPU_SLOWDOWN}, 10 panes (6 running): main thread busy ${(busyShare * 100).toFixed(1)}%`);
    await daemon.close();
    expect(busyShare).toBeLessThan(MAX_BUSY_10);
  });

  it('100 busy panes: long tasks, a key press in the reply box, opening a detail view', async () => {
    daemon = await FakeDaemon.start();
    seedPanes(daemon, 100);
    const page = browser.page;
    await page.goto(daemon.url + '/');
    await page.locator('#conn[data-conn="live"]').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#cards > li').length === 100);
    await observe(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const load = busy(daemon, 10);
    try {
      const w0 = performance.now();
      const t0 = await taskSeconds(cdp);
      // open a detail view five times (the first card each time), closing it in between
      const opens: number[] = [];
      for (let i = 0; i < 5; i++) {
        opens.push(
          await page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                const start = performance.now();
                (document.querySelector('#cards > li .open') as HTMLButtonElement).click();
                requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start)));
              }),
          ),
        );
        await page.keyboard.press('Escape');
        await page.waitForTimeout(500);
      }
      // an agent at rest: its reply box, typed into
      const idle = [...daemon.panes.values()].find((p) => p.state === 'IDLE' || p.state === 'DONE');
      const id = idle?.id ?? 'p000';
      if (!idle) daemon.move(id, 'IDLE');
      await page.evaluate((pid) => (document.querySelector(`li.card[data-id="${pid}"] .open`) as HTMLButtonElement).click(), id);
      const reply = page.locator('#detail-reply-text');
      // the Escapes that closed the views above are not key presses in the reply box: counted apart
      const closes = await page.evaluate(() => {
        const bench = (window as unknown as { bench: { events: Array<{ name: string; duration: number }> } }).bench;
        const list = bench.events.filter((e) => e.name === 'keydown').map((e) => e.duration);
        bench.events = [];
        return list;
      });
      await reply.waitFor();
      await reply.pressSequentially('make the tests pass', { delay: 120 });
      const rest = MEASURE_MS * 3 - (performance.now() - w0);
      if (rest > 0) await page.waitForTimeout(rest);
      const minutes = (performance.now() - w0) / 60_000;
      const busyShare = ((await taskSeconds(cdp)) - t0) / (minutes * 60);
      const b = await page.evaluate(() => (window as unknown as { bench: { long: number; events: Array<{ name: string; duration: number }> } }).bench);
      const keys = b.events.filter((e) => e.name.startsWith('key') || e.name === 'input' || e.name === 'beforeinput').map((e) => e.duration);
      const keyMax = keys.length ? Math.max(...keys) : 0;
      console.log(`phone 390 px, CPU ×${CPU_SLOWDOWN}, 100 panes, 10 transitions/s: main thread ${(busyShare * 100).toFixed(1)}%, ${(b.long / minutes).toFixed(1)} long tasks/min, key press slowest ${keyMax.toFixed(0)} ms (${keys.length} over 16 ms), open detail ${opens.map((o) => o.toFixed(0)).join('/')} ms, close it (Esc, slow ones) ${closes.join('/') || 'none over 16'} ms`);
      expect(keyMax).toBeLessThan(MAX_KEY_MS);
      expect(Math.max(...opens)).toBeLessThan(MAX_OPEN_MS);
    } finally {
      load.stop();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    }
  }, 120_000);
});
