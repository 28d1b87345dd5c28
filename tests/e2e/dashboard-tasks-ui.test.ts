/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Supervised tasks on the dashboard against the stand-in daemon (tests/helpers/browser-fake-daemon.ts, typed by the
// API contract): the cards' task badge, no alert for what ended before the page loaded, live timeline and status
// from the feed with a tone per kind, text from terminals shown as text, the daemon's 400 problems under the form,
// read-only refusals, and a daemon without tasks. Waits are for the DOM, never for time.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { standInDashboard } from '../helpers/stand-in-dashboard.js';
import { FakeDaemon, paneView, taskView } from '../helpers/browser-fake-daemon.js';

let daemon: FakeDaemon;
let page: Page;

const card = (id: string) => page.locator(`#cards > li[data-id="${id}"]`);
const row = (id: string) => page.locator(`#task-list li[data-id="${id}"]`);
const alertKinds = () => page.$$eval('#alert-log li', (lis) => lis.map((li) => [(li as HTMLElement).dataset.kind, li.textContent ?? '']));

describe.skipIf(BROWSER_MISSING)('dashboard tasks (stand-in daemon)', () => {
  const standIn = standInDashboard();
  beforeEach(() => {
    ({ page, daemon } = standIn);
  });
  const load = () => standIn.load();

  async function openPane(id: string): Promise<void> {
    await card(id).locator('.open').click();
    await page.locator('#detail').waitFor();
  }

  it('badges the driven pane; ended tasks never alert on load; live changes alert with their own tone and grow the timeline', async () => {
    daemon.pane(paneView('api', { name: 'api-agent', state: 'RUNNING' }), true);
    daemon.pane(paneView('web', { name: 'web-agent' }), true);
    daemon.task(taskView('t-old', 'web', { status: 'FINISHED', reason: 'until matched', createdAt: 1 }), true);
    daemon.task(taskView('t-fail', 'web', { status: 'FAILED', reason: 'failure matched', createdAt: 2 }), true);
    daemon.task(taskView('t-run', 'api', { status: 'RUNNING' }), true);
    daemon.taskEvent('t-run', 'created', 'prompt of t-run', true);
    await load();
    await card('api').and(page.locator('[data-task="RUNNING"]')).waitFor();
    expect(await card('api').locator('.task-tag').innerText()).toBe('▶ task running');
    expect(await card('web').getAttribute('data-task')).toBe('');
    expect(await card('web').locator('.task-tag').isHidden()).toBe(true);

    await openPane('api');
    await row('t-run').and(page.locator('[aria-current="true"]')).waitFor();
    await page.locator('#task-detail .task-timeline li[data-kind="created"]').waitFor();
    // the feed: the timeline grows, the status changes, and a pause is a "needs you"
    daemon.taskEvent('t-run', 'sent', '#1: prompt of t-run');
    await page.locator('#task-detail .task-timeline li[data-kind="sent"]', { hasText: '#1: prompt of t-run' }).waitFor();
    daemon.task({ ...daemon.tasks.get('t-run')!, status: 'PAUSED', reason: 'stuck: same 3 turns', updatedAt: Date.now() + 1 });
    daemon.taskEvent('t-run', 'paused', 'stuck: same 3 turns');
    await row('t-run').and(page.locator('[data-status="PAUSED"]')).waitFor();
    await card('api').and(page.locator('[data-task="PAUSED"]')).waitFor();
    await page.locator('#task-detail .task-timeline li[data-kind="paused"]').waitFor();
    // saved again with the same status: no second alert
    daemon.task({ ...daemon.tasks.get('t-run')!, updatedAt: Date.now() + 2 });
    daemon.task(taskView('t-new', 'web', { status: 'FINISHED', reason: 'check passed' }));
    await page.waitForFunction(() => document.querySelectorAll('#alert-log li').length === 2);
    expect(await alertKinds()).toEqual([
      ['task_needs', expect.stringContaining('Task on api-agent needs you (PAUSED): stuck: same 3 turns')],
      ['task_finished', expect.stringContaining('Task on web-agent finished: check passed')],
    ]);
    // Resume from the list
    await row('t-run').locator('button.task-resume').click();
    await row('t-run').and(page.locator('[data-status="RUNNING"]')).waitFor();
    expect(daemon.taskRequests.at(-1)).toEqual({ action: 'resume', id: 't-run' });
    // an approval the task may not answer is on the timeline; the alert is the pane's own WAITING_APPROVAL
    daemon.taskEvent('t-run', 'approval_waiting', 'waiting for the person to answer: Allow rm -rf build?');

    // the other pane: a FAILED task offers Retry, not Resume
    await page.keyboard.press('Escape');
    await openPane('web');
    await row('t-fail').waitFor();
    expect(await page.$$eval('#task-list li', (lis) => lis.map((li) => (li as HTMLElement).dataset.id))).toEqual(['t-new', 't-fail', 't-old']);
    expect(await row('t-fail').locator('button.task-resume').count()).toBe(0);
    await row('t-fail').locator('button.task-retry').click();
    await row('t-fail').and(page.locator('[data-status="RUNNING"]')).waitFor();
    await card('web').and(page.locator('[data-task="RUNNING"]')).waitFor();
    await row('t-fail').locator('button.task-stop').click();
    await row('t-fail').and(page.locator('[data-status="STOPPED"]')).waitFor();
    expect(await alertKinds()).toHaveLength(2); // an approval event, Retry, Stop: no task alert
  });

  it('text from terminals stays text: prompts, reasons, events and excerpts with markup', async () => {
    const evil = '<img src=x onerror="window.pwned=1"><b>bold</b>';
    daemon.pane(paneView('p'), true);
    const t = taskView('t-x', 'p', { status: 'PAUSED', reason: `reason ${evil}` });
    t.spec.prompt = `prompt ${evil}`;
    daemon.task(t, true);
    daemon.taskEvent('t-x', 'sent', `#1: ${evil}`, true);
    daemon.taskIterations.set('t-x', [
      { taskId: 't-x', n: 1, prompt: evil, sentAt: Date.now(), turnStartedAt: null, endedAt: null, result: null, excerpt: `<script>window.pwned=2</script>${evil}`, decision: null, judge: null, check: { exitCode: 1, output: evil }, charsTyped: 1, charsRead: 1, tokens: 1, approvalMs: 0 },
    ]);
    await load();
    await openPane('p');
    await page.locator('#task-detail .iteration summary').click();
    await page.locator('#task-detail .it-excerpt', { hasText: '<script>window.pwned=2</script>' }).waitFor();
    expect(await row('t-x').locator('.task-prompt').innerText()).toBe(`prompt ${evil}`);
    expect(await row('t-x').locator('.task-reason').innerText()).toBe(`reason ${evil}`);
    expect(await page.locator('#task-detail .task-timeline li[data-kind="sent"] .task-detail').innerText()).toBe(`#1: ${evil}`);
    expect(await page.locator('#detail img, #detail b, #detail script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  });

  it('the form: the daemon\'s 400 problems under it; read-only refusals say how to sign in', async () => {
    daemon.pane(paneView('p'), true);
    await load();
    await openPane('p');
    await page.locator('#task-list', { hasText: 'no tasks on this pane yet' }).waitFor();
    await page.locator('#task-form-box summary').click();
    await page.getByLabel('Prompt').fill('go');
    await page.getByLabel('Max iterations').fill('many');
    await page.locator('#task-submit').click();
    await page.locator('#task-form-problems li', { hasText: 'maxIterations: expected a whole number' }).waitFor();
    expect(daemon.taskRequests).toEqual([]); // the page's own check: nothing sent

    await page.getByLabel('Max iterations').fill('3');
    await page.getByLabel('Failure (regex)').fill('FATAL');
    await page.getByLabel('Ask the LLM judge').check();
    daemon.refuseNextTask = ['judge: no judge is configured (config judge.base_url)', 'check: something else'];
    await page.locator('#task-submit').click();
    await page.locator('#task-form-problems li', { hasText: 'judge: no judge is configured' }).waitFor();
    expect(await page.locator('#task-form-problems li').count()).toBe(2);
    expect(daemon.taskRequests[0]).toEqual({ action: 'start', body: { pane: 'p', prompt: 'go', failure: ['FATAL'], maxIterations: 3, judge: true } });

    await page.getByLabel('Ask the LLM judge').uncheck();
    await page.locator('#task-submit').click();
    await row('t-1').and(page.locator('[aria-current="true"]')).waitFor();
    expect(await page.locator('#task-form-problems li').count()).toBe(0);
    expect(await row('t-1').innerText()).toContain('0/3 it.');
    await card('p').and(page.locator('[data-task="PENDING"]')).waitFor();

    daemon.authorized = false;
    await row('t-1').locator('button.task-stop').click();
    await page.locator('#task-msg.warn', { hasText: 'read-only' }).waitFor();
    await page.locator('#banner', { hasText: 'read-only' }).waitFor();
    await page.locator('#task-form-box summary').click();
    await page.getByLabel('Prompt').fill('again');
    await page.locator('#task-submit').click();
    await page.locator('#task-form-problems li', { hasText: 'read-only' }).waitFor();
    expect(daemon.tasks.get('t-1')!.status).toBe('PENDING');
  });

  it('a daemon without tasks: no form, says so, and the rest of the detail view works', async () => {
    daemon.tasksEnabled = false;
    daemon.pane(paneView('p'), true);
    await load();
    await openPane('p');
    await page.locator('#task-list', { hasText: 'this daemon runs no supervised tasks' }).waitFor();
    expect(await page.locator('#task-form-box').isHidden()).toBe(true);
    await page.locator('#detail-screen', { hasText: 'screen of p' }).waitFor();
    expect(await page.locator('#banner').isHidden()).toBe(true);
  });
});
