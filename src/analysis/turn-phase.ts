// The turn, as the analyzer follows it: one person's prompt and what the program made of it. Pure.
//
//   over ──Enter / a job starts──▶ armed ──evidence of work──▶ working ⇄ asking (a question, then its answer)
//     ▲                              │                            │
//     │                              └── no evidence in time ─────┤ (the anchor lapses: over again)
//     │                                                           ▼
//     └──────── DONE / FAILED / at rest ◀── settling (a ready or failed screen holding still, retracted by a change)
//
// The phase is read from the facts that move it (the machine's state, the turn's anchor, the stability window), so
// it can never disagree with them; the rules that decide in each phase are turn-rules.ts's.
import type { Phase } from './time-windows.js';

export type TurnPhase = 'over' | 'armed' | 'working' | 'asking' | 'settling';

export const TURN_PHASES: readonly TurnPhase[] = ['over', 'armed', 'working', 'asking', 'settling'];

/** The turn's phase. `phase`: the machine's (rest, running, waiting); `anchored`: a prompt was submitted and its turn
 * has not ended; `settling`: a ready or failed screen is holding through its stability window. */
export function turnPhase(phase: Phase, anchored: boolean, settling: boolean): TurnPhase {
  if (phase === 'waiting') return 'asking';
  if (phase === 'running') return settling ? 'settling' : 'working';
  return anchored ? 'armed' : 'over';
}
