/// <reference lib="dom" />
// Acting from the dashboard (issue 15) in a real browser against the stand-in daemon: cards that speak plainly,
// a question's options as buttons that carry the screen revision the person saw, the 409 when the pane changed
// since, the interrupt's confirmation, the reply box, jump, the pane's actions in its timeline, and a header that
// fits a 390 px phone.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { standInDashboard } from '../helpers/stand-in-dashboard.js';
import { FakeDaemon, paneView } from '../helpers/browser-fake-daemon.js';
import type { PaneView } from '../../src/web/api-types.js';

let daemon: FakeDaemon;
let page: Page;

const card = (id: string) => page.locator(`li.card[data-id="${id}"]`);

const QUESTION: PaneView['question'] = {
  text: 'Do you want to run rm -rf build?',
  options: [
    { id: '1', label: 'Yes', keys: '1' },
    { id: '2', label: "Yes, and don't ask again for Bash(rm:*)", keys: '2' },
    { id: '3', label: 'No, and tell Claude what to do differently', keys: '3' },
  ],
};

const waiting = (id: string, over: Partial<PaneView> = {}) =>
  paneView(id, { name: id, program: 'claude', state: 'WAITING_APPROVAL', needsYou: true, rule: 'claude.approval_menu', line: '❯ 1. Yes', rev: 7, question: QUESTION, ...over });

