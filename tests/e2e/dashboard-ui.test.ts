/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The dashboard in a real browser against a stand-in daemon (tests/helpers/browser-fake-daemon.ts, typed by the
// API contract): ordering, live updates that touch only the changed card, alerts only on live transitions, the
// detail view, read-only acks, the stats view, reconnecting, remembered settings, and 100 panes.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { standInDashboard } from '../helpers/stand-in-dashboard.js';
import { FakeDaemon, paneView } from '../helpers/browser-fake-daemon.js';

let daemon: FakeDaemon;
let page: Page;

const cardIds = () => page.$$eval('#cards > li', (lis) => lis.map((li) => (li as HTMLElement).dataset.id));
const card = (id: string) => page.locator(`li.card[data-id="${id}"]`);

describe.skipIf(BROWSER_MISSING)('dashboard (stand-in daemon)', () => {
  const standIn = standInDashboard();
  beforeEach(() => {
    ({ page, daemon } = standIn);
  });
  const load = () => standIn.load();

  it('shows the empty state with how to add a pane, then a card as soon as one joins', async () => {
    await load();
    const empty = page.locator('#empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain('termsupervisor run -- claude');
    // tmux panes are followed by the daemon already (issue 26: the board said it was "coming")
    expect(await empty.innerText()).toContain('tmux panes show up here by themselves');
    expect(await empty.innerText()).not.toMatch(/coming/);
    daemon.pane(paneView('a', { name: 'api', program: 'claude', edge: ['> fix the tests', '✻ Working…'] }));
    await card('a').waitFor();
    expect(await empty.isHidden()).toBe(true);
    const text = await card('a').innerText();
    expect(text).toContain('api');
    expect(text).toContain('IDLE');
    expect(text).toContain('✻ Working…');
  });

  it('sorts needing-you panes by urgency (waiting, failed, stalled, done; newest first), closed panes in their own collapsed section', async () => {
    const t = Date.now() - 60_000;
    daemon.pane(paneView('idle', { since: t }), true);
    daemon.pane(paneView('done-old', { state: 'DONE', needsYou: true, since: t + 1000 }), true);
    daemon.pane(paneView('done-new', { state: 'DONE', needsYou: true, since: t + 5000 }), true);
    daemon.pane(paneView('closed', { name: 'wait', alive: false, since: t - 1000, edge: [] }), true);
    daemon.pane(paneView('stalled', { state: 'LONG_RUNNING', stalled: true, needsYou: true, since: t + 6000 }), true);
    daemon.pane(paneView('failed', { state: 'FAILED', needsYou: true, since: t + 500 }), true);
    daemon.pane(paneView('wait', { state: 'WAITING_APPROVAL', needsYou: true, since: t + 100 }), true);
    daemon.pane(paneView('run', { state: 'RUNNING', since: t + 2000 }), true);
    await load();
    await page.waitForFunction(() => document.querySelectorAll('#cards > li').length === 7);
    expect(await cardIds()).toEqual(['wait', 'failed', 'stalled', 'done-new', 'done-old', 'idle', 'run']);
    // the closed pane named like a live one is not among the live cards: its section is collapsed
    const closedBox = page.locator('#closed-box');
    expect(await closedBox.isVisible()).toBe(true);
    expect(await closedBox.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator('#closed-box summary').innerText()).toBe('Closed panes (1)');
    expect(await page.$$eval('#closed-cards > li', (lis) => lis.map((li) => (li as HTMLElement).dataset.id))).toEqual(['closed']);
    await page.locator('#closed-box summary').click();
    // (the opened section's cards are laid out a frame later: content-visibility)
    await expect.poll(() => card('closed').innerText()).toContain('closed');
    // what needs an answer (the question) or a look (the failure, the stall); the finished turns are not counted
    expect(await page.locator('#summary').innerText()).toBe('7 open · 1 to answer · 2 to look at');
    expect(await page.title()).toBe('(3) termsupervisor');

    // a new failure goes on top of the older one; a pane that closes leaves the live list (the pointer off the
    // board: over it, the order holds still)
    await page.mouse.move(1, 1);
    daemon.move('run', 'FAILED');
    await card('run').locator('.state', { hasText: 'FAILED' }).waitFor();
    expect(await cardIds()).toEqual(['wait', 'run', 'failed', 'stalled', 'done-new', 'done-old', 'idle']);
    daemon.pane({ ...daemon.panes.get('idle')!, alive: false, edge: [] });
    await page.locator('#closed-cards > li[data-id="idle"]').waitFor();
    expect(await cardIds()).toEqual(['wait', 'run', 'failed', 'stalled', 'done-new', 'done-old']);
    expect(await page.locator('#closed-box summary').innerText()).toBe('Closed panes (2)');
  });

  it('alerts on live transitions only (never on the hello), with a tone per kind and a stalled marker', async () => {
    daemon.pane(paneView('w', { state: 'WAITING_APPROVAL', needsYou: true }), true);
    await load();
    await card('w').waitFor();
    expect(await page.locator('#alert-log li').count()).toBe(0);

    daemon.pane(paneView('x', { name: 'agent-x', state: 'RUNNING' }));
    daemon.move('x', 'WAITING_APPROVAL');
    daemon.move('x', 'RUNNING');
    daemon.move('x', 'RUNNING', { stalled: true, rule: 'stall', source: 'timer', tier: 0 });
    daemon.move('x', 'DONE');
    await page.waitForFunction(() => document.querySelectorAll('#alert-log li').length === 3);
    const log = await page.$$eval('#alert-log li', (lis) => lis.map((li) => [(li as HTMLElement).dataset.kind, li.textContent]));
    expect(log.map((l) => l[0])).toEqual(['WAITING_APPROVAL', 'stalled', 'DONE']);
    expect(log[0]![1]).toContain('agent-x is waiting for you');

    // the DONE snapshot clears the stall; a stall mark on a running pane shows the marker
    daemon.move('x', 'RUNNING');
    daemon.move('x', 'RUNNING', { stalled: true, rule: 'stall', source: 'timer', tier: 0 });
    await card('x').locator('.stall').waitFor({ state: 'visible' });
    expect(await card('x').locator('.open').getAttribute('aria-label')).toBe('agent-x: RUNNING, stalled. Open details');
  });

  it("a shell's DONE read from its screen says its exit code is not known; a Tier 1 DONE does not", async () => {
    daemon.pane(paneView('guess', { name: 'work:0.0', attach: 'tmux', state: 'DONE', needsYou: true, tier: 2, source: 'profile', rule: 'shell.prompt_bracketed_paste', exitCodeUnknown: true }), true);
    daemon.pane(paneView('known', { name: 'build', state: 'DONE', needsYou: true, tier: 1, source: 'process', rule: 'run.command_finished', line: 'exit 0' }), true);
    await load();
    const hint = card('guess').locator('.exit-unknown');
    await hint.waitFor({ state: 'visible' });
    expect(await hint.innerText()).toBe('exit codes unknown: install shell integration');
    expect(await hint.getAttribute('title')).toContain('shell-integration');
    expect(await card('known').locator('.exit-unknown').isHidden()).toBe(true);
    // The next turn is under way: nothing to say about an exit code.
    daemon.pane(paneView('guess', { name: 'work:0.0', attach: 'tmux', state: 'RUNNING', tier: 1, source: 'process', rule: 'job.started', exitCodeUnknown: false }));
    await card('guess').locator('.state', { hasText: 'RUNNING' }).waitFor();
    expect(await hint.isHidden()).toBe(true);
  });

  it('per-state toggles and mute are remembered across reloads', async () => {
    await load();
    await page.getByRole('button', { name: 'Alert settings' }).click();
    await page.getByLabel('is done (softer tone)').uncheck();
    await page.getByLabel('Mute sounds').check();
    await page.reload();
    await page.locator('#conn[data-conn="live"]').waitFor();
    expect(await page.getByLabel('Mute sounds', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('is done (softer tone)').isChecked()).toBe(false);
    daemon.pane(paneView('d', { state: 'RUNNING' }));
    daemon.move('d', 'DONE');
    daemon.move('d', 'FAILED');
    await page.waitForFunction(() => document.querySelectorAll('#alert-log li').length === 1);
    expect(await page.$eval('#alert-log li', (li) => [(li as HTMLElement).dataset.kind, (li as HTMLElement).dataset.tone])).toEqual(['FAILED', 'silent']);
    await page.evaluate(() => localStorage.clear());
  });

  it('detail view: timeline, turns, transitions, screen; Ack; Esc closes and gives focus back', async () => {
    const t0 = Date.now() - 30_000;
    daemon.pane(paneView('p', { name: 'builder', state: 'RUNNING', since: t0 }), true);
    daemon.transitions.set('p', [{ paneId: 'p', at: t0, from: 'IDLE', to: 'RUNNING', tier: 1, source: 'in-band', rule: 'osc133.command_started', line: '$ make', stalled: false, startedAt: t0, startedAtKept: false }]);
    daemon.turns.set('p', [{ paneId: 'p', start: t0 - 60_000, end: t0 - 50_000, durationS: 10, result: 'done', prompt: 'make test' }]);
    await load();
    await card('p').click();
    const detail = page.locator('#detail');
    await detail.waitFor();
    await detail.locator('td', { hasText: 'osc133.command_started' }).waitFor();
    expect(await detail.locator('.seg[data-state="RUNNING"]').count()).toBe(1);
    expect(await detail.locator('#detail-turns').innerText()).toContain('10s');
    expect(await detail.locator('#detail-screen').innerText()).toContain('screen of builder');
    expect(await page.locator('#detail-ack').isDisabled()).toBe(true);

    daemon.move('p', 'DONE', { rule: 'osc133.command_finished' });
    await detail.locator('td', { hasText: 'osc133.command_finished' }).waitFor();
    expect(await detail.locator('.seg').count()).toBe(2);
    await page.locator('#detail-ack:not([disabled])').click();
    await card('p').locator('.state', { hasText: 'IDLE' }).waitFor();
    expect(daemon.acks).toEqual(['p']);

    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.id)).toBe('p');
  });

  it('without the token an Ack says how to sign in (read-only)', async () => {
    daemon.authorized = false;
    daemon.pane(paneView('r', { state: 'DONE', needsYou: true }), true);
    await load();
    await card('r').locator('.open').press('Enter');
    await page.locator('#detail-ack').click();
    await page.locator('#detail-ack-msg', { hasText: 'read-only — open the link the daemon printed' }).waitFor();
    await page.locator('#banner', { hasText: 'read-only' }).waitFor();
  });

  it('stats view groups the counters by tier, rule and reason', async () => {
    daemon.counters = { 'fired.tier2.done.claude.done_marker': 7, 'fired.tier1.run.osc133.command_started': 3, 'suppressed.tier3.run.debounce': 4, 'suppressed.tier3.done.newline_gate': 2 };
    daemon.pane(paneView('s'), true);
    await load();
    await page.getByRole('button', { name: 'Stats' }).click();
    await page.locator('#stats caption', { hasText: 'Signals fired, by rule' }).waitFor();
    const text = await page.locator('#stats').innerText();
    expect(text).toMatch(/tier2\s+done\s+claude\.done_marker\s+7/);
    expect(text).toMatch(/Signals suppressed, by tier[\s\S]*tier3\s+6/);
    expect(text).toMatch(/tier3\s+run\s+debounce\s+4/);
    expect(text).toContain('daemon up 1h 02m');
    expect(await page.locator('#panes').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Panes' }).click();
    await card('s').waitFor();
  });

  it('reconnects by itself after the daemon drops the socket and shows it', async () => {
    daemon.pane(paneView('k'), true);
    await load();
    daemon.dropClients();
    await page.locator('#conn[data-conn="offline"]').waitFor();
    daemon.remove('k');
    daemon.pane(paneView('k2'), true);
    await page.locator('#conn[data-conn="live"]').waitFor({ timeout: 20_000 });
    await card('k2').waitFor();
    expect(await cardIds()).toEqual(['k2']);
  });

  it('100 panes: an update touches only its card; a burst of 100 updates applies at once', async () => {
    const t = Date.now() - 100_000;
    for (let i = 0; i < 100; i++) daemon.pane(paneView(`p${i}`, { name: `pane ${i}`, state: 'RUNNING', since: t + i, edge: [`line ${i} a`, `line ${i} b`] }), true);
    await load();
    await page.waitForFunction(() => document.querySelectorAll('#cards > li').length === 100);
    // record which cards the next update touches (the ticking ages aside: they change once a second everywhere)
    await page.evaluate(() => {
      const w = window as unknown as { touched: Set<string> };
      w.touched = new Set();
      new MutationObserver((ms) => {
        for (const m of ms) {
          const node = m.target instanceof Element ? m.target : m.target.parentElement;
          const li = node?.closest<HTMLElement>('#cards > li');
          if (li && !node?.closest('.age')) w.touched.add(li.dataset.id!);
        }
      }).observe(document.getElementById('cards')!, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    daemon.pane({ ...daemon.panes.get('p50')!, edge: ['line 50 a', 'line 50 c'] });
    await card('p50').locator('.edge', { hasText: 'line 50 c' }).waitFor();
    expect(await page.evaluate(() => [...(window as unknown as { touched: Set<string> }).touched])).toEqual(['p50']);

    // a burst of 100 updates lands in a handful of frames and leaves the page responsive
    const start = Date.now();
    for (let i = 0; i < 100; i++) daemon.pane({ ...daemon.panes.get(`p${i}`)!, edge: [`line ${i} burst`] });
    await page.waitForFunction(() => [...document.querySelectorAll('#cards .edge')].every((e) => e.textContent!.includes('burst')));
    expect(Date.now() - start).toBeLessThan(5000);
  });
});
