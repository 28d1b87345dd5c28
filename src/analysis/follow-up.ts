// A message the person queued while a turn ran (Codex's "Queued follow-up inputs", Gemini CLI's "Queued (press ↑
// to edit)"): the agent sends it by itself the moment the turn ends, so that end is not a finish. A DONE decided
// while such a message waits is held for `queued_follow_up_s`; work showing again within it (the queued turn
// starting) drops it, and only if none does is it said, late. Pure: the analyzer hosts it.
import type { Config, ProgramId } from '../config/config.js';
import type { MachineState, Tier } from './types.js';

export interface HeldDone {
  t: number;
  tier: Tier;
  rule: string;
  line: string;
}

/** The queued-message marker on screen (its row), or null; only agents whose profile knows one have it. */
export function queuedMarker(cfg: Config, program: ProgramId, lines: readonly string[]): string | null {
  const res = program === 'codex' ? cfg.patterns.codex.queued : program === 'gemini' ? cfg.patterns.gemini.queued : null;
  if (!res || res.length === 0) return null;
  for (const line of lines) if (res.some((re) => re.test(line))) return line;
  return null;
}

export class FollowUp {
  /** A queued message was on screen during this turn and no turn end has been held for it yet. */
  private pending = false;
  /** The queued block is on screen now. */
  private onScreen = false;
  private held: HeldDone | null = null;
  /** A held DONE that the queued turn's work made moot: the other witness of that same end (a hook arriving late,
   * after the screen showed it) may still come. */
  private passed: HeldDone | null = null;
  /** When the pane last became DONE (a queued turn may start right after it: see justDone). */
  private doneAt = -Infinity;

  constructor(private readonly windowS: number) {}

  /** The screen was read during a turn: does it show a queued message? */
  noteScreen(queued: boolean): void {
    this.onScreen = queued;
    if (queued) this.pending = true;
  }

  /** The machine's state changed. A turn that is over (at rest, or at a question) has no follow-up to wait for. */
  noteState(t: number, state: MachineState): void {
    if (state === 'DONE') this.doneAt = t;
    if (state !== 'RUNNING' && state !== 'LONG_RUNNING') {
      this.pending = false;
      this.onScreen = false;
      this.held = null;
      this.passed = null;
    }
  }

  /** A DONE is about to be said: true when it is held instead (a queued message waits to be sent). One queued
   * message accounts for one turn end. */
  hold(done: HeldDone): boolean {
    if (this.held) return true;
    const p = this.passed;
    if (p && done.tier !== p.tier && done.t - p.t <= this.windowS) {
      this.passed = null;
      return true; // the end already held and passed, told again by its other witness
    }
    if (!this.pending) return false;
    this.pending = false;
    this.held = done;
    return true;
  }

  get holding(): boolean {
    return this.held !== null;
  }

  /** Work showed (a working screen, a Tier 1 "run"): a held DONE was the queued turn starting, or, while the queued
   * block is still on screen, a moment's ready look of the same turn (its real end is still to come). */
  work(): void {
    if (!this.held) return;
    if (this.onScreen) this.pending = true;
    else this.passed = this.held;
    this.held = null;
  }

  /** The held DONE, once its window has passed with no work: the queued message was not sent after all. */
  due(t: number): HeldDone | null {
    const h = this.held;
    if (!h || t - h.t < this.windowS) return null;
    this.held = null;
    return h;
  }

  get deadline(): number {
    return this.held ? this.held.t + this.windowS : Infinity;
  }

  /** The pane became DONE within the window: work now is a queued turn the agent sent by itself (no key). */
  justDone(t: number, state: MachineState): boolean {
    return state === 'DONE' && t - this.doneAt <= this.windowS;
  }
}
