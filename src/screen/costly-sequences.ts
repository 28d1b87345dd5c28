// The sequences whose cost grows with the pane rather than with their bytes, each a point where a long parse
// yields the thread (ParseBudget). Measured in a real @xterm/headless 5.5 on a 1000x1000 pane (the largest a
// source may set), per sequence: ED `ESC[2J` / DECSED 2 ms, DECALN `ESC#8` 2 ms, alternate screen on+off 3.5 ms,
// RIS `ESC c` 3.8 ms, DECIC/DECDC 1.8 ms, RI at the top 14 µs; the looping CSIs (clamped to the pane, see
// csi-clamp.ts) up to 15 ms. A 4 KB write of `ESC[2J` alone was 2 s of parsing with no chance for I/O.
// Everything else costs at most a few µs per byte (line feeds scrolling 1000 columns: 2.3 µs) and is bounded by
// cutting writes (MAX_WRITE_PIECE in write-pump.ts).
import type { IDisposable } from '@xterm/headless';
import type { ParseBudget } from './parse-budget.js';
import type { CsiParams } from './csi-clamp.js';

export interface SequenceId {
  prefix?: string;
  intermediates?: string;
  final: string;
}

/** Registration on xterm's core (internal API of @xterm/headless 5.5: the public wrapper drops a handler's Promise
 * from its typing and copies the parameters into arrays on every call). */
export interface CoreHandlers {
  registerCsiHandler(id: SequenceId, cb: (params: CsiParams) => boolean | Promise<boolean>): IDisposable;
  registerEscHandler(id: SequenceId, cb: () => boolean | Promise<boolean>): IDisposable;
}

/** CSIs that touch the whole screen: erase in display (and its selective form), insert/delete columns, and the
 * private modes (alternate screen 47/1047/1049 copies or clears a screenful). */
export const COSTLY_CSI: readonly SequenceId[] = [
  { final: 'J' },
  { prefix: '?', final: 'J' },
  { intermediates: "'", final: '}' },
  { intermediates: "'", final: '~' },
  { prefix: '?', final: 'h' },
  { prefix: '?', final: 'l' },
];

/** ESC sequences that touch the whole screen: DECALN fills it, RIS rebuilds the terminal, RI scrolls it down. */
export const COSTLY_ESC: readonly SequenceId[] = [{ intermediates: '#', final: '8' }, { final: 'c' }, { final: 'M' }];

/** Registers the budget check before xterm's own handler of each costly sequence. */
export function yieldOnCostly(core: CoreHandlers, budget: ParseBudget): IDisposable[] {
  return [...COSTLY_CSI.map((id) => core.registerCsiHandler(id, budget.check)), ...COSTLY_ESC.map((id) => core.registerEscHandler(id, budget.check))];
}
