// Gives memory back after a storm. V8 grows its heap for a burst (500 panes joining at once, a flood of output)
// and, once the burst is garbage, collects it but keeps the pages until a full collection that shrinks the heap,
// which a daemon whose panes keep allocating a little may not run for a long time: RSS stayed at 1.9-2.8 times its
// start a minute after the hostile bench's storms (the heap in use was back to its start). Every CHECK_EVERY_MS the
// daemon looks at its heap; when most of it is empty (more than SLACK_BYTES and more than half), it asks V8 for a
// full collection, done concurrently (`gc({type: 'major', execution: 'async'})`, not a stop-the-world one), at most
// once per MIN_GAP_MS. V8's `gc` is reached through the --expose-gc flag set at run time (v8.setFlagsFromString and
// a fresh context, where the flag makes it appear); where that fails, nothing is done.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the heap is looked at (ms). */
const CHECK_EVERY_MS = 10_000;
/** Empty heap beyond which a collection is worth asking for (bytes): a quiet daemon's slack is a few MB. */
const SLACK_BYTES = 32 << 20;
/** At most one asked-for collection per this long (ms): a storm that goes on is not chased. */
const MIN_GAP_MS = 30_000;

type Gc = (o?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async' }) => unknown;

function exposeGc(): Gc | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as Gc) : null;
  } catch {
    return null;
  }
}

export interface MemoryReturnStats {
  collections: number;
}

/** Starts the check; returns its stop and its count of collections asked for. */
export function startMemoryReturn(onCollect?: (freedBytes: number) => void): { stop(): void; stats: MemoryReturnStats } {
  const stats: MemoryReturnStats = { collections: 0 };
  const gc = exposeGc();
  if (!gc) return { stop() {}, stats };
  let last = -Infinity;
  const timer = setInterval(() => {
    const { heapTotal, heapUsed } = process.memoryUsage();
    const slack = heapTotal - heapUsed;
    const now = Date.now();
    if (slack < SLACK_BYTES || slack < heapTotal / 2 || now - last < MIN_GAP_MS) return;
    last = now;
    stats.collections++;
    void Promise.resolve(gc({ type: 'major', execution: 'async' })).then(() => onCollect?.(heapTotal - process.memoryUsage().heapTotal));
  }, CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), stats };
}
