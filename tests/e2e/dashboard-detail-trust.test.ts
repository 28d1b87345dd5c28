/// <reference lib="dom" />
// Issue 26, items 2 and 12, with a real daemon, panes joined over the pane link and a real Chromium: the detail view
// shows only the buttons of the pane whose view it is (opening a FAILED pane after a waiting one used to keep the
// waiting pane's "y / n / Esc", still wired to it), and a FAILED pane whose IDLE → RUNNING and RUNNING → FAILED share
// one millisecond reads FAILED in its timeline and its transitions (they were ordered by time only).
import { describe, expect, it } from 'vitest';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { browserSession } from '../helpers/browser-session.js';
import { until } from './daemon-harness.js';
import type { TransitionView } from '../../src/web/api-types.js';

const BEL = '\x07';
const osc133 = (x: string) => `\x1b]133;${x}${BEL}`;
const PROMPT = `${osc133('A')}$ ${osc133('B')}`;

describe.skipIf(BROWSER_MISSING)('the detail view is true to its pane (issue 26, items 2 and 12)', () => {
  const session = browserSession();

  it("a FAILED pane's view shows no other pane's answers; its timeline ends FAILED though two transitions share one time", async () => {
    const { daemon, browser: { page } } = session;
    await page.goto(daemon.authUrl);
    await page.locator('#conn[data-conn="live"]').waitFor();

    const asking = await daemon.link('asking', 'prune');
    asking.send({ type: 'output', data: `${PROMPT}./prune\r\n${osc133('C')}Delete 3 stale branches? [y/N] ` });
    // the whole command in one chunk of output: its start and its failure are read at one time
    const failing = await daemon.link('failing', 'build');
    failing.send({ type: 'output', data: `${PROMPT}make\r\n${osc133('C')}error: no rule\r\n${osc133('D;2')}${PROMPT}` });
    const history = await until('the failed pane\'s history', async () => {
      const list = (await (await fetch(`${daemon.url}/api/panes/failing/transitions`)).json()) as TransitionView[];
      return list.length >= 2 && list[0]!.to === 'FAILED' ? list : null;
    }, daemon.diag);
    // the case at hand: the start and the failure share one `at`
    expect(history[0]!.at, JSON.stringify(history)).toBe(history[1]!.at);

    await page.locator('li.card[data-id="asking"] .answer[data-option="y"]').waitFor();
    await page.locator('li.card[data-id="asking"] .open').click();
    await page.locator('#detail-answers .answer[data-option="y"]').waitFor();
    // another pane's view, opened from its card while this one is open
    await page.locator('li.card[data-id="failing"] .open').evaluate((b) => (b as HTMLButtonElement).click());
    await page.locator('#detail-title', { hasText: 'build' }).waitFor();
    await page.locator('#detail-state', { hasText: 'FAILED' }).waitFor();
    expect(await page.locator('#detail-answers button').count(), 'buttons of the pane viewed before').toBe(0);
    expect(await page.locator('#detail-asks').innerText()).toBe('');

    // item 12: the bar's last segment and the newest transition row say FAILED
    await page.locator('#detail-transitions tbody tr').first().waitFor();
    const rows = await page.locator('#detail-transitions tbody tr td:nth-child(2)').allInnerTexts();
    expect(rows.slice(0, 2)).toEqual(['RUNNING → FAILED', 'IDLE → RUNNING']);
    const segs = await page.locator('#detail-timeline .seg').evaluateAll((ds) => ds.map((d) => (d as HTMLElement).dataset.state));
    expect(segs.at(-1)).toBe('FAILED');
    await page.keyboard.press('Escape');
    asking.close();
    failing.close();
  });
});
