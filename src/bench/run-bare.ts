// One pass of a workload through a bare @xterm/headless Terminal: the same output chunks, the same terminal size
// and scrollback as a pane's screen, nothing else. Back-pressure mirrors the pipeline's (pause above the high-water
// mark until half drained), which also keeps xterm under its 50 MB pending-data limit.
import xtermHeadless from '@xterm/headless';
import type { Terminal as XTerminal } from '@xterm/headless';
import type { Cast } from '../attach/asciicast.js';
import { WRITE_HIGH_WATER } from '../daemon/pane-monitor.js';
import { SCREEN_SCROLLBACK_LINES } from '../screen/pane-screen.js';
import type { Workload } from './workload.js';

const { Terminal } = xtermHeadless;
/** A resize event's payload, as ReplaySource reads it. */
const RESIZE = /^(\d+)x(\d+)$/;

export async function runBare(w: Workload): Promise<void> {
  for (const { cast } of w.recordings) await parseBare(cast);
}

async function parseBare(cast: Cast): Promise<void> {
  const term: XTerminal = new Terminal({ cols: cast.header.width, rows: cast.header.height, scrollback: SCREEN_SCROLLBACK_LINES, allowProposedApi: true });
  let pending = 0;
  let resume: (() => void) | null = null;
  for (const e of cast.events) {
    if (e.code === 'o') {
      const size = e.data.length;
      pending += size;
      term.write(e.data, () => {
        pending -= size;
        if (resume && pending < WRITE_HIGH_WATER / 2) {
          const r = resume;
          resume = null;
          r();
        }
      });
      if (pending > WRITE_HIGH_WATER) await new Promise<void>((r) => (resume = r));
    } else if (e.code === 'r') {
      const m = RESIZE.exec(e.data.trim());
      if (m) term.write('', () => term.resize(Number(m[1]), Number(m[2])));
    }
  }
  await new Promise<void>((r) => term.write('', r));
  term.dispose();
}
