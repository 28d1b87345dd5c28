// The vocabulary of analysis: verdicts about one screen, and the signals the analyzer sends the state machine.
import type { ProgramId } from '../config/config.js';

/** `resting`: a full-screen program waiting on the person's keys (a pager, an editor): at rest, not a question, not
 * a finish. */
export type Verdict = 'working' | 'waiting' | 'ready' | 'failed' | 'resting' | 'unknown';

/** What one screen says, and why. `explicit` = a marker that needs no stability window (the program said so). */
export interface Classification {
  verdict: Verdict;
  rule: string;
  line: string;
  explicit: boolean;
  /** A weak wait (a bare "?" or ":" at the cursor) must also wait out the quiet window. */
  weak?: boolean;
  /** Read at a shell/REPL prompt back at the cursor: confirmed by the shorter prompt stability window. */
  atPrompt?: boolean;
  /** A REPL continuation prompt (`... `): input is incomplete, nothing ran. */
  continuation?: boolean;
  /** The rows the verdict was read from (the live edge). */
  liveEdge: string[];
  /** A failure line of this turn the profile read above the row that decided the verdict (Gemini CLI's API error
   * above the spinner of the hooks it runs as the turn ends): what the turn came to once a hook says it ended. */
  failure?: string;
  program: ProgramId;
}

export type Tier = 1 | 2 | 3;
export type SignalType = 'run' | 'done' | 'failed' | 'wait' | 'idle' | 'stall' | 'activity';

export interface Signal {
  t: number;
  type: SignalType;
  tier: Tier;
  rule: string;
  line: string;
  /** The turn's phase and the rule of turn-rules.ts that spoke (`working/turn.ready_held`), when one did. */
  step?: string;
}

/** A signal that was decided but not sent, with the reason (for counters and `make loghook`). */
export interface Suppressed {
  t: number;
  type: SignalType;
  tier: Tier;
  rule: string;
  reason: string;
  /** As Signal.step. */
  step?: string;
}

/** The at-rest/working state the analyzer needs from the machine to decide what a verdict means. */
export type MachineState = 'IDLE' | 'RUNNING' | 'LONG_RUNNING' | 'WAITING_APPROVAL' | 'DONE' | 'FAILED';
