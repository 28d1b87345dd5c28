/// <reference lib="dom" />
// Issue 26, item 1: a click acts only on the card the pointer went down on, as it looked then. A real daemon, two
// panes joined over the pane link that both ask "[y/N]", and a real Chromium. The first card's "y" is under the
// pointer; that pane is answered from the CLI meanwhile; the board must not slide the other pane's "y" under the
// pointer, and a click there must type nothing into the other pane.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { browserSession } from '../helpers/browser-session.js';
import { BIN, waitFor } from './harness.js';
import { runCli } from './daemon-harness.js';

const BEL = '\x07';
const osc133 = (x: string) => `\x1b]133;${x}${BEL}`;
const PROMPT = `${osc133('A')}$ ${osc133('B')}`;
const ask = (what: string) => `${PROMPT}./prune\r\n${osc133('C')}${what}? [y/N] `;

/** The centre of an element, in page coordinates. */
async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

describe.skipIf(BROWSER_MISSING)('a click acts only on the pane it was aimed at (issue 26, item 1)', () => {
  const session = browserSession();

  it('the other waiting pane never slides under a resting pointer, and a press that outlives its card types nothing', async () => {
    const { daemon, browser: { page } } = session;
    await page.goto(daemon.authUrl);
    await page.locator('#conn[data-conn="live"]').waitFor();
    const cli = (...args: string[]) => runCli([process.execPath, BIN, ...args], daemon.env);

    // Two panes ask alike; the newer is first on the board.
    const older = await daemon.link('older', 'prune-b');
    older.send({ type: 'output', data: ask('Delete 3 stale branches') });
    await page.locator('li.card[data-id="older"] .answer[data-option="y"]').waitFor();
    const newer = await daemon.link('newer', 'prune-a');
    newer.send({ type: 'output', data: ask('Delete 4 stale branches') });
    const yes = (id: string) => `li.card[data-id="${id}"] .answer[data-option="y"]`;
    await page.locator(yes('newer')).waitFor();
    const ids = () => page.$$eval('#cards > li', (lis) => lis.map((li) => (li as HTMLElement).dataset.id));
    expect(await ids()).toEqual(['newer', 'older']);

    // 1. The pointer rests on the first card's "y"; that pane is answered from the CLI; the board does not re-sort
    // under the pointer, so a click there a moment later lands on the same card (which no longer asks).
    const at = await centre(page, yes('newer'));
    await page.mouse.move(at.x, at.y);
    const answered = await cli('answer', 'newer', 'y');
    expect(answered.code, answered.stderr).toBe(0);
    newer.send({ type: 'output', data: 'y\r\nDeleting branches…\r\n' }); // the program takes the answer and works
    await waitFor('the answered pane to stop asking on the page', () => page.locator(yes('newer')).count().then((n) => n === 0), daemon.diag);
    await page.waitForTimeout(300); // a frame or two for a re-sort to happen, if it were going to
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForTimeout(500);
    expect(older.typed, 'keys typed into the pane the pointer was never aimed at').toEqual([]);
    expect(await page.locator(yes('older')).count()).toBe(1);

    // Once the pointer leaves the board, the order catches up: the pane still asking is first again.
    await page.keyboard.press('Escape');
    await page.mouse.move(2, 2);
    await waitFor('the board to re-sort once the pointer left it', async () => (await ids())[0] === 'older', daemon.diag);

    // 2. The press starts on a card's "y"; the pane is answered before the release: nothing is typed anywhere.
    newer.send({ type: 'output', data: `\r\n${ask('Delete 5 stale branches')}` });
    await waitFor('the newer pane to ask again, first', async () => (await page.locator(yes('newer')).count()) === 1 && (await ids())[0] === 'newer', daemon.diag);
    const typedNewer = newer.typed.join('');
    const at2 = await centre(page, yes('newer'));
    await page.mouse.move(at2.x, at2.y);
    await page.mouse.down();
    const again = await cli('answer', 'newer', 'y');
    expect(again.code, again.stderr).toBe(0);
    newer.send({ type: 'output', data: 'y\r\nDeleting branches…\r\n' });
    await waitFor('the answered pane to stop asking on the page', () => page.locator(yes('newer')).count().then((n) => n === 0), daemon.diag);
    await page.waitForTimeout(300);
    await page.mouse.up();
    await page.waitForTimeout(500);
    expect(older.typed).toEqual([]);
    expect(newer.typed.join(''), 'the CLI typed once; the page nothing').toBe(`${typedNewer}y\r`);
    older.close();
    newer.close();
  });
});
