// The words of a notification: "claude · api-pane needs you: approval", and the matched screen line as the body.
// Everything shown passes through redactText and loses its control characters: a pane name or a screen line
// could carry a secret, or an escape sequence that a terminal (bell channel) would obey.
import stripAnsi from 'strip-ansi';
import { cut, redactText } from '../daemon/redact.js';
import type { Notification, NotifyEvent, NotifyKind } from './types.js';

/** The body is one screen line cut to this: a lock screen or phone banner shows about this much. */
export const BODY_MAX = 120;
/** A pane name longer than this is cut so the title keeps its verdict visible in a narrow banner. */
const NAME_MAX = 40;

/** What the title says after the pane, per kind. */
const VERDICT: Record<NotifyKind, string> = {
  WAITING_APPROVAL: 'needs you: approval',
  FAILED: 'needs you: failed',
  STALLED: 'needs you: stalled (no output)',
  DONE: 'is done',
  TASK_FINISHED: 'finished its task',
  TASK_NEEDS_YOU: 'needs you: task stopped',
};

/** Kinds where the person is blocking the agent (urgent); DONE can wait. */
export function isUrgent(kind: NotifyKind): boolean {
  return kind !== 'DONE' && kind !== 'TASK_FINISHED';
}

export function notificationFor(ev: NotifyEvent): Notification {
  const name = cut(clean(ev.paneName) || ev.paneId, NAME_MAX);
  const took = ev.kind === 'DONE' && ev.turnDurationS !== null ? ` (${formatDuration(ev.turnDurationS)})` : '';
  return {
    title: `${clean(ev.program) || 'pane'} · ${name} ${VERDICT[ev.kind]}${took}`,
    body: cut(clean(ev.line).trim(), BODY_MAX),
    kind: ev.kind,
    paneId: ev.paneId,
    paneName: name,
    program: ev.program,
    at: ev.at,
    tier: ev.tier,
    rule: ev.rule,
    urgent: isUrgent(ev.kind),
  };
}

/** Redacted, one line, no escape sequences or control characters (C0, DEL, C1), runs of spaces collapsed. */
export function clean(s: string): string {
  return redactText(stripAnsi(s).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')).replace(/ {2,}/g, ' ');
}

/** 42 → "42s", 125 → "2m 05s", 3725 → "1h 02m". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const p = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m ${p(s % 60)}s`;
  return `${Math.floor(s / 3600)}h ${p(Math.floor((s % 3600) / 60))}m`;
}
