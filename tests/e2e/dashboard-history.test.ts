/// <reference lib="dom" />
// "History degraded" on the dashboard, end to end: a real daemon on a real SQLite file, a real Chromium, and a second
// connection that holds the database's write lock past the daemon's busy timeout (the way a stuck backup or a full
// disk refuses writes). The banner says so with the cause while the pane's card keeps moving; once the lock is gone
// the daemon recovers by itself, the banner goes, and every transition the card showed is in history.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { browserSession } from '../helpers/browser-session.js';

const BEL = '\x07';
const osc133 = (x: string) => `\x1b]133;${x}${BEL}`;
const PROMPT = `${osc133('A')}$ ${osc133('B')}`;

describe.skipIf(BROWSER_MISSING)('dashboard: history degraded', () => {
  let blocker: Database.Database | null = null;
  const session = browserSession({}, () => {
    if (blocker?.inTransaction) blocker.exec('ROLLBACK');
    blocker?.close();
  });

  it('shows a banner with the cause while writes are refused, the card keeps moving, and all is kept after', async () => {
    const { daemon, browser: { page } } = session;
    await page.goto(daemon.authUrl);
    await page.locator('#conn[data-conn="live"]').waitFor();
    const banner = page.locator('#history-banner');
    expect(await banner.isHidden()).toBe(true);
    const link = await daemon.link('p', 'build');
    const card = page.locator('#cards > li[data-id="p"]');
    await card.waitFor();
    link.send({ type: 'output', data: PROMPT });

    blocker = new Database(join(daemon.dir, 'db.sqlite'));
    blocker.exec('BEGIN IMMEDIATE'); // the write lock, held: the daemon's writes fail with SQLITE_BUSY
    link.send({ type: 'output', data: `make\r\n${osc133('C')}compiling\r\n` });
    await card.locator('.state', { hasText: 'RUNNING' }).waitFor();
    await banner.waitFor({ state: 'visible' });
    expect(await banner.innerText()).toMatch(/^History degraded.*(SQLITE_BUSY|locked)/);
    link.send({ type: 'output', data: `${osc133('D;0')}${PROMPT}` });
    await card.locator('.state', { hasText: 'DONE' }).waitFor(); // shown at once, marked unsaved, not held back

    blocker.exec('ROLLBACK');
    await banner.waitFor({ state: 'hidden' });
    const health = (await (await fetch(`${daemon.url}/healthz`)).json()) as { ok: boolean; history: { status: string; recoveries: number } };
    expect(health).toMatchObject({ ok: true, history: { status: 'ok' } });
    expect(health.history.recoveries).toBeGreaterThanOrEqual(1);
    const rows = (await (await fetch(`${daemon.url}/api/panes/p/transitions`)).json()) as { to: string }[];
    expect(rows.map((r) => r.to)).toEqual(expect.arrayContaining(['RUNNING', 'DONE']));
    // On disk, not only in the daemon's memory.
    const onDisk = blocker.prepare("SELECT to_state FROM transitions WHERE pane_id = 'p'").pluck().all() as string[];
    expect(onDisk).toEqual(expect.arrayContaining(['RUNNING', 'DONE']));
    expect(daemon.exited).toBe(false);
    link.close();
  });
});
