// One pass of a workload through a bare @xterm/headless Terminal: the same output chunks, the same terminal size
// and scrollback as a pane's screen, nothing else. Back-pressure mirrors the pipeline's (pause above the high-water
// mark until half drained), which also keeps xterm under its 50 MB pending-data limit.
//
// Two ways to feed it: `queued` is xterm's plain write() of each recorded chunk (a write that finds the queue empty
// is parsed on a later timer turn): the bare parser of every ratio the bench has reported. `immediate` feeds it
// exactly as a replayed pane's screen is fed: chunks of one frame merged as ReplaySource merges them, handed over by a
// WritePump (src/screen/write-pump.ts: MAX_WRITE_PIECE pieces, each parsed at once, the thread yielded between
// pieces once a parse slice is spent), to the same xterm (lean-xterm.ts: the screen's cheaper ways of doing xterm's
// own work), so the pipeline's ratio against it is what the pipeline's own work costs, with no difference in how
// xterm is fed or what it does.
import xtermHeadless from '@xterm/headless';
import type { Terminal as XTerminal } from '@xterm/headless';
import type { Cast } from '../attach/asciicast.js';
import { WRITE_HIGH_WATER } from '../daemon/pane-monitor.js';
import { SCREEN_SCROLLBACK_LINES } from '../screen/pane-screen.js';
import { WritePump } from '../screen/write-pump.js';
import { ParseBudget } from '../screen/parse-budget.js';
import { MAX_MERGED_CHARS, SAME_FRAME_S } from '../attach/replay-source.js';
import type { Workload } from './workload.js';
import { xtermInternals } from '../screen/xterm-internals.js';
import { leanXterm } from '../screen/lean-xterm.js';

const { Terminal } = xtermHeadless;
/** A resize event's payload, as ReplaySource reads it. */
const RESIZE = /^(\d+)x(\d+)$/;

export type BareFeed = 'queued' | 'immediate';

export async function runBare(w: Workload, feed: BareFeed = 'queued'): Promise<void> {
  for (const { cast } of w.recordings) await parseBare(cast, feed);
}

async function parseBare(cast: Cast, feed: BareFeed): Promise<void> {
  const term: XTerminal = new Terminal({ cols: cast.header.width, rows: cast.header.height, scrollback: SCREEN_SCROLLBACK_LINES, allowProposedApi: true });
  const internals = xtermInternals(term);
  // The switch a pane's screen throws (PaneScreen.parseAtOnce).
  const userInput = internals.userInput;
  // Fed as a pane's screen: also the same xterm, doing its own work the screen's cheaper ways (lean-xterm.ts).
  const lean = feed === 'immediate' ? leanXterm(term, internals) : null;
  const pump = feed === 'immediate' ? new WritePump(term, () => (userInput ? userInput.handleUserInput() : term.input('', true)), new ParseBudget()) : null;
  let pending = 0;
  let resume: (() => void) | null = null;
  const events = cast.events;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.code === 'o') {
      let data = e.data;
      // As ReplaySource hands a frame's chunks to the pane in one write.
      if (feed === 'immediate') {
        while (i + 1 < events.length && events[i + 1]!.code === 'o' && events[i + 1]!.t - e.t <= SAME_FRAME_S && data.length < MAX_MERGED_CHARS) data += events[++i]!.data;
      }
      const size = data.length;
      pending += size;
      const done = () => {
        pending -= size;
        if (resume && pending < WRITE_HIGH_WATER / 2) {
          const r = resume;
          resume = null;
          r();
        }
      };
      if (pump) pump.write(data, done);
      else term.write(data, done);
      if (pending > WRITE_HIGH_WATER) await new Promise<void>((r) => (resume = r));
    } else if (e.code === 'r') {
      const m = RESIZE.exec(e.data.trim());
      if (m) (pump ?? term).write('', () => term.resize(Number(m[1]), Number(m[2])));
    }
  }
  await new Promise<void>((r) => (pump ?? term).write('', r)); // the pane's flush() takes the same path
  lean?.dispose();
  term.dispose();
}
