// The vocabulary of notifications: what the daemon hands the Notifier, and what a channel delivers.

/** The states worth telling a person about (config `notify.states` holds a subset). */
export type NotifyKind = 'WAITING_APPROVAL' | 'FAILED' | 'STALLED' | 'DONE' | 'TASK_FINISHED' | 'TASK_NEEDS_YOU';

export const NOTIFY_KINDS: readonly NotifyKind[] = ['WAITING_APPROVAL', 'FAILED', 'STALLED', 'DONE', 'TASK_FINISHED', 'TASK_NEEDS_YOU'];

/** One state a pane entered, as the daemon saw it. */
export interface NotifyEvent {
  paneId: string;
  paneName: string;
  /** The profile reading the pane: claude | codex | gemini | qwen | shell | generic. */
  program: string;
  kind: NotifyKind;
  /** Epoch milliseconds. */
  at: number;
  tier: number;
  rule: string;
  /** The screen line the rule matched (raw: redacted and cut before it reaches any channel). */
  line: string;
  /** How long the turn that just ended took, when known. */
  turnDurationS: number | null;
  /** What de-duplication and the rate limit count by (default the pane): a task's end is not muted by its
   * pane's last DONE a second earlier. */
  key?: string;
}

/** The event for a transition `rec` of the pane named `paneName` that entered `kind`; a DONE or FAILED carries the
 * turn's length. */
export function transitionEvent(paneId: string, paneName: string, program: string, kind: NotifyKind, rec: { at: number; tier: number; rule: string; line: string; startedAt: number }): NotifyEvent {
  const ended = kind === 'DONE' || kind === 'FAILED';
  return { paneId, paneName, program, kind, at: rec.at, tier: rec.tier, rule: rec.rule, line: rec.line, turnDurationS: ended ? (rec.at - rec.startedAt) / 1000 : null };
}

/** What a channel delivers: text already redacted, cut and free of control characters. */
export interface Notification {
  title: string;
  body: string;
  kind: NotifyKind;
  paneId: string;
  paneName: string;
  program: string;
  /** Epoch milliseconds. */
  at: number;
  tier: number;
  rule: string;
  /** Whether the person should drop what they are doing (not for DONE). */
  urgent: boolean;
}

export interface NotifyChannel {
  name: string;
  /** Rejects on failure; the Notifier catches and reports it. */
  send(n: Notification): Promise<void>;
}
