// Tier 3 while a turn runs and no profile recognises the screen: whole-word completion tokens at the live edge,
// an interrupt keyword that went away, or quiet with an unknown prompt at the cursor. Pure.
import type { Config } from '../config/config.js';
import { clip, hasWholeWord, lastMatch } from './text.js';

export interface GenericInputs {
  cfg: Config;
  /** Seconds since the last meaningful change (or the submitted prompt, if later). */
  quiet: number;
  /** The cursor row. */
  row: string;
  /** The live edge rows the profile found. */
  liveEdge: readonly string[];
  /** All visible rows (an interrupt hint may sit anywhere on screen). */
  screen: readonly string[];
  /** Esc was pressed during this turn. */
  interruptSeen: boolean;
}

export interface GenericVerdict {
  type: 'done' | 'idle';
  rule: string;
  line: string;
}

export function genericWhileRunning(i: GenericInputs): GenericVerdict | null {
  const th = i.cfg.thresholds;
  const g = i.cfg.patterns.generic;
  // An empty cursor row is a program still working silently (sleep 25 prints nothing): never done, never idle.
  if (!i.row.trim()) return null;
  if (i.quiet >= th.quiet_done_s) {
    const last = i.liveEdge[i.liveEdge.length - 1] ?? '';
    const onRow = hasWholeWord(i.row, g.completion_tokens);
    const token = onRow ?? (last ? hasWholeWord(last, g.completion_tokens) : null);
    const tokenLine = onRow ? i.row : last;
    if (token && !g.negative.some((n) => n.test(tokenLine))) {
      return { type: 'done', rule: `generic.completion_token.${token}`, line: clip(tokenLine) };
    }
    if (i.interruptSeen && !lastMatch(i.screen, g.interrupt)) return { type: 'done', rule: 'generic.interrupt_gone', line: clip(i.row) };
  }
  // Quiet with something at the cursor that is not a known prompt: at rest in a program we do not know.
  if (i.quiet >= th.quiet_idle_s && !g.spinner.some((s) => s.test(i.row))) {
    return { type: 'idle', rule: 'generic.quiet_idle', line: clip(i.row) };
  }
  return null;
}
