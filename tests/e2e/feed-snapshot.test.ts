// The /ws feed's pane snapshot agrees with the transition it goes with (issue 27): right after RUNNING→DONE the
// card must already say DONE, not RUNNING for another coalescing window. A real daemon, a real `run` wrapper around
// a one-shot program (its start is RUNNING, its exit DONE), and a /ws client reading the feed in order.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { waitFor } from './harness.js';
import { daemonScratch, DaemonProcess, runWrapper } from './daemon-harness.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const { cleanups, dirs } = daemonScratch();
beforeAll(() => ensureBuilt(), 120_000);

describe('the feed after a transition', () => {
  it('the first snapshot of the pane after each transition shows the state it went to', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const feed = await dm.feed();
    cleanups.push(() => feed.ws.close());
    const w = runWrapper(d, ['--name', 'oneshot'], ['sh', '-c', 'sleep 0.4; echo finished-now; sleep 0.2']);
    cleanups.push(() => void w.kill('SIGKILL'));
    const diag = () => `${dm.diag()}\nfeed: ${JSON.stringify(feed.messages.map((m) => m.type === 'pane' ? `pane ${(m['pane'] as PaneView).state}` : m.type === 'transition' ? `transition →${(m['transition'] as TransitionView).to}` : m.type))}`;
    await waitFor('DONE on the feed', () => feed.messages.some((m) => m.type === 'transition' && (m['transition'] as TransitionView).to === 'DONE'), diag);
    // The snapshot sent with the transition (flushed with it) arrives right after it.
    await new Promise((r) => setTimeout(r, 200));
    const ms = feed.messages;
    const transitions = ms.map((m, i) => ({ m, i })).filter(({ m }) => m.type === 'transition');
    expect(transitions.length, diag()).toBeGreaterThanOrEqual(2);
    for (const { m, i } of transitions) {
      const t = m['transition'] as TransitionView;
      const next = ms.slice(i + 1).find((x) => x.type === 'pane' && (x['pane'] as PaneView).id === t.paneId);
      expect(next, diag()).toBeDefined();
      expect((next!['pane'] as PaneView).state, diag()).toBe(t.to);
    }
  }, 60_000);
});
