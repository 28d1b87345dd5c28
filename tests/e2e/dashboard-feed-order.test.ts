// Issue 26 ("a board that holds 100 panes"): a card never lags its own transition. A real daemon, panes joined over
// the pane link, and the dashboard's own feed (/ws): after every transition, the next snapshot of that pane is the
// state the transition went to, and it comes with the transition (not at the next coalescing tick, 250 ms later).
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ensureBuilt } from '../helpers/build.js';
import { Daemon } from '../helpers/browser-daemon.js';
import type { WsMessage } from '../../src/web/api-types.js';
import { waitFor } from './harness.js';

const BEL = '\x07';
const osc133 = (x: string) => `\x1b]133;${x}${BEL}`;
const PROMPT = `${osc133('A')}$ ${osc133('B')}`;
/** Well under the daemon's ws_coalesce_s (0.25 s): a snapshot this late waited for the coalescing tick. */
const WITH_IT_MS = 100;
const PANES = 6;
const ROUNDS = 4;

describe('a transition and its pane snapshot go out together', () => {
  it('every transition is followed at once by a snapshot in the state it went to', async () => {
    ensureBuilt();
    const daemon = await Daemon.start();
    const got: Array<{ t: number; m: WsMessage }> = [];
    const ws = new WebSocket(daemon.url.replace('http', 'ws') + '/ws', { headers: { origin: daemon.url } });
    try {
      ws.on('message', (d) => got.push({ t: performance.now(), m: JSON.parse(d.toString()) as WsMessage }));
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const links = [];
      for (let i = 0; i < PANES; i++) {
        const l = await daemon.link(`p${i}`, `pane ${i}`);
        l.send({ type: 'output', data: PROMPT });
        links.push(l);
      }
      // each round, every pane runs a command that fails, in one chunk or two: IDLE → RUNNING → FAILED (often at one
      // `at`), while the other panes print, so snapshots are pending when a transition comes
      for (let r = 0; r < ROUNDS; r++) {
        for (const [i, l] of links.entries()) {
          l.send({ type: 'output', data: `make ${r}\r\n${osc133('C')}compiling ${i}\r\n` });
          if (i % 2) await new Promise((res) => setTimeout(res, 30));
          l.send({ type: 'output', data: `error ${r}\r\n${osc133('D;1')}${PROMPT}` });
        }
        await new Promise((res) => setTimeout(res, 120));
      }
      const transitions = () => got.filter((g) => g.m.type === 'transition');
      await waitFor('the transitions', () => transitions().length >= PANES * ROUNDS * 2, daemon.diag);
      await new Promise((res) => setTimeout(res, 400));

      const late: string[] = [];
      for (const [k, g] of got.entries()) {
        if (g.m.type !== 'transition') continue;
        const tr = g.m.transition;
        // the pane's next message: a snapshot, or its next transition (then that one's snapshot speaks for both)
        const next = got.slice(k + 1).find((n) => (n.m.type === 'pane' && n.m.pane.id === tr.paneId) || (n.m.type === 'transition' && n.m.transition.paneId === tr.paneId));
        if (next?.m.type === 'transition') continue;
        if (!next || next.m.type !== 'pane') late.push(`${tr.paneId} ${tr.from}→${tr.to}: no snapshot after it`);
        else if (next.m.pane.state !== tr.to || next.m.pane.since < tr.at) late.push(`${tr.paneId} ${tr.from}→${tr.to}: the next snapshot says ${next.m.pane.state} since ${next.m.pane.since} (transition at ${tr.at})`);
        else if (next.t - g.t > WITH_IT_MS) late.push(`${tr.paneId} ${tr.from}→${tr.to}: its snapshot came ${Math.round(next.t - g.t)} ms later`);
      }
      expect(late, `${late.length} of ${transitions().length} transitions`).toEqual([]);
      for (const l of links) l.close();
    } finally {
      ws.close();
      await daemon.stop();
    }
  });

  // The issue's figure at 100 panes (BOARD_BENCH=1: it runs for ~15 s): of the transitions, how many are followed by
  // a snapshot still in the old state, and how many never show in any snapshot before the pane's next transition.
  it.skipIf(process.env['BOARD_BENCH'] !== '1')('100 panes, ~10 transitions a second: figures', async () => {
    ensureBuilt();
    const daemon = await Daemon.start();
    const got: WsMessage[] = [];
    const ws = new WebSocket(daemon.url.replace('http', 'ws') + '/ws', { headers: { origin: daemon.url } });
    try {
      ws.on('message', (d) => got.push(JSON.parse(d.toString()) as WsMessage));
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const links = [];
      for (let i = 0; i < 100; i++) {
        const l = await daemon.link(`b${i}`, `bench ${i}`);
        l.send({ type: 'output', data: PROMPT });
        links.push(l);
      }
      // every pane prints all the time; one command in five starts or ends a second (two transitions each)
      const end = Date.now() + 12_000;
      let k = 0;
      const running = new Set<number>();
      while (Date.now() < end) {
        for (let i = 0; i < 20; i++) links[(k * 20 + i) % 100]!.send({ type: 'output', data: `tick ${k}\r\n` });
        const i = (k * 37) % 100;
        if (running.has(i)) {
          links[i]!.send({ type: 'output', data: `${osc133(`D;${k % 3 ? 0 : 1}`)}${PROMPT}` });
          running.delete(i);
        } else {
          links[i]!.send({ type: 'output', data: `make ${k}\r\n${osc133('C')}` });
          running.add(i);
        }
        k++;
        await new Promise((res) => setTimeout(res, 100));
      }
      await new Promise((res) => setTimeout(res, 600));
      let transitions = 0;
      let staleNext = 0;
      let neverShown = 0;
      for (const [n, m] of got.entries()) {
        if (m.type !== 'transition') continue;
        transitions++;
        const tr = m.transition;
        const later = got.slice(n + 1);
        const nextTr = later.findIndex((x) => x.type === 'transition' && x.transition.paneId === tr.paneId);
        const window = nextTr < 0 ? later : later.slice(0, nextTr);
        const snaps = window.filter((x): x is Extract<WsMessage, { type: 'pane' }> => x.type === 'pane' && x.pane.id === tr.paneId);
        if (snaps[0] && snaps[0].pane.state !== tr.to) staleNext++;
        if (!snaps.some((x) => x.pane.state === tr.to)) neverShown++;
      }
      console.log(`100 panes over the pane link, ${transitions} transitions in 12 s: next snapshot still old ${staleNext}, never shown ${neverShown}`);
      expect(staleNext).toBe(0);
      for (const l of links) l.close();
    } finally {
      ws.close();
      await daemon.stop();
    }
  }, 60_000);
});
