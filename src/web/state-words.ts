// How a pane's state reads in words and glyphs, shared by the dashboard (web/src) and the CLI (`status`): one
// icon per state so state never rests on colour alone, and one way to say how long ago.
import type { MachineState } from '../analysis/types.js';

export const STATES: MachineState[] = ['IDLE', 'RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL', 'DONE', 'FAILED'];

export const STATE_ICON: Record<MachineState, string> = {
  IDLE: '○',
  RUNNING: '◐',
  LONG_RUNNING: '◕',
  WAITING_APPROVAL: '?',
  DONE: '✓',
  FAILED: '✗',
};
export const STALL_ICON = '⚠';
/** Said beside a DONE read from a shell's screen, whose command's success is not known (PaneView.exitCodeUnknown). */
export const EXIT_CODE_UNKNOWN = 'exit codes unknown: install shell integration';

/** "4s", "3m 07s", "2h 05m", "3d 4h": coarse enough to read at a glance. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
