// The analyzer's bookkeeping of what it decided: when each signal type last fired (debounce), counters by tier,
// rule and reason, and the last suppressed decisions with their reasons (for `make loghook` and metrics). Pure.
import type { MachineState, SignalType, Suppressed, Tier } from './types.js';

/** Suppressed decisions kept for inspection (a ring: the oldest goes first). */
const SUPPRESSED_KEPT = 64;

export class SignalLedger {
  readonly suppressed: Suppressed[] = [];
  /** Counters of signals fired and suppressed, by tier, rule and reason. */
  readonly counters = new Map<string, number>();
  private readonly lastFired = new Map<SignalType, number>();

  fired(t: number, type: SignalType, tier: Tier, rule: string): void {
    this.lastFired.set(type, t);
    this.count(`fired.tier${tier}.${type}.${rule}`);
  }

  /** When a signal of this type last fired (-Infinity: never). */
  lastFiredAt(type: SignalType): number {
    return this.lastFired.get(type) ?? -Infinity;
  }

  suppress(t: number, type: SignalType, tier: Tier, rule: string, reason: string, step?: string): void {
    this.count(`suppressed.tier${tier}.${type}.${reason}`);
    if (this.suppressed.length >= SUPPRESSED_KEPT) this.suppressed.shift();
    this.suppressed.push(step ? { t, type, tier, rule, reason, step } : { t, type, tier, rule, reason });
  }

  count(key: string): void {
    this.counters.set(key, (this.counters.get(key) ?? 0) + 1);
  }
}

/** What a signal would do to the state (null = meaningless here and not worth sending). */
export function targetState(type: SignalType, state: MachineState): MachineState | null {
  const running = state === 'RUNNING' || state === 'LONG_RUNNING';
  switch (type) {
    case 'run':
      return running ? null : 'RUNNING';
    case 'done':
      return state === 'DONE' ? null : 'DONE';
    case 'failed':
      return state === 'FAILED' ? null : 'FAILED';
    case 'wait':
      return state === 'WAITING_APPROVAL' ? null : 'WAITING_APPROVAL';
    case 'idle':
      return 'IDLE'; // also re-emitted while IDLE (no transition, but counted)
    case 'stall':
    case 'activity':
      return running ? state : null;
  }
}
