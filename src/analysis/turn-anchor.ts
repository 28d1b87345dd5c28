// A turn's anchor: the person submitted a prompt (Enter, a job's start, a command seen by its result); the turn is
// real once work shows after it. Pure.

/** What showed the turn's work after its prompt, for the record of the decision that followed:
 *  - screen_moved: the screen changed meaningfully after the prompt (a line program's output, a profile's screen);
 *  - own_frames: on an agent's TUI the generic tier reads, a frame the program drew by itself (not a key's echo);
 *  - prompt_taken: on such a TUI, the prompt cleared from the input and shown as a message (a turn that may draw
 *    nothing more until its answer);
 *  - unseen_command: where keys are not seen, a new prompt below the row a command was typed on. */
export type TurnEvidence = 'screen_moved' | 'own_frames' | 'prompt_taken' | 'unseen_command';

export interface Anchor {
  t: number;
  hash: string;
  /** The evidence of work seen after the prompt, null until there is some. */
  evidence: TurnEvidence | null;
  /** The verdict the screen gave when the prompt was submitted: a "ready" that is still this one is stale. */
  baseline: string;
  /** The verdict has differed from the baseline since (a later identical "ready" is then a new one). */
  moved: boolean;
  /** Absolute screen row the prompt was submitted on. */
  row: number | undefined;
  /** The line was a command to the CLI itself (/quit, /help): only a working screen shows a turn, not any redraw. */
  local?: boolean;
}

/** The rule for a turn started by a submitted prompt showing work (Enter, then the screen moved). */
export const ANCHOR_RULE = 'turn.anchor_evidence';
/** The rule for a command seen only by its result: a new prompt below the row it was typed on (no keys seen). */
export const UNSEEN_RULE = 'turn.unseen_submit';

/** An anchor still waiting for its evidence (not a command to the CLI itself, which only a working screen shows). */
export function openAnchor(a: Anchor | null): a is Anchor {
  return a !== null && !a.evidence && !a.local;
}
