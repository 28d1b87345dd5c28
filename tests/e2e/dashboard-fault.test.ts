/// <reference lib="dom" />
// "analysis error" on the dashboard, end to end: a real daemon whose profile throws whenever the screen shows a word
// (tests/helpers/throwing-profile, a module-loading hook: the one fake), a pane joined over the pane link as `run`
// joins, a real Chromium. The card says the pane's analysis failed, at once, and the pane is still read afterwards.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { browserSession } from '../helpers/browser-session.js';
import { ROOT } from './harness.js';

const HOOK = join(ROOT, 'tests', 'helpers', 'throwing-profile', 'register.mjs');
const WORD = 'KABOOM';
const BEL = '\x07';
const osc133 = (x: string) => `\x1b]133;${x}${BEL}`;
const PROMPT = `${osc133('A')}$ ${osc133('B')}`;

describe.skipIf(BROWSER_MISSING)('dashboard: a pane whose analysis throws', () => {
  const session = browserSession({ NODE_OPTIONS: `--import=${HOOK}`, TERMSUPERVISOR_TEST_THROW_ON: WORD });

  it('shows "analysis error" on the card, and the pane goes on being read', async () => {
    const { daemon, browser: { page } } = session;
    await page.goto(daemon.authUrl);
    await page.locator('#conn[data-conn="live"]').waitFor();
    const link = await daemon.link('faulty', 'faulty');
    const card = page.locator('#cards > li[data-id="faulty"]');
    await card.waitFor();
    expect(await card.getAttribute('data-analysis-error')).toBe('false');
    expect(await card.locator('.analysis-error').isHidden()).toBe(true);

    link.send({ type: 'output', data: `${PROMPT}cat notes.txt\r\n${WORD}\r\n` });
    const shown = card.locator('.analysis-error');
    await shown.waitFor({ state: 'visible' });
    expect(await shown.innerText()).toMatch(/^⚠ analysis error(?: ×\d+)?: analysis \(shell\)$/);
    expect(await shown.getAttribute('title')).toContain("TypeError: Cannot read properties of undefined (reading 'trim')");
    expect(await card.getAttribute('data-analysis-error')).toBe('true');

    // The word leaves the screen: the next command is read (Tier 1 RUNNING, then DONE) on the same card.
    link.send({ type: 'output', data: `\x1b[H\x1b[2J\x1b[3J${PROMPT}` });
    link.send({ type: 'output', data: `make\r\n${osc133('C')}compiling\r\n` });
    await card.locator('.state', { hasText: 'RUNNING' }).waitFor();
    link.send({ type: 'output', data: `${osc133('D;0')}${PROMPT}` });
    await card.locator('.state', { hasText: 'DONE' }).waitFor();
    expect(daemon.exited).toBe(false);
    link.close();
  });
});
