// The gates every decision of the turn's rules passes before it is sent: named, in order; the first that blocks
// keeps the signal back and is recorded as the suppression's reason (counters, `make loghook`). Pure.
import type { Classification, SignalType, Tier } from './types.js';
import { ANCHOR_RULE } from './turn-anchor.js';

/** What the gates read, besides the signal itself. */
export interface GateView {
  readonly t: number;
  readonly cls: Classification;
  readonly debounceS: number;
  /** Tier 1 spoke recently and the screen stands down (unless the person answered the question the pane waits on
   * and the screen plainly shows what came of it: a hook from before the answer is stale). Read at the start. */
  readonly tier1Silence: boolean;
  /** The foreground job is one the job gate keeps the generic tier off (read at the start). */
  readonly jobGated: boolean;
  /** A command Tier 1 started is running. */
  commandRunning(): boolean;
  /** An agent's hooks have spoken this turn. */
  hookSpoke(): boolean;
  /** The screen's failure is this turn's (not one already on screen when the prompt was submitted). */
  freshFailure(): boolean;
  /** The running command's end will be reported for certain (a shell's mark). */
  endAssured(): boolean;
  /** A line editor reads the person's input (bracketed paste on), or a full-screen program holds the screen. */
  ownPromptOrFullscreen(): boolean;
  /** The pane waits on a question the person answered by submitting a prompt. */
  personAnswered(): boolean;
  lastFiredAt(type: SignalType): number;
}

export interface Gate {
  readonly reason: string;
  readonly blocks: (g: GateView, type: SignalType, tier: Tier, rule: string) => boolean;
}

export const TURN_GATES: readonly Gate[] = [
  {
    // Tier 1 speaks, and the screen stands down. A menu on screen is a fact no Tier 1 silence can hide, and so is a
    // question (or its answer) while a command Tier 1 started runs, and this turn's failure shown plainly while hooks
    // speak (they report no API error); an end, or anything else, waits for Tier 1 to fall quiet.
    reason: 'prompt_silence_gate',
    blocks: (g, type) =>
      g.tier1Silence &&
      !(type === 'wait' && g.cls.explicit) &&
      !(type === 'failed' && g.hookSpoke() && g.freshFailure()) &&
      !(g.commandRunning() && (type === 'wait' || type === 'run')),
  },
  {
    // A command whose end is reported for certain ends by that report, not by a screen's guess: unless it turned out
    // to read the person's input at a prompt of its own (a line editor) or to be a full-screen program.
    reason: 'command_running',
    blocks: (g, type) => g.endAssured() && (type === 'done' || type === 'failed' || type === 'idle') && !g.ownPromptOrFullscreen(),
  },
  { reason: 'job_gate', blocks: (g, _type, tier) => g.jobGated && tier === 3 },
  {
    // Debounce guards heuristics that a redraw can re-trigger; a turn the person submitted (Enter) is not one, nor is
    // the work that follows their answer to a question (however soon after the turn's start they answered).
    reason: 'debounce',
    blocks: (g, type, tier, rule) => tier === 3 && rule !== ANCHOR_RULE && !g.personAnswered() && g.t - g.lastFiredAt(type) < g.debounceS,
  },
];

/** The first gate that blocks this signal (its reason), or null: it may be sent. */
export function gateFor(g: GateView, type: SignalType, tier: Tier, rule: string): string | null {
  for (const gate of TURN_GATES) if (gate.blocks(g, type, tier, rule)) return gate.reason;
  return null;
}
