/// <reference lib="dom" />
// Acting from the dashboard, end to end (issue 15): a real daemon, a real `run` pane (its own pty) running
// tests/helpers/fake-menu-agent.py, which logs every key it reads, and a real Chromium. The reply box submits a
// prompt that starts a turn; the turn asks with a numbered menu; a click made on a screen that has since changed
// (the page's feed held back, as on a slow network, while the person at the terminal answered) gets the 409 and
// types nothing; clicking option 2 then delivers exactly its keys and the pane leaves WAITING_APPROVAL; the detail
// view's actions table says who sent what from where; jump says where the pane runs. Leaves the README's screenshots of the board, desktop and
// 390 px phone, in docs/ (written when missing or with UPDATE_SCREENSHOT=1, so a test run leaves the tree clean).
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import { BROWSER_MISSING } from '../helpers/browser.js';
import { browserSession } from '../helpers/browser-session.js';
import { ROOT, waitFor, Wrapped } from './harness.js';
import { until } from './daemon-harness.js';
import type { PaneView } from '../../src/web/api-types.js';

const AGENT = join(ROOT, 'tests', 'helpers', 'fake-menu-agent.py');
const BEL = '\x07';
const osc133 = (x: string) => `\x1b]133;${x}${BEL}`;
const PROMPT = `${osc133('A')}$ ${osc133('B')}`;
const shot = (name: string) => join(ROOT, 'docs', name);
const writeShots = (name: string) => !existsSync(shot(name)) || process.env['UPDATE_SCREENSHOT'] === '1';

/** The page's /ws feed through the test: `hold()` keeps the daemon's messages from the page until `release()`. */
async function heldFeed(page: Page) {
  let held: string[] | null = null;
  let route: WebSocketRoute | null = null;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    route = ws;
    const server = ws.connectToServer();
    server.onMessage((m) => {
      if (held) held.push(String(m));
      else ws.send(m);
    });
  });
  return {
    hold: () => void (held = []),
    release: () => {
      const list = held ?? [];
      held = null;
      for (const m of list) route?.send(m);
    },
  };
}

