// "Needs you", defined once (issue 26 item 7) for the board, `status`, `ack --all` and the notifications: a pane
// needs the person when it asks something (WAITING_APPROVAL), when its work stalled, or when a turn THE PERSON
// STARTED ended (DONE or FAILED) and they have not seen it yet (no ack, no new turn since). Not every end is one:
//  - a program starting up: a command line at the shell that started a REPL, now at its first prompt;
//  - the person's own interrupt: Ctrl-C or Esc they typed in the pane (or sent with `interrupt`), or the
//    program's own "interrupted" line: they know, they did it;
//  - a reconnection: a wrapper coming back or a daemon restart replays the screen, which is no new turn.
// And an end nobody has seen stays unseen across a restart: the stored record's DONE/FAILED (an ack makes it
// IDLE) is carried into the new attachment until it is acked or a new turn begins.
//
// Pure bookkeeping, fed by the pane (LivePane): transitions, the keys typed into it, acks. Times are epoch ms.

import type { MachineState } from '../analysis/types.js';

/** Why a pane needs the person, or why an end does not. */
export type AttentionWhy =
  | 'question' // WAITING_APPROVAL
  | 'stalled' // no output for thresholds.stall_after_s while working
  | 'turn_ended' // a turn the person started ended, unseen
  | 'carried' // an unseen end from before a reconnection or restart
  | 'startup' // a program starting up reached its first prompt: not a turn
  | 'own_interrupt' // the person interrupted it themselves
  | 'reconnected' // the screen replayed after a reconnection: not a turn
  | 'seen' // acknowledged, or nothing ended
  | 'working';

export interface Attention {
  needsYou: boolean;
  why: AttentionWhy;
}

/** A transition as the pane's machine made it (the fields this needs). */
export interface AttentionTransition {
  from: MachineState;
  to: MachineState;
  rule: string;
  stalled: boolean;
  /** Epoch ms. */
  at: number;
}

/** How a stored record left the pane, for the carry-over across a restart. */
export interface CarriedRecord {
  state: MachineState;
  since: number;
}

/** After a reconnection, a turn that begins this soon with no key typed since is the replayed screen being read
 * (a `run` wrapper repaints its screen to a new daemon: read as output, then a prompt), not the person's work.
 * Above the repaint's read and one stability window (~2 s on a loaded machine); below a person's reaction. */
export const RECONNECT_SETTLE_MS = 5000;

/** The rule suffix a REPL's prompt rests with (profiles/shell.ts `repl_prompt`): python >>>, irb, pdb, node >. */
const REPL_PROMPT = '.repl_prompt';
/** The rule suffix of a program's own "interrupted" line (claude, codex, gemini, opencode profiles). */
const INTERRUPTED = '.interrupted';
/** Keys that interrupt: Ctrl-C, and Esc alone (an agent's interrupt; Esc followed by more is an escape sequence). */
const INTERRUPT_KEYS = /\x03|\x1b$/;

const ENDS: ReadonlySet<MachineState> = new Set(['DONE', 'FAILED']);
const WORKING: ReadonlySet<MachineState> = new Set(['RUNNING', 'LONG_RUNNING']);

export class PaneAttention {
  /** The verdict on the latest end (DONE/FAILED) while the pane rests in it; null when not at an end. */
  private end: Attention | null;
  /** When the pane was (re)attached. */
  private readonly attachedAt: number;
  /** The pane was attached before (its screen may be replayed); a new pane's first turn is the person's. */
  private readonly reattached: boolean;
  /** A key was typed (or an action typed one) since attaching: turns from now on are the person's. */
  private keysSinceAttach = false;
  /** A transition was made since attaching: a replay is the first read of the repainted screen, so a turn that
   * begins after the pane already came to a state of its own (a question read again, a rest) is the person's. */
  private movedSinceAttach = false;
  /** The current turn was interrupted by the person (a key or the interrupt action, seen while it ran). */
  private interrupted = false;
  /** The current turn began while the screen was being replayed after a reconnection. */
  private replayTurn = false;
  /** The rule of the rest before the current turn (a shell prompt, a REPL prompt, …). */
  private restRule = '';

