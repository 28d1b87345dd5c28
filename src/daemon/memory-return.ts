// Gives memory back after a storm. V8 grows its heap for a burst (500 panes joining at once, a flood of output)
// and, once the burst is garbage, collects it but keeps the pages until a full collection that shrinks the heap,
// which a daemon whose panes keep allocating a little may not run for a long time: RSS stayed at 1.9-2.8 times its
// start a minute after the hostile bench's storms (the heap in use was back to its start). Every CHECK_EVERY_MS the
// daemon looks at its heap; when most of it is empty (more than SLACK_BYTES and more than half), or when the heap in
// use has grown past what the last full collection left by more than SLACK_BYTES and half again (a storm's garbage
// moved to the old generation counts as in use until a full collection runs, and a quiet daemon may not run one
// for a long time: the heap read 198 MB in use a minute after the storms, 38 MB once collected), it asks V8 for a
// full collection, run as a task (`gc({type: 'major', execution: 'async'})`), at most once per MIN_GAP_MS. A heap
// mostly empty is collected with flavor 'last-resort' (V8's collection that reduces its footprint): after a major
// collection V8 still kept the freed pages in its pool (the hostile bench: 48 MB in use of 190 MB, RSS 335 MB
// against 132 MB at the start); that one gives them back to the system (in a test, RSS 922 MB → 114 MB). It is a
// few passes at once, so only for a heap mostly empty (also right after a collection that left it so), never for one
// merely grown. V8's `gc` is reached through the --expose-gc flag set at run time (v8.setFlagsFromString and a fresh
// context, where the flag makes it appear); where that fails, nothing is done.
// V8's collections free the ArrayBuffers (every xterm line's cells) through the C library, which keeps the freed
// memory resident: at each check, once malloc holds MALLOC_SLACK_BYTES more free than after the last trim, it is
// given back (malloc-trim.ts).
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { MallocTrim } from './malloc-trim.js';

/** How often the heap is looked at (ms). */
const CHECK_EVERY_MS = 10_000;
/** Empty heap beyond which a collection is worth asking for (bytes): a quiet daemon's slack is a few MB. */
const SLACK_BYTES = 32 << 20;
/** At most one asked-for collection per this long (ms): a storm that goes on is not chased. */
const MIN_GAP_MS = 30_000;
/** Growth of the heap in use over what the last full collection left, as a share of it, beyond which (and beyond
 * SLACK_BYTES) a collection is asked for: live data that grows by itself (more panes) is not collected often. */
const GROWTH_SHARE = 0.5;
/** No collection is asked for while the thread was busier than this since the last check (its event-loop
 * utilisation): a forced collection stops the thread (125 ms with 500 panes joining), which a storm's other panes
 * and the API would wait for; V8 collects by itself while busy, and a quiet turn comes after. */
const BUSY_SHARE = 0.5;

/** Free malloc memory gained since the last trim beyond which a trim is worth it (bytes). A trim takes about a
 * millisecond; this keeps it to after a burst (88 MB free a minute after the hostile bench's storms), not every
 * check of a daemon whose panes allocate a little. At 32 MB the storms' last 30 MB, freed after the trim, stayed. */
const MALLOC_SLACK_BYTES = 8 << 20;

type Gc = (o?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => unknown;

function exposeGc(): Gc | null {
  try {
    // V8's memory reducer runs up to three full collections once the daemon idles after a burst; one shrinks the
    // heap (in the tmux bench, 65 → 31 MB), the others cost 10-30 ms each of the thread and as much of V8's
    // workers, and whatever is left is this module's to give back.
    setFlagsFromString('--memory-reducer-single-gc');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as Gc) : null;
  } catch {
    return null;
  }
}

/** Which full collection is worth asking for: 'shrink' when most of the heap is empty (its pages go back to the
 * system), 'collect' when the heap in use has grown well past `floor`, what the last full collection left (bytes). */
export function worthCollecting(heap: { heapTotal: number; heapUsed: number }, floor: number): 'shrink' | 'collect' | null {
  const slack = heap.heapTotal - heap.heapUsed;
  if (slack >= SLACK_BYTES && slack >= heap.heapTotal / 2) return 'shrink';
  if (heap.heapUsed - floor >= SLACK_BYTES && heap.heapUsed - floor >= floor * GROWTH_SHARE) return 'collect';
  return null;
}

