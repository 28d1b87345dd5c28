// Who hears one pane: its published transitions, the analyzer's signals, its coalesced screen reads and the marks
// it ignored. A listener that throws is reported as the pane's fault and the others still hear: they run inside
// xterm's parser callbacks and the state machine's actions, which an escaping exception would stop for good.
import type { Signal } from '../analysis/types.js';
import type { MarkRefusal } from '../analysis/mark-gate.js';
import type { Transition } from '../state/pane-machine.js';
import type { InBandSignal } from '../screen/types.js';
import type { FaultTracker } from './pane-fault.js';

export type TransitionListener = (tr: Transition) => void;
export type SignalListener = (sig: Signal) => void;
/** A mark ignored as forged or out of order (src/analysis/mark-gate.ts), with the cursor row it came on. */
export interface IgnoredMark {
  t: number;
  signal: InBandSignal;
  line: string;
  reason: MarkRefusal;
}
export type IgnoredMarkListener = (m: IgnoredMark) => void;

/** The most recent transitions a pane keeps for whoever asks later (the rest are in the store). */
const KEPT_TRANSITIONS = 512;

export class PaneListeners {
  /** The pane's latest published transitions, oldest first. */
  readonly transitions: Transition[] = [];
  readonly transition: TransitionListener[] = [];
  readonly signal: SignalListener[] = [];
  readonly change: Array<() => void> = [];
  readonly ignored: IgnoredMarkListener[] = [];

  constructor(private readonly faults: FaultTracker) {}

  /** A signal about to reach the state machine (the caller has set the fault stage). */
  heardSignal(s: Signal): void {
    for (const l of this.signal) {
      try {
        l(s);
      } catch (e) {
        this.faults.report(e);
      }
    }
  }

  /** A transition that leaves the pane: kept, and delivered inside the machine's action. */
  published(tr: Transition): void {
    this.transitions.push(tr);
    if (this.transitions.length > KEPT_TRANSITIONS) this.transitions.splice(0, this.transitions.length - KEPT_TRANSITIONS);
    for (const l of this.transition) {
      try {
        l(tr);
      } catch (e) {
        this.faults.report(e, 'state');
      }
    }
  }

  screenRead(): void {
    for (const l of this.change) l();
  }

  markIgnored(m: IgnoredMark): void {
    for (const l of this.ignored) l(m);
  }
}
