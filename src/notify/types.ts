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
  /** What the pane knows beyond the transition (notify-facts.ts in the daemon); absent for peers and tasks. */
  facts?: PaneFacts;
  /** The pane's own verdict that this end needs nobody (src/state/needs-you.ts: `startup`, `own_interrupt`,
   * `reconnected`, `carried` …); absent when it is news. */
  notNews?: string;
}

/** The pane's side of a notification: what it asks, what it ran, how it ended, and what the person did. */
export interface PaneFacts {
  /** The question on screen (WAITING), already free of borders, with its choices. */
  question?: { text: string; options: string[] } | null;
  /** The command or prompt of the turn that ended or asks (raw: cleaned before it is shown). */
  command?: string | null;
  /** The exit code when the source reported one (shell integration, `run`); null when nobody knows it. */
  exitCode?: number | null;
  /** A shell's end that only its screen told (no integration): success is not known. */
  exitCodeUnknown?: boolean;
  /** The rows above the cursor when it happened, last few (the ^C echo of an interrupt is there). */
  edge?: string[];
  /** Epoch ms of the last interrupt key (Ctrl-C, Esc) the person typed into the pane, when keys are seen. */
  interruptKeyAt?: number | null;
  /** The program's own notice that the person interrupted this turn is on screen ("Conversation interrupted"). */
  interruptedOnScreen?: boolean;
  /** Seconds without output, for STALLED. */
  silentS?: number | null;
  /** The pane's working folder, when known (a name the person recognises next to a tmux target). */
  cwd?: string | null;
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
  /** The question and its choices, the command, the exit code and the duration, as shown (cleaned). */
  question?: string;
  options?: string[];
  command?: string;
  exitCode?: number | null;
  durationS?: number | null;
  /** A link to the pane on the dashboard (notify.dashboard_url or the daemon's own address). */
  url?: string;
  /** Several panes in one notification (they finished together): their ids. */
  panes?: string[];
}

export interface NotifyChannel {
  name: string;
  /** Where it delivers (the program, the URL without secrets), for doctor and the board. */
  detail?: string;
  /** Rejects on failure; the Notifier catches and reports it. */
  send(n: Notification): Promise<void>;
  /** A failure is final, never tried again: the person's own command (a sound played twice is worse than once). */
  noRetry?: boolean;
  /** The pane's question was answered: take its notification back, where the channel can. */
  withdraw?(paneId: string, title: string): Promise<void>;
  /** The daemon stops: end what the channel keeps running (notify-send waiting for a click). */
  close?(): void;
}

/** An urgent notification not yet through: held back (rate limit, quiet hours) or handed to channels that have not
 * taken it yet. Kept in the daemon's store so a restart delivers it, if it is still news. */
export interface PendingNotice {
  /** Unique per notice (a later event of the same pane and kind is another notice). */
  id: string;
  /** 'held': never sent yet; 'sending': handed to `channels`, which still owe it. */
  stage: 'held' | 'sending';
  ev: NotifyEvent;
  /** The channels (by name) that still owe it; all of them while held. */
  channels: string[];
  /** Epoch ms: when it was first kept. */
  createdAt: number;
  why?: 'rate_limited' | 'quiet_hours';
}

/** Where pending notices are kept (the daemon's SQLite store); writes never throw. */
export interface PendingStore {
  save(p: PendingNotice): void;
  remove(id: string): void;
}