/** What a collection that took the heap in use from `before` to `after` says of the live heap (bytes): it freed
 * little, so the heap has grown for real (the floor rises to it, and it is not chased); it freed much, so the floor
 * stays at the lowest seen. A collection during a storm (500 panes joining, still open) left 130 MB in use: taken
 * as the floor, the same panes' garbage once they had closed (135 MB in use, 33 MB once collected) was never asked
 * for. */
export function nextFloor(floor: number, before: number, after: number): number {
  return before - after < SLACK_BYTES ? after : Math.min(floor, after);
}

/** Whether malloc's free memory has grown enough since the last trim (`base`: what it held free then, lowered as
 * that memory is used again) to give it back. */
export function worthTrimming(free: number, base: number): boolean {
  return free >= 0 && free - base >= MALLOC_SLACK_BYTES;
}

export interface MemoryReturnStats {
  collections: number;
  trims: number;
}

export interface MemoryReturnOptions {
  /** After an asked-for collection: how much smaller the heap is (bytes). */
  onCollect?: (freedBytes: number) => void;
  /** After a trim: how much free malloc memory it was given (bytes) and how long it took (ms). */
  onTrim?: (freeBytes: number, ms: number) => void;
  /** The native helper (null: no trims). */
  malloc?: MallocTrim | null;
}

/** Starts the check; returns its stop, its count of collections asked for, and forget(): something live at the last
 * collection is garbage now (a pane closed: its terminal and screen), so what that collection left is no floor. */
export function startMemoryReturn(o: MemoryReturnOptions = {}): { stop(): void; forget(): void; stats: MemoryReturnStats } {
  const stats: MemoryReturnStats = { collections: 0, trims: 0 };
  const gc = exposeGc();
  const malloc = o.malloc ?? null;
  if (!gc && !malloc) return { stop() {}, forget() {}, stats };
  let mallocBase = malloc?.freeBytes() ?? -1;
  let last = -Infinity;
  /** The heap in use after the last collection asked for (at first, at the start), and the lowest of those. */
  let floor = process.memoryUsage().heapUsed;
  let lowest = floor;
  let loop: EventLoopUtilization = performance.eventLoopUtilization();
  /** The last check found the heap mostly empty and left it to V8's memory reducer, which shrinks the heap of a
   * daemon that idles after a burst 8 s after its last full collection: collecting it here too doubled the work
   * (50 idle tmux panes: 0.53-0.6% of a core in the tmux bench's idle window, the collections included). A heap
   * still mostly empty at the next check (the daemon did not idle) is shrunk here. */
  let leftToV8 = false;
  const timer = setInterval(() => {
    const { heapTotal, heapUsed } = process.memoryUsage();
    const now = Date.now();
    const busy = performance.eventLoopUtilization(loop);
    loop = performance.eventLoopUtilization();
    if (busy.utilization > BUSY_SHARE) return;
    if (malloc) {
      const free = malloc.freeBytes();
      if (worthTrimming(free, mallocBase)) {
        const t0 = performance.now();
        malloc.trim();
        stats.trims++;
        o.onTrim?.(free - mallocBase, performance.now() - t0);
        mallocBase = free;
      } else mallocBase = Math.min(mallocBase, free);
    }
    if (!gc) return;
    const worth = worthCollecting({ heapTotal, heapUsed }, floor);
    const leave = worth === 'shrink' && !leftToV8;
    leftToV8 = leave;
    if (!worth || leave || now - last < MIN_GAP_MS) return;
    last = now;
    stats.collections++;
    const collect = (flavor: 'regular' | 'last-resort') => Promise.resolve(gc({ type: 'major', execution: 'async', flavor }));
    void collect(worth === 'shrink' ? 'last-resort' : 'regular').then(async () => {
      let after = process.memoryUsage();
      // The collection showed the heap mostly empty (a storm's garbage): its pages go back now, not a gap later.
      if (worth === 'collect' && worthCollecting(after, after.heapUsed) === 'shrink') {
        await collect('last-resort');
        after = process.memoryUsage();
      }
      floor = nextFloor(floor, heapUsed, after.heapUsed);
      lowest = Math.min(lowest, after.heapUsed);
      o.onCollect?.(heapTotal - after.heapTotal);
    });
  }, CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), forget: () => void (floor = lowest), stats };
}
