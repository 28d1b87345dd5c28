// One pass of a workload through a bare @xterm/headless Terminal: the same output chunks, the same terminal size
// and scrollback as a pane's screen, nothing else. Back-pressure mirrors the pipeline's (pause above the high-water
// mark until half drained), which also keeps xterm under its 50 MB pending-data limit.
//
// Two ways to feed it: `queued` is xterm's plain write() (a write that finds the queue empty is parsed on a later
// timer turn): the bare parser of every ratio the bench has reported. `immediate` feeds it as a pane's screen does
// (parsed at once, in MAX_WRITE_PIECE pieces: src/screen/pane-screen.ts), so the pipeline's ratio against it is
// what the pipeline's own work costs, with no difference in how xterm is fed.
import xtermHeadless from '@xterm/headless';
import type { Terminal as XTerminal } from '@xterm/headless';
import type { Cast } from '../attach/asciicast.js';
import { WRITE_HIGH_WATER } from '../daemon/pane-monitor.js';
import { MAX_WRITE_PIECE, SCREEN_SCROLLBACK_LINES } from '../screen/pane-screen.js';
import type { Workload } from './workload.js';

const { Terminal } = xtermHeadless;
/** A resize event's payload, as ReplaySource reads it. */
const RESIZE = /^(\d+)x(\d+)$/;

export type BareFeed = 'queued' | 'immediate';

export async function runBare(w: Workload, feed: BareFeed = 'queued'): Promise<void> {
  for (const { cast } of w.recordings) await parseBare(cast, feed);
}

async function parseBare(cast: Cast, feed: BareFeed): Promise<void> {
  const term: XTerminal = new Terminal({ cols: cast.header.width, rows: cast.header.height, scrollback: SCREEN_SCROLLBACK_LINES, allowProposedApi: true });
  // The switch a pane's screen throws (PaneScreen.parseAtOnce).
  const userInput = (term as unknown as { _core: { _writeBuffer: { handleUserInput(): void } } })._core._writeBuffer;
  let pending = 0;
  let resume: (() => void) | null = null;
  for (const e of cast.events) {
    if (e.code === 'o') {
      const size = e.data.length;
      pending += size;
      const done = () => {
        pending -= size;
        if (resume && pending < WRITE_HIGH_WATER / 2) {
          const r = resume;
          resume = null;
          r();
        }
      };
      if (feed === 'immediate') userInput.handleUserInput();
      if (feed === 'queued' || size <= MAX_WRITE_PIECE) term.write(e.data, done);
      else for (let i = 0; i < size; i += MAX_WRITE_PIECE) term.write(e.data.slice(i, i + MAX_WRITE_PIECE), i + MAX_WRITE_PIECE >= size ? done : undefined);
      if (pending > WRITE_HIGH_WATER) await new Promise<void>((r) => (resume = r));
    } else if (e.code === 'r') {
      const m = RESIZE.exec(e.data.trim());
      if (m) term.write('', () => term.resize(Number(m[1]), Number(m[2])));
    }
  }
  await new Promise<void>((r) => term.write('', r));
  term.dispose();
}
