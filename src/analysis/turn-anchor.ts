// A turn's anchor: the person submitted a prompt (Enter, a job's start, a command seen by its result); the turn is
// real once work shows after it. Pure.

export interface Anchor {
  t: number;
  hash: string;
  evidence: boolean;
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