describe.skipIf(BROWSER_MISSING)('dashboard actions with a real daemon and a real agent pane', () => {
  const session = browserSession();

  it('reply starts a turn; a stale click gets the 409 and types nothing; option 2 types exactly its keys; the timeline says who', async () => {
    const { daemon, browser: { page } } = session;
    const feed = await heldFeed(page);
    await page.goto(daemon.authUrl);
    await page.locator('#conn[data-conn="live"]').waitFor();

    const keysLog = join(daemon.dir, 'keys.jsonl');
    const w = new Wrapped(join(daemon.dir, 'agent-events.jsonl'), ['--daemon', daemon.url, '--name', 'deploy-agent', '--agent', 'generic', '--', 'python3', AGENT, '--log', keysLog, '--menus', '2'], daemon.env);
    const keysRead = (): string[] => (existsSync(keysLog) ? readFileSync(keysLog, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { keys: string }).keys) : []);
    // what the page asked of the daemon and what it answered, for a failure's report
    const posts: string[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST') void r.text().then((t) => posts.push(`${r.request().url()} ${r.request().postData()} → ${r.status()} ${t.slice(0, 300)}`), () => {});
    });
    const diag = () => `${w.diag()}\nkeys read: ${JSON.stringify(keysRead())}\nrequests:\n${posts.join('\n')}\n${daemon.diag()}`;
    try {
      // Two shell panes joined over the pane link, for a board with more than one thing on it.
      const build = await daemon.link('build', 'build');
      build.send({ type: 'output', data: `${PROMPT}make\r\n${osc133('C')}built 12 targets\r\n${osc133('D;0')}${PROMPT}` });
      const server = await daemon.link('server', 'dev-server');
      server.send({ type: 'output', data: `${PROMPT}npm run dev\r\n${osc133('C')}listening on :3000\r\n` });
      const gone = await daemon.link('lint', 'lint');
      gone.send({ type: 'output', data: PROMPT });
      gone.close();

      const card = page.locator('li.card', { has: page.locator('.open', { hasText: /^deploy-agent$/ }) });
      await card.waitFor();
      const id = (await card.getAttribute('data-id'))!;
      const pane = () => page.evaluate(async (paneId) => (await (await fetch(`/api/panes/${paneId}`)).json()) as PaneView, id);

      // At rest at its input box: the reply box types the prompt and Enter; the turn starts.
      await card.locator('.state', { hasText: /^(IDLE|DONE)$/ }).waitFor();
      await w.waitOutput('the input box', (o) => o.includes('> '));
      await card.locator('.open').click();
      await page.locator('#detail-reply-text').fill('deploy it');
      await page.locator('#detail-reply button[type="submit"]').click();
      await waitFor('the agent to read the prompt', () => keysRead().join('') === 'deploy it\r', diag);
      await card.locator('.state', { hasText: /^(RUNNING|WAITING_APPROVAL)$/ }).waitFor();
      await page.keyboard.press('Escape');

      // The first menu: its options as buttons, the keys they send shown.
      await card.locator('.answer[data-option="2"]').waitFor();
      expect(await card.locator('.asks').innerText()).toBe('asks: Do you want to run `make deploy`?');
      expect(await card.locator('.answer kbd').allInnerTexts()).toEqual(['Enter', '↓ Enter', '↓ ↓ Enter', 'Esc']);
      const first = await pane();
      await page.locator('li.card[data-id="server"] .state', { hasText: 'RUNNING' }).waitFor();
      await page.locator('li.card[data-id="build"] .age', { hasText: 'exit 0' }).waitFor();
      await page.locator('#closed-box summary', { hasText: 'Closed panes (1)' }).waitFor();
      await page.mouse.move(1, 790); // no hover highlight in the pictures
      if (writeShots('dashboard.png')) await page.screenshot({ path: shot('dashboard.png') });
      if (writeShots('dashboard-phone.png')) {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({ path: shot('dashboard-phone.png') });
        await page.setViewportSize({ width: 1280, height: 800 });
      }

      // The page's feed is held back; meanwhile the person at the terminal picks 1: the agent works and asks again.
      feed.hold();
      w.term.write('1');
      // (it left WAITING_APPROVAL and came back: a later state time)
      const second = await until('the second menu on the pane', async () => {
        const p = await pane();
        return p.state === 'WAITING_APPROVAL' && p.since > first.since && p.question ? p : null;
      }, diag);
      expect(second.rev).toBeGreaterThan(first.rev);
      const typedBefore = keysRead().join('');
      expect(typedBefore, diag()).toBe('deploy it\r1');

      // A click on the old screen: 409, said plainly, the fresh pane shown, nothing typed.
      await card.locator('.answer[data-option="2"]').click();
      await card.locator('.said', { hasText: 'the pane changed — look again' }).waitFor();
      expect(keysRead().join('')).toBe(typedBefore);
      feed.release();

      // The fresh screen's option 2 (once the page shows the pane as the daemon has it): exactly its keys (↓ Enter),
      // and the pane leaves WAITING_APPROVAL.
      await until('the page to show the pane as the daemon has it', async () => {
        const p = await pane();
        return p.state === 'WAITING_APPROVAL' && p.question && (await card.getAttribute('data-rev')) === String(p.rev) ? p : null;
      }, diag);
      await card.locator('.answer[data-option="2"]').click();
      await waitFor('the agent to pick 2', () => w.output.includes("picked 2: Yes, and don't ask again"), diag);
      expect(keysRead().join('').slice(typedBefore.length)).toBe('\x1b[B\r');
      await card.locator('.state').filter({ hasNotText: 'WAITING_APPROVAL' }).waitFor();

      // The timeline: the reply and the answer, by the dashboard, from this machine, with their keys.
      await card.locator('.open').click();
      const rows = page.locator('#detail-actions tbody tr');
      await rows.filter({ hasText: 'answer' }).waitFor();
      const table = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)));
      expect(table.map((r) => [r[0], r[3]])).toEqual([
        ['dashboard', '↓ Enter'],
        ['dashboard', 'deploy it Enter'],
      ]);
      expect(table[0]![1]).toMatch(/127\.0\.0\.1/);
      expect(table[0]![2]).toBe("answer: Yes, and don't ask again for make commands");
      // Jump: a `run` pane cannot be brought forward from here; the daemon says where it runs, and keeps the jump
      await page.locator('#detail-jump').click();
      await page.locator('#detail-jump-how', { hasText: /^runs on \S+ in \/dev\/pts\/\d+ \(pid \d+\)$/ }).waitFor();
      await rows.filter({ hasText: 'focus' }).waitFor();
      await page.keyboard.press('Escape');
      build.close();
      server.close();
    } finally {
      w.kill();
    }
  });
});
