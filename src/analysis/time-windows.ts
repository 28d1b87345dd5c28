// When the passing of time alone can change a pane's decision: the quiet, stability, re-emit, title-animation and
// Tier 1 silence windows. A pane whose windows are all closed costs nothing until its next deadline. Pure.
import type { Config } from '../config/config.js';
import type { Classification, MachineState } from './types.js';

export type Phase = 'rest' | 'running' | 'waiting';

export function phaseOf(state: MachineState): Phase {
  switch (state) {
    case 'RUNNING':
    case 'LONG_RUNNING':
      return 'running';
    case 'WAITING_APPROVAL':
      return 'waiting';
    default:
      return 'rest';
  }
}

/** The moments the windows are measured from, and what is pending on them. */
export interface WindowState {
  state: MachineState;
  lastMeaningfulAt: number;
  lastIdleEmit: number;
  lastTitleChange: number | undefined;
  tier1LastAt: number;
  /** A ready/failed verdict is waiting out its stability window. */
  candidate: boolean;
  /** Since when a waiting / working verdict has held (null: it does not). */
  waitSince: number | null;
  workingSince: number | null;
  stalled: boolean;
  cls: Classification | null;
  /** When a full-screen program's mode (animating, resting) can next change by time alone. */
  fullscreenAt: number;
  /** That mode has changed since the screen was last classified. */
  fullscreenStale: boolean;
}

/** The earliest time at which a quiet window can close by itself (Infinity if none is running). */
export function nextDeadline(th: Config['thresholds'], w: WindowState, t: number): number {
  // Asked after every tick: no array of marks (nor a closure), just the earliest one still ahead.
  let next = Infinity;
  next = earliestAhead(next, w.lastMeaningfulAt + th.quiet_done_s, t);
  next = earliestAhead(next, w.lastMeaningfulAt + th.quiet_idle_s, t);
  next = earliestAhead(next, w.lastMeaningfulAt + th.stall_after_s, t);
  next = earliestAhead(next, Math.max(w.lastMeaningfulAt, w.lastIdleEmit) + th.idle_reemit_s, t);
  if (w.lastTitleChange !== undefined) next = earliestAhead(next, w.lastTitleChange + th.title_animation_s, t);
  next = earliestAhead(next, w.tier1LastAt + th.prompt_silence_s, t);
  next = earliestAhead(next, w.fullscreenAt, t);
  return next;
}

/** `m` if it is after `t` and before `next`, else `next`. */
function earliestAhead(next: number, m: number, t: number): number {
  return m > t && m < next ? m : next;
}

/** Whether the passing of time alone could change a decision now; a tick is skipped otherwise. */
export function timeMatters(th: Config['thresholds'], w: WindowState, t: number): boolean {
  const phase = phaseOf(w.state);
  if (w.candidate) return true;
  // A full-screen program's mode changed (its own frames stopped, or came back): read the screen again.
  if (w.fullscreenStale) return true;
  if (w.waitSince !== null && phase !== 'waiting') return true;
  if (w.workingSince !== null && phase === 'rest') return true;
  const quiet = t - w.lastMeaningfulAt;
  const verdict = w.cls?.verdict;
  if (phase === 'running') {
    if (quiet >= th.stall_after_s && !w.stalled) return true;
    // (an agent's TUI whose frames stopped after a turn that only showed a frame or two ends on quiet too)
    if ((verdict === 'unknown' || verdict === 'resting') && quiet >= Math.min(th.quiet_done_s, th.quiet_idle_s)) return true;
  }
  // The idle re-emit is due once per window, not on every tick after the first one.
  if (w.state === 'IDLE' && quiet >= th.idle_reemit_s && t - w.lastIdleEmit >= th.idle_reemit_s) return true;
  // A title animation stopping can turn "working" (read from the title alone) into something else.
  const titleDecides = verdict !== 'working' || (w.cls?.rule.endsWith('title_spinner') ?? false);
  if (titleDecides && w.lastTitleChange !== undefined && t - w.lastTitleChange <= th.title_animation_s + th.tick_s) return true;
  return t - w.tier1LastAt <= th.prompt_silence_s + th.tick_s;
}
