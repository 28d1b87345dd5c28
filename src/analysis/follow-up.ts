// A message the person queued while a turn ran (Codex's "Queued follow-up inputs", Gemini CLI's "Queued (press ↑
// to edit)"): the agent sends it by itself the moment the turn ends, so that end is not a finish. A DONE decided
// while such a message waits is held for `queued_follow_up_s` and dropped once the queued turn works (the queued
// block gone from the screen); only if none does is it said, late. The turn's end has two witnesses (a hook, the
// screen) which may come in either order and a little late: one heard within `queued_late_end_s` of the queued
// message going out is that same end. Pure: the analyzer hosts it.
import type { Config, ProgramId } from '../config/config.js';
import type { MachineState, Tier } from './types.js';
import { testRow } from './text.js';

export interface HeldDone {
  t: number;
  tier: Tier;
  rule: string;
  line: string;
}

/** The patterns of the program's queued-message block: an agent profile's own, the generic tier's shape for a program
 * without one, none for a shell. */
function queuedPatterns(cfg: Config, program: ProgramId): readonly RegExp[] {
  switch (program) {
    case 'codex':
      return cfg.patterns.codex.queued;
    case 'gemini':
      return cfg.patterns.gemini.queued;
    case 'qwen':
      return cfg.patterns.qwen.queued;
    case 'generic':
      return cfg.patterns.generic.queued;
    default:
      return [];
  }
}

/** The queued-message marker on screen (its row), or null. */
export function queuedMarker(cfg: Config, program: ProgramId, lines: readonly string[]): string | null {
  const res = queuedPatterns(cfg, program);
  if (res.length === 0) return null;
  // Remembered per row text (testRow): a turn's screen is read again and again with most of its rows unchanged.
  // Plain loops: this runs on every read of a turn's screen, and a closure per row was most of its garbage.
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    for (let k = 0; k < res.length; k++) if (testRow(res[k]!, line)) return line;
  }
  return null;
}

export class FollowUp {
  /** A queued message was on screen during this turn and no turn end has been held for it yet. */
  private pending = false;
  /** The queued block is on screen now. */
  private onScreen = false;
  private held: HeldDone | null = null;
  /** When the queued block last left the screen during a turn: the queued message went out then. */
  private sentAt = -Infinity;
  /** A held end was dropped for the queued turn's work: its other witness (a hook heard late) may still come. */
  private witnessOwed = false;
  /** When the pane last became DONE (a queued turn may start right after it: see justDone). */
  private doneAt = -Infinity;

  constructor(
    private readonly windowS: number,
    private readonly lateS: number,
  ) {}

  /** The screen was read during a turn: does it show a queued message? */
  noteScreen(t: number, queued: boolean): void {
    if (this.onScreen && !queued) this.sentAt = t;
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
      this.sentAt = -Infinity;
      this.witnessOwed = false;
    }
  }

  /** A DONE is about to be said: true when it is held instead (one queued message accounts for one turn end, which
   * may be told while its block is shown or, a little late, just after the message went out). */
  hold(done: HeldDone): boolean {
    if (this.held) return true;
    if (this.witnessOwed && done.t - this.sentAt <= this.lateS) {
      this.witnessOwed = false;
      return true;
    }
    if (!this.pending) return false;
    this.pending = false;
    // The queued message went out long before this end with none told in between: this is the queued turn's own.
    if (!this.onScreen && done.t - this.sentAt > this.lateS) return false;
    this.held = done;
    return true;
  }

  get holding(): boolean {
    return this.held !== null;
  }

  /** Work showed (a working screen, a Tier 1 "run"). With the queued block gone it is the queued turn: a held DONE
   * is dropped. With the block still shown, a DONE read from the screen was a moment's ready look of the same turn;
   * a hook's stays held (the screen keeps the old spinner while the agent runs that hook). */
  work(): void {
    const h = this.held;
    if (!h) return;
    if (!this.onScreen) {
      this.held = null;
      this.witnessOwed = true;
    } else if (h.tier !== 1) {
      this.held = null;
      this.pending = true;
    }
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

  /** An agent that queues messages became DONE within the window: work now is a queued turn it sent by itself (no
   * key). A shell's screen right after a command (a hang-up, a stray newline) is no such thing. */
  justDone(t: number, state: MachineState, cfg: Config, program: ProgramId): boolean {
    if (state !== 'DONE' || t - this.doneAt > this.windowS || queuedPatterns(cfg, program).length === 0) return false;
    // The generic tier's shape is no profile's certainty: the queued block must have been seen going out.
    return program !== 'generic' || this.onScreen || t - this.sentAt <= this.windowS;
  }
}