describe.skipIf(BROWSER_MISSING)('dashboard actions (stand-in daemon)', () => {
  const standIn = standInDashboard();
  beforeEach(() => {
    ({ page, daemon } = standIn);
  });
  const load = () => standIn.load();

  it('cards speak plainly: the question, how long the turn runs, when it finished and its exit code; rule names only in the detail view', async () => {
    const now = Date.now();
    daemon.pane(waiting('ask', { program: 'shell', question: { text: 'Delete 3 stale branches? [y/N]', options: [{ id: 'y', label: 'yes', keys: 'y Enter' }, { id: 'n', label: 'no', keys: 'n Enter' }] } }), true);
    // LONG_RUNNING since 10 s, but the turn began 4 m 30 s ago: the card says the turn's runtime
    daemon.pane(paneView('long', { state: 'LONG_RUNNING', since: now - 10_000, startedAt: now - 270_000, rule: 'timer.long_running' }), true);
    daemon.pane(paneView('built', { state: 'DONE', needsYou: true, since: now - 125_000, tier: 1, source: 'in-band', rule: 'osc133.command_finished', line: 'exit 0: $ make' }), true);
    daemon.pane(paneView('broke', { state: 'FAILED', needsYou: true, since: now - 30_000, tier: 1, source: 'in-band', rule: 'osc133.command_failed', line: 'exit 2' }), true);
    daemon.pane(paneView('agent', { program: 'claude', state: 'DONE', needsYou: true, since: now - 3000, rule: 'claude.done_marker', line: '✻ Cooked for 3s' }), true);
    await load();
    await card('agent').waitFor();

    const ask = card('ask');
    expect(await ask.locator('.asks').innerText()).toBe('asks: Delete 3 stale branches? [y/N]');
    expect(await ask.locator('.answer').allInnerTexts()).toEqual(['yes\ny Enter', 'no\nn Enter', 'deny / cancel\nEsc']);
    expect(await card('long').locator('.age').innerText()).toMatch(/^running 4 m 3\d s$/);
    expect(await card('built').locator('.age').innerText()).toBe('finished 2 m ago · exit 0');
    expect(await card('broke').locator('.age').innerText()).toBe('failed 30 s ago · exit 2');
    expect(await card('agent').locator('.age').innerText()).toBe('finished just now');
    for (const id of ['ask', 'long', 'built', 'broke', 'agent']) expect(await card(id).innerText()).not.toMatch(/claude\.|osc133\.|timer\./);

    await card('agent').locator('.open').click();
    await page.locator('#detail-why', { hasText: 'claude.done_marker — ✻ Cooked for 3s' }).waitFor();
  });

  it('a click on option 2 sends {option, rev} as the dashboard; the pane moves on; its timeline shows who, from where, what keys', async () => {
    const t0 = Date.now() - 10_000;
    daemon.pane(waiting('w', { since: t0 }), true);
    daemon.transitions.set('w', [{ paneId: 'w', at: t0, from: 'RUNNING', to: 'WAITING_APPROVAL', tier: 2, source: 'profile', rule: 'claude.approval_menu', line: '❯ 1. Yes', stalled: false, startedAt: t0 - 5000, startedAtKept: true }]);
    await load();
    await card('w').locator('.answer[data-option="2"]').click();
    await card('w').locator('.state', { hasText: 'RUNNING' }).waitFor();
    expect(daemon.actions.requests).toEqual([{ route: 'answer', pane: 'w', body: { option: '2', rev: 7 }, client: 'dashboard' }]);
    expect(await card('w').locator('.answer').count()).toBe(0);

    await card('w').locator('.open').click();
    const row = page.locator('#detail-actions tbody tr', { hasText: 'answer' });
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(1)).toEqual(['dashboard', '127.0.0.1', "answer: Yes, and don't ask again for Bash(rm:*)", '2']);
    // and as a tick on the timeline bar, at its time
    const mark = page.locator('#detail-timeline .bar .mark[data-kind="answer"]');
    await mark.waitFor();
    expect(await mark.getAttribute('title')).toMatch(/dashboard from 127\.0\.0\.1: answer: Yes, and don't ask again for Bash\(rm:\*\) \(2\)$/);
    // an action typed elsewhere arrives live
    daemon.actions.record('w', 'interrupt', 'Esc', '', 8, 'cli');
    await page.locator('#detail-actions tbody tr', { hasText: 'cli' }).waitFor();
  });

  it('a screen that changed since the person looked: 409, "the pane changed — look again", the fresh pane shown, nothing typed', async () => {
    daemon.pane(waiting('w'), true);
    await load();
    await card('w').locator('.answer[data-option="1"]').waitFor();
    // the pane's screen moves on (a new question) before the page hears of it
    daemon.panes.set('w', waiting('w', { rev: 9, question: { text: 'Do you want to push to main?', options: [{ id: '1', label: 'Yes', keys: '1' }, { id: '2', label: 'No', keys: '2' }] } }));
    await card('w').locator('.answer[data-option="1"]').click();
    await card('w').locator('.said', { hasText: 'the pane changed — look again' }).waitFor();
    await card('w').locator('.asks', { hasText: 'asks: Do you want to push to main?' }).waitFor();
    expect(await card('w').locator('.answer').count()).toBe(3);
    expect(daemon.actions.history.get('w') ?? []).toEqual([]);
    expect(await card('w').locator('.said').innerText()).toBe('the pane changed — look again');

    // the next click carries the new revision and goes through
    await card('w').locator('.answer[data-option="2"]').click();
    await card('w').locator('.state', { hasText: 'RUNNING' }).waitFor();
    expect(daemon.actions.requests.map((r) => r.body)).toEqual([{ option: '1', rev: 7 }, { option: '2', rev: 9 }]);
  });

  it('answered elsewhere meanwhile: the 409 shows the pane running and says so; nothing typed', async () => {
    daemon.pane(waiting('w'), true);
    await load();
    await card('w').locator('.answer[data-option="1"]').waitFor();
    daemon.panes.set('w', { ...waiting('w'), state: 'RUNNING', needsYou: false, rev: 8, question: null });
    await card('w').locator('.answer[data-option="1"]').click();
    await card('w').locator('.state', { hasText: 'RUNNING' }).waitFor();
    expect(await card('w').locator('.said').innerText()).toBe('the pane changed — look again');
    expect(await card('w').locator('.answer').count()).toBe(0);
    expect(daemon.actions.history.get('w') ?? []).toEqual([]);
  });

  it('Esc denies; the detail view answers too, and without the token says read-only', async () => {
    daemon.pane(waiting('w'), true);
    await load();
    await card('w').locator('.open').click();
    await page.locator('#detail-asks', { hasText: 'asks: Do you want to run rm -rf build?' }).waitFor();
    daemon.authorized = false;
    await page.locator('#detail-answers .answer[data-option="3"]').click();
    await page.locator('#detail-ack-msg', { hasText: 'read-only — open the link the daemon printed' }).waitFor();
    await page.locator('#banner', { hasText: 'read-only' }).waitFor();
    daemon.authorized = true;
    await page.locator('#detail-answers .answer[data-option="esc"]').click();
    await card('w').locator('.state', { hasText: 'IDLE' }).waitFor();
    expect(daemon.actions.requests.at(-1)).toEqual({ route: 'interrupt', pane: 'w', body: { rev: 7 }, client: 'dashboard' });
    await page.locator('#detail-ack-msg', { hasText: 'sent Esc' }).waitFor();
  });

  it('interrupt asks for a confirmation first (Esc for an agent, Ctrl-C for a shell); cancel sends nothing', async () => {
    daemon.pane(paneView('agent', { program: 'claude', state: 'RUNNING', rev: 3 }), true);
    daemon.pane(paneView('sh', { program: 'shell', state: 'LONG_RUNNING', rev: 4 }), true);
    await load();
    await card('sh').locator('.open').click();
    expect(await page.locator('#detail-interrupt').innerText()).toBe('Interrupt (Ctrl-C)');
    await page.keyboard.press('Escape');
    await card('agent').locator('.open').click();
    const interrupt = page.locator('#detail-interrupt');
    expect(await interrupt.innerText()).toBe('Interrupt (Esc)');
    await interrupt.click();
    await page.locator('#detail-interrupt-what', { hasText: 'Send Esc to agent?' }).waitFor();
    expect(await interrupt.isHidden()).toBe(true);
    await page.locator('#detail-interrupt-no').click();
    expect(await interrupt.isVisible()).toBe(true);
    expect(daemon.actions.requests).toEqual([]);

    await interrupt.click();
    await page.locator('#detail-interrupt-yes').click();
    await card('agent').locator('.state', { hasText: 'IDLE' }).waitFor();
    expect(daemon.actions.requests).toEqual([{ route: 'interrupt', pane: 'agent', body: { rev: 3 }, client: 'dashboard' }]);
    // at rest there is nothing to interrupt
    expect(await interrupt.isHidden()).toBe(true);
    expect(await page.locator('#detail-interrupt-confirm').isHidden()).toBe(true);
  });

  it('the reply box is for an agent at rest: it sends {text, rev} and starts a turn; a shell has none', async () => {
    daemon.pane(paneView('agent', { program: 'claude', state: 'DONE', needsYou: true, rev: 11 }), true);
    daemon.pane(paneView('sh', { program: 'shell', state: 'DONE', needsYou: true }), true);
    await load();
    await card('sh').locator('.open').click();
    expect(await page.locator('#detail-reply').isHidden()).toBe(true);
    await page.keyboard.press('Escape');
    await card('agent').locator('.open').click();
    await page.locator('#detail-reply-text').fill('now run the tests');
    await page.locator('#detail-reply-text').press('Enter');
    await card('agent').locator('.state', { hasText: 'RUNNING' }).waitFor();
    expect(daemon.actions.requests).toEqual([{ route: 'reply', pane: 'agent', body: { text: 'now run the tests', rev: 11 }, client: 'dashboard' }]);
    expect(await page.locator('#detail-reply-text').inputValue()).toBe('');
    expect(await page.locator('#detail-reply').isHidden()).toBe(true);
  });

  it('jump says how: where a run pane runs', async () => {
    daemon.pane(paneView('r'), true);
    await load();
    await card('r').locator('.open').click();
    await page.locator('#detail-jump').click();
    await page.locator('#detail-jump-how', { hasText: 'runs on devbox in /dev/pts/3 (pid 4242)' }).waitFor();
    daemon.actions.focus = { focused: true, how: 'tmux: work:2.%5 in client /dev/pts/1' };
    await page.locator('#detail-jump').click();
    await page.locator('#detail-jump-how', { hasText: 'shown: tmux: work:2.%5 in client /dev/pts/1' }).waitFor();
  });

  it('a 390 px phone: the header fits, the cards fit, timestamps do not wrap', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (let i = 0; i < 3; i++) daemon.pane(waiting(`phone-${i}`, { name: `api-server-${i}` }), true);
      daemon.pane(paneView('done', { state: 'DONE', needsYou: true }), true);
      await load();
      await card('done').waitFor();
      const fit = await page.evaluate(() => {
        const top = document.querySelector('header.top')!;
        const outside = [...top.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > 390.5).map((e) => e.id || e.className || e.tagName);
        return { page: document.documentElement.scrollWidth, header: top.scrollWidth, outside };
      });
      expect(fit).toEqual({ page: 390, header: 390, outside: [] });
      await card('done').locator('.open').click();
      await page.locator('#detail-transitions').waitFor();
      const wraps = await page.$$eval('li.card .age', (els) => els.filter((e) => e.getBoundingClientRect().height > parseFloat(getComputedStyle(e).lineHeight) * 1.5).length);
      expect(wraps).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