  /** `previous`: the stored record of the same pane when this is a reattachment (a restart, a wrapper
   * reconnecting), null for a new pane. */
  constructor(opts: { now: number; previous?: CarriedRecord | null }) {
    this.attachedAt = opts.now;
    const p = opts.previous;
    this.reattached = !!p;
    this.end = p && ENDS.has(p.state) ? { needsYou: true, why: 'carried' } : null;
  }

  /** Keys typed into the pane (the person's, or an action's on their behalf). */
  keys(data: string): void {
    this.keysSinceAttach = true;
    if (INTERRUPT_KEYS.test(data)) this.interrupted = true;
  }

  /** The daemon's own interrupt action (`interrupt`, the board's button): the person asked for it. */
  interruptAction(): void {
    this.keysSinceAttach = true;
    this.interrupted = true;
  }

  /** The person acknowledged the pane. */
  ack(): void {
    if (this.end) this.end = { needsYou: false, why: 'seen' };
  }

  /** Feed each transition in order; returns the verdict on it (for a notification: only `turn_ended`, `question`
   * and `stalled` are news). */
  transition(tr: AttentionTransition): Attention {
    const first = !this.movedSinceAttach;
    this.movedSinceAttach = true;
    if (WORKING.has(tr.to) && !WORKING.has(tr.from)) return this.turnBegins(tr, first);
    if (tr.to === 'WAITING_APPROVAL') return { needsYou: true, why: 'question' };
    if (tr.stalled) return { needsYou: true, why: 'stalled' };
    if (WORKING.has(tr.to)) return { needsYou: false, why: 'working' };
    if (ENDS.has(tr.to)) return this.turnEnds(tr);
    // IDLE: an ack, a reconnection's first read, a program at rest with nothing to report.
    this.restRule = tr.rule;
    if (this.end?.why !== 'carried') this.end = null;
    return this.end ?? { needsYou: false, why: 'seen' };
  }

  /** Whether a pane shown in `state` needs the person now. */
  now(state: MachineState, stalled: boolean): Attention {
    if (state === 'WAITING_APPROVAL') return { needsYou: true, why: 'question' };
    if (stalled) return { needsYou: true, why: 'stalled' };
    if (WORKING.has(state)) return { needsYou: false, why: 'working' };
    return this.end ?? { needsYou: false, why: 'seen' };
  }

  private turnBegins(tr: AttentionTransition, first: boolean): Attention {
    // Keys are not seen in every pane (tmux's are typed in the person's own client): only a reattached pane's
    // first moments are taken for a replay.
    const replay = this.reattached && !this.keysSinceAttach && first && tr.at - this.attachedAt < RECONNECT_SETTLE_MS;
    this.replayTurn = replay;
    this.interrupted = false;
    // A new turn the person began makes the end they had not seen part of the past (they are at the pane).
    if (!replay || this.end?.why !== 'carried') this.end = null;
    return { needsYou: false, why: 'working' };
  }

  private turnEnds(tr: AttentionTransition): Attention {
    const before = this.restRule;
    this.restRule = tr.rule;
    if (this.replayTurn) {
      // The replayed screen settled: what was unseen before stays unseen, and nothing new ended.
      this.replayTurn = false;
      return (this.end = this.end?.why === 'carried' ? this.end : { needsYou: false, why: 'reconnected' });
    }
    if (this.interrupted || tr.rule.endsWith(INTERRUPTED)) return (this.end = { needsYou: false, why: 'own_interrupt' });
    // A command line that started a REPL: its first prompt is the program ready, not an answer.
    if (tr.rule.endsWith(REPL_PROMPT) && !before.endsWith(REPL_PROMPT)) return (this.end = { needsYou: false, why: 'startup' });
    return (this.end = { needsYou: true, why: 'turn_ended' });
  }
}

/** Whether a transition's verdict is worth telling the person about (a notification): a question, a stall, a turn
 * of theirs that ended. A carried end was told before the restart; the others need nobody. */
export function isNews(a: Attention): boolean {
  return a.needsYou && (a.why === 'question' || a.why === 'stalled' || a.why === 'turn_ended');
}
