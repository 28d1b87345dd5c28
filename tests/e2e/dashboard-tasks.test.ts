/// <reference lib="dom" />
// Supervised tasks from the dashboard, end to end: a real daemon, a real pane running the scripted fake agent (in
// a loop mode: every turn ends on the same screen), a real Chromium signed in through the daemon's one-time link.
// The task is started from the pane's form, its timeline grows live, Stop / Retry / Resume act on the daemon, and
// each end alerts with its own tone. Waits are for the page's DOM, never for time. Leaves docs/dashboard-tasks.png
// (written when missing or with UPDATE_SCREENSHOT=1, so a test run leaves the tree clean).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from '../helpers/build.js';
import { BROWSER_MISSING, launchBrowser, type Browser } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/browser-build.js';
import { ROOT } from './harness.js';
import { lines, taskDetail, taskScratch, type TaskRig } from './task-harness.js';

const SCREENSHOT = join(ROOT, 'docs', 'dashboard-tasks.png');
const { rig } = taskScratch();
const LONG = { timeout: 60_000 };

describe.skipIf(BROWSER_MISSING)('dashboard: supervised tasks on a real daemon and pane', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureBuilt();
    ensureWebBuilt();
    browser = await launchBrowser({ width: 1400, height: 1000 });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
  });

  const row = (id: string): Locator => page.locator(`#task-list li[data-id="${id}"]`);
  const rowStatus = (id: string, status: string) => page.locator(`#task-list li[data-id="${id}"][data-status="${status}"]`);
  const timeline = (kind: string) => page.locator(`#task-detail .task-timeline li[data-kind="${kind}"]`);

  /** Fills the form and starts a task; resolves with the new task's id (the form selects it). */
  async function startFromForm(fields: { prompt: string; until?: string; max?: string; check?: string }): Promise<string> {
    const box = page.locator('#task-form-box');
    if (!(await box.evaluate((d) => (d as HTMLDetailsElement).open))) await box.locator('summary').click();
    const before = await page.$$eval('#task-list li', (lis) => lis.map((li) => (li as HTMLElement).dataset.id));
    await page.getByLabel('Prompt').fill(fields.prompt);
    await page.getByLabel('Until (regex: done)').fill(fields.until ?? '');
    await page.getByLabel('Max iterations').fill(fields.max ?? '');
    await page.getByLabel('Check command (exit 0 = done)').fill(fields.check ?? '');
    await page.locator('#task-submit').click();
    await page.locator('#task-msg', { hasText: /^started t-/ }).waitFor();
    const id = (await page.locator('#task-msg').innerText()).replace('started ', '');
    expect(before).not.toContain(id);
    await row(id).and(page.locator('[aria-current="true"]')).waitFor();
    return id;
  }

  it('start from the form (problems inline), timeline grows live, Stop; EXHAUSTED → Retry; PAUSED → Resume; FINISHED; tones', async () => {
    // every turn ends on the same screen: two in a row pause the task (loop detection)
    const r: TaskRig = await rig(['--loop', '--work', '2'], { loop_turns: 2 });
    await page.goto(`${r.dm.url}/auth?code=${r.dm.code}`);
    await page.locator('#conn[data-conn="live"]').waitFor();
    const card = page.locator(`#cards > li[data-id="${r.pane}"]`);
    await card.locator('.open').click();
    await page.locator('#task-list', { hasText: 'no tasks on this pane yet' }).waitFor();

    // problems are said next to the form: the page's own check, then the daemon's 400
    await page.locator('#task-form-box summary').click();
    await page.locator('#task-submit').click();
    await page.locator('#task-form-problems li', { hasText: 'prompt: required' }).waitFor();
    await page.getByLabel('Prompt').fill('long job');
    await page.getByLabel('Until (regex: done)').fill('(');
    await page.locator('#task-submit').click();
    await page.locator('#task-form-problems li', { hasText: /until: invalid regular expression/ }).waitFor();
    expect(await page.getByLabel('Prompt').inputValue()).toBe('long job'); // kept to fix, not cleared
    expect(lines(r.files.echo)).toEqual([]);

    // 1. started from the form; the timeline grows as the daemon reports (created → sent → turn started); Stop
    const a = await startFromForm({ prompt: 'long job', until: 'never printed' });
    await timeline('created').waitFor();
    await timeline('sent').filter({ hasText: '#1: long job' }).waitFor(LONG);
    await timeline('turn_started').waitFor(LONG);
    await rowStatus(a, 'RUNNING').waitFor();
    await card.and(page.locator('[data-task="RUNNING"]')).waitFor();
    expect(await card.locator('.task-tag').innerText()).toContain('task running');
    await row(a).locator('button.task-stop').click();
    await rowStatus(a, 'STOPPED').waitFor();
    await timeline('stopped').waitFor();
    expect(await row(a).locator('button').count()).toBe(1); // only the selecting button: nothing left to do
    await card.and(page.locator('[data-task=""]')).waitFor();
    expect((await taskDetail(r.dm, a)).task).toMatchObject({ status: 'STOPPED', reason: 'stopped by dashboard' });

    // 2. one iteration allowed: EXHAUSTED (a "needs you" alert), Retry goes on
    const b = await startFromForm({ prompt: 'step', until: 'never printed', max: '1' });
    await rowStatus(b, 'EXHAUSTED').waitFor(LONG);
    expect(await row(b).innerText()).toContain('1/1 it.');
    await page.locator('#alert-log li[data-kind="task_needs"]', { hasText: /needs you \(EXHAUSTED\)/ }).waitFor({ state: 'attached' });
    expect(await row(b).locator('button.task-resume').count()).toBe(0);
    await row(b).locator('button.task-retry').click();
    await timeline('retried').waitFor();
    await page.locator('#task-msg', { hasText: `${b}: retried` }).waitFor();

    // 3. the same screen two turns in a row: PAUSED (another "needs you"), Resume goes on, Stop ends it
    await rowStatus(b, 'PAUSED').waitFor(LONG);
    await card.and(page.locator('[data-task="PAUSED"]')).waitFor();
    expect(await row(b).locator('.task-reason').innerText()).toMatch(/same 2 turns in a row/);
    await page.waitForFunction(() => document.querySelectorAll('#alert-log li[data-kind="task_needs"]').length === 2);
    expect(await row(b).locator('button.task-retry').count()).toBe(0);
    await row(b).locator('button.task-resume').click();
    await timeline('resumed').waitFor();
    await page.locator(`#task-list li[data-id="${b}"]:is([data-status="RUNNING"], [data-status="PENDING"])`).waitFor();
    // the iterations are listed newest first, each excerpt folded until asked for
    const looped = page.locator('#task-detail .iteration', { has: page.locator('.it-decision', { hasText: /^loop$/ }) }).first();
    await looped.waitFor();
    expect(await page.locator('#task-detail .iteration').first().getAttribute('data-n')).not.toBe('1'); // newest first
    expect(await looped.locator('.it-excerpt').isVisible()).toBe(false);
    await looped.locator('summary').click();
    await looped.locator('.it-excerpt', { hasText: 'I looked at the code' }).waitFor();

    if (!existsSync(SCREENSHOT) || process.env['UPDATE_SCREENSHOT'] === '1') await page.screenshot({ path: SCREENSHOT });
    else await page.screenshot({ path: join(r.d.dir, 'dashboard-tasks.png') });

    await row(b).locator('button.task-stop').click();
    await rowStatus(b, 'STOPPED').waitFor();

    // 4. a check command that passes: FINISHED, with the other tone
    const c = await startFromForm({ prompt: 'finish it', check: 'true' });
    await rowStatus(c, 'FINISHED').waitFor(LONG);
    await page.locator('#alert-log li[data-kind="task_finished"]', { hasText: 'finished' }).waitFor({ state: 'attached' });
    await timeline('check').waitFor();
    const tones = await page.$$eval('#alert-log li', (lis) => lis.map((li) => [(li as HTMLElement).dataset.kind, (li as HTMLElement).dataset.tone]));
    // (b may have paused once more between Resume and Stop: each pause is news)
    const taskTones = tones.filter(([k]) => k?.startsWith('task_'));
    expect(taskTones.at(-1)).toEqual(['task_finished', 'task_finished']);
    expect(taskTones.slice(0, -1).length).toBeGreaterThanOrEqual(2);
    expect(new Set(taskTones.slice(0, -1).map((t) => t.join()))).toEqual(new Set(['task_needs,task_needs']));
    expect(lines(r.files.echo)[0]).toBe('long job');

    // a reload alerts for nothing that had already ended; the list and its timelines come back from the daemon
    await page.reload();
    await page.locator('#conn[data-conn="live"]').waitFor();
    await card.locator('.open').click();
    await rowStatus(c, 'FINISHED').waitFor();
    await rowStatus(b, 'STOPPED').waitFor();
    await timeline('finished').waitFor();
    expect(await page.locator('#alert-log li').count()).toBe(0);
  });
});
