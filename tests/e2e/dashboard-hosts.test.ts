/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The dashboard with panes of other machines (issue 16), in a real browser against a stand-in daemon: each such
// card shows its host, an unreachable host's cards say so (with since when and why), and the host filter shows one
// machine's panes at a time; with this machine's panes only, no filter is offered.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { standInDashboard } from '../helpers/stand-in-dashboard.js';
import { FakeDaemon, paneView } from '../helpers/browser-fake-daemon.js';

let daemon: FakeDaemon;
let page: Page;

const shownIds = () => page.$$eval('#cards > li', (lis) => lis.filter((li) => !(li as HTMLElement).hidden).map((li) => (li as HTMLElement).dataset.id));
const card = (id: string) => page.locator(`li.card[data-id="${id}"]`);

describe.skipIf(BROWSER_MISSING)('dashboard: panes of other machines (stand-in daemon)', () => {
  const standIn = standInDashboard();
  beforeEach(() => {
    ({ page, daemon } = standIn);
  });

  it('badges each remote card with its host, marks an unreachable one, and filters by host', async () => {
    const t = Date.now() - 60_000;
    const since = Date.now() - 20_000;
    daemon.pane(paneView('run-1', { name: 'api', since: t }), true);
    daemon.pane(paneView('devbox:%3', { name: 'work:0.3', host: 'devbox', attach: 'ssh', state: 'DONE', needsYou: true, since: t + 1000, unreachable: { since, reason: 'the ssh connection to devbox was lost' } }), true);
    daemon.pane(paneView('gpu:%1', { name: 'train:0.0', host: 'gpu', attach: 'ssh', since: t + 2000 }), true);
    await standIn.load();
    await page.waitForFunction(() => document.querySelectorAll('#cards > li').length === 3);
    expect(await card('devbox:%3').locator('.host-tag').innerText()).toBe('devbox');
    expect(await card('run-1').locator('.host-tag').isVisible()).toBe(false);
    const down = card('devbox:%3').locator('.unreachable');
    expect(await down.isVisible()).toBe(true);
    expect(await down.innerText()).toMatch(/^host unreachable since \d\d:\d\d(:\d\d)? \(the ssh connection to devbox was lost\)$/);
    expect(await card('gpu:%1').locator('.unreachable').isVisible()).toBe(false);

    const select = page.locator('#host-filter');
    expect(await select.isVisible()).toBe(true);
    expect(await select.locator('option').allInnerTexts()).toEqual(['all hosts', 'this machine (1)', 'devbox (1)', 'gpu (1)']);
    await select.selectOption({ label: 'devbox (1)' });
    expect(await shownIds()).toEqual(['devbox:%3']);
    await select.selectOption({ label: 'this machine (1)' });
    expect(await shownIds()).toEqual(['run-1']);
    // a pane joining while filtered follows the filter
    daemon.pane(paneView('gpu:%2', { name: 'eval:0.0', host: 'gpu', attach: 'ssh' }));
    await card('gpu:%2').waitFor({ state: 'attached' });
    expect(await shownIds()).toEqual(['run-1']);
    await select.selectOption({ label: 'all hosts' });
    expect((await shownIds()).sort()).toEqual(['devbox:%3', 'gpu:%1', 'gpu:%2', 'run-1']);
    // the host comes back: the mark goes
    daemon.pane(paneView('devbox:%3', { name: 'work:0.3', host: 'devbox', attach: 'ssh', state: 'DONE', needsYou: true, since: t + 1000 }));
    await page.waitForFunction(() => document.querySelector('li.card[data-id="devbox:%3"]')?.getAttribute('data-unreachable') === 'false');
  });

  it('offers no host filter while every pane is this machine’s', async () => {
    daemon.pane(paneView('run-1', { name: 'api' }), true);
    await standIn.load();
    await card('run-1').waitFor();
    expect(await page.locator('#host-filter').isVisible()).toBe(false);
  });
});
