/// <reference lib="dom" />
// A busy board for the dashboard's load tests (issue 26): N panes on the stand-in daemon, one transition every
// 1000/rate ms from a seeded PRNG (mostly RUNNING ⇄ IDLE, now and then a finished turn, a question or a failure,
// each answered or moving on later), and in-page probes: card moves (a card re-inserted at another place) and which
// card sits under a fixed point over time.
import type { Page } from 'playwright-core';
import type { MachineState } from '../../src/web/api-types.js';
import { Prng } from '../../src/bench/prng.js';
import { paneView, type FakeDaemon } from './browser-fake-daemon.js';

/** The next state of a busy pane: a running one mostly goes idle; at rest, it starts working again. */
function nextState(from: MachineState, r: number): MachineState {
  if (from !== 'RUNNING') return 'RUNNING';
  if (r < 0.55) return 'IDLE';
  if (r < 0.8) return 'DONE';
  if (r < 0.9) return 'WAITING_APPROVAL';
  return 'FAILED';
}

export function seedPanes(daemon: FakeDaemon, n: number): void {
  const t = Date.now() - 60_000;
  for (let i = 0; i < n; i++) {
    const id = `p${String(i).padStart(3, '0')}`;
    daemon.pane(paneView(id, { name: `agent ${i}`, program: 'claude', state: 'RUNNING', since: t + i, startedAt: t + i, edge: [`> task ${i}`, '✻ Working…', `  ⎿  step ${i}`] }), true);
  }
}

/** Starts the transitions; returns a stop function and a count of what was sent. */
export function busy(daemon: FakeDaemon, perSecond: number, seed = 26): { stop: () => void; sent: () => number } {
  const rnd = new Prng(seed);
  const ids = [...daemon.panes.keys()];
  let sent = 0;
  const timer = setInterval(() => {
    const id = ids[Math.floor(rnd.next() * ids.length)]!;
    const to = nextState(daemon.panes.get(id)!.state, rnd.next());
    daemon.move(id, to);
    if (to === 'WAITING_APPROVAL') {
      const p = daemon.panes.get(id)!;
      daemon.pane({ ...p, question: { text: 'Run npm test?', options: [{ id: 'y', label: 'Yes', keys: 'y Enter' }, { id: 'n', label: 'No', keys: 'n Enter' }] } });
    }
    sent++;
  }, 1000 / perSecond);
  return { stop: () => clearInterval(timer), sent: () => sent };
}

/** Installs the page's probes: card moves counted by a MutationObserver on both lists. */
export async function installProbes(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { boardProbe: { moves: number; seen: Set<Node> } };
    const probe = { moves: 0, seen: new Set<Node>(document.querySelectorAll('li.card')) };
    w.boardProbe = probe;
    const watch = new MutationObserver((ms) => {
      for (const m of ms) {
        for (const n of m.addedNodes) {
          if (!(n instanceof HTMLLIElement)) continue;
          if (probe.seen.has(n)) probe.moves++;
          else probe.seen.add(n);
        }
      }
    });
    for (const id of ['cards', 'closed-cards']) watch.observe(document.getElementById(id)!, { childList: true });
  });
}

export async function movesSoFar(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { boardProbe: { moves: number } }).boardProbe.moves);
}

/** Which card is at (x, y) every `everyMs` for `forMs`: how often it differs from the one `everyMs` before. */
export async function underPointer(page: Page, x: number, y: number, everyMs: number, forMs: number): Promise<{ samples: number; changed: number }> {
  return page.evaluate(
    ({ x, y, everyMs, forMs }) =>
      new Promise<{ samples: number; changed: number }>((resolve) => {
        const at = () => (document.elementFromPoint(x, y)?.closest('li.card') as HTMLElement | null)?.dataset.id ?? '';
        let last = at();
        let samples = 0;
        let changed = 0;
        const timer = setInterval(() => {
          const now = at();
          samples++;
          if (now !== last) changed++;
          last = now;
        }, everyMs);
        setTimeout(() => {
          clearInterval(timer);
          resolve({ samples, changed });
        }, forMs);
      }),
    { x, y, everyMs, forMs },
  );
}

/** The centre of the first card of row `row` (1-based) in the live list. */
export async function rowPoint(page: Page, row: number): Promise<{ x: number; y: number }> {
  return page.evaluate((row) => {
    const cards = [...document.querySelectorAll<HTMLElement>('#cards > li:not([hidden])')];
    const tops = [...new Set(cards.map((c) => Math.round(c.getBoundingClientRect().top)))].sort((a, b) => a - b);
    const top = tops[row - 1]!;
    const card = cards.find((c) => Math.round(c.getBoundingClientRect().top) === top)!;
    const r = card.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, row);
}
