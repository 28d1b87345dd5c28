// Names the kind of evidence behind a transition, for people: the tier says how much to trust it.
import type { SignalSource } from '../store/records.js';

/** Rules of what a source saw of the pane's processes: `run`'s program (run.*) and a shell's foreground job (job.*). */
const PROCESS_RULE = /^(?:run|job)\./;

export function signalSource(tier: number, rule: string): SignalSource {
  if (tier === 1) return rule.startsWith('hook.') ? 'hook' : PROCESS_RULE.test(rule) ? 'process' : 'in-band';
  if (tier === 2) return 'profile';
  if (tier === 3) return 'heuristic';
  return rule.startsWith('ack.') ? 'user' : 'timer';
}
