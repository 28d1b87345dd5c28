// xterm's own work done the cheaper ways this screen knows, with the very same buffer left: blank lines made by
// copy (blank-lines.ts, again for the new buffers a reset makes) and line-feed scrolls in a region that reuse the
// line they drop (line-feed-scroll.ts). Shared by the pane's screen and the bench's "fed" terminal, so "vs fed"
// measures the pipeline's own work against the same xterm, not this xterm against a slower one.
import type { IDisposable, Terminal } from '@xterm/headless';
import { copyBlankLines } from './blank-lines.js';
import { recycleRegionScrolls } from './line-feed-scroll.js';
import type { XtermInternals } from './xterm-internals.js';

/** Applies what `internals` reach; the returned disposable stops re-applying after resets. */
export function leanXterm(term: Terminal, internals: XtermInternals): IDisposable {
  if (internals.lineFeeds) recycleRegionScrolls(internals.lineFeeds);
  const buffers = internals.buffers;
  if (!buffers) return { dispose() {} };
  const copy = () => {
    const pair = buffers();
    if (pair) copyBlankLines(pair);
  };
  copy();
  // A reset (RIS) made new buffers: their blank lines are made by copy too (once per buffer).
  return term.buffer.onBufferChange(copy);
}
