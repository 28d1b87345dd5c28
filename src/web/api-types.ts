// The JSON the daemon serves (REST and /ws). Shared by the server and the dashboard (web/src), so both sides
// agree at compile time. Times are epoch milliseconds.
import type { ActionKind, ActionOrigin, ActionRecord, AttachKind, Counters, SignalSource, TransitionRecord, TurnRecord } from '../store/records.js';
import type { MachineState, Tier } from '../analysis/types.js';
import type { IterationRecord, TaskEvent, TaskRecord } from '../tasks/task-types.js';
import type { HistoryHealth } from '../store/store-health.js';
import type { ChannelHealth } from '../notify/delivery.js';

export type { HistoryHealth };

export type { TaskRecord as TaskView, IterationRecord as IterationView, TaskEvent as TaskEventView };

/** GET /api/tasks/:id: a task, every iteration, and its recent timeline (oldest first). */
export interface TaskDetailView {
  task: TaskRecord;
  iterations: IterationRecord[];
  events: TaskEvent[];
}

export type { AttachKind, Counters, SignalSource, MachineState, Tier };

/** One pane as GET /api/panes lists it and /ws pushes it. */
export interface PaneView {
  id: string;
  name: string;
  program: string;
  state: MachineState;
  /** When it entered `state`. */
  since: number;
  /** When the current piece of work began. */
  startedAt: number;
  source: SignalSource;
  tier: Tier | 0;
  rule: string;
  line: string;
  stalled: boolean;
  cols: number;
  rows: number;
  attach: AttachKind;
  /** Redacted command line, at most 50 characters. */
  command: string;
  /** Still attached (false: the source went away; history only). */
  alive: boolean;
  /** WAITING_APPROVAL, FAILED, DONE or stalled: the person should look. */
  needsYou: boolean;
  /** The last few rows of the live edge (empty when the pane is closed). */
  edge: string[];
  /** Shell-integration marks (OSC 133/633, Tier 1) have been seen in this pane since it attached. */
  shellIntegration: boolean;
  /** DONE was read from a shell's screen, with no shell integration seen: whether the command succeeded is not
   * known (shell integration reports its exit code). Shown as "exit codes unknown: install shell integration". */
  exitCodeUnknown: boolean;
  /** The pane's screen, analysis or state code threw (it was caught: the pane is still watched); the last such
   * error and how many there were. Shown as "analysis error". null when none, or the pane is closed. */
  analysisError: AnalysisErrorView | null;
  /** The screen's revision: it grows every time what the pane shows changes (the visible rows, spinner frames,
   * timers and blinks folded away), when it enters another state, and after keys are typed for an action. An action
   * carries the revision the person acted on; the daemon refuses it (409) when the pane has changed since. 0 for a
   * closed pane. */
  rev: number;
  /** WAITING_APPROVAL with choices read from its live edge (a numbered menu, [y/N], (yes/no), a `#?` menu, "Press
   * Enter"); null otherwise. */
  question: QuestionView | null;
  /** The keys an interrupt types into this pane, printable ("Esc" for most agents, "Ctrl-C" for shells; config
   * `actions.keys`), so a client can say what it will send before it does. Absent when closed. */
  interruptKeys?: string;
  /** The machine the pane runs on, as configured: a remote's name (`daemon --remote`, config `remotes`) or a peer
   * daemon's name (`--peer`, config `peers`); absent for this machine's own panes (issue 16). */
  host?: string;
  /** The pane's host cannot be reached (SSH dropped, peer daemon down): its state is the last one known, kept but
   * stale. Absent while the host is reachable. */
  unreachable?: { since: number; reason: string };
  /** The pane makes transitions faster than a person could act on them (a flood of forged marks, a title storm):
   * since when (epoch ms) and how many were held back; what is published meanwhile is one move now and then, each
   * standing for those held (src/daemon/transition-flood.ts). Absent when it does not flood. */
  flooding?: { since: number; held: number };
  /** Where the pane runs, for "jump": a `run` pane's tty, host and pid; a tmux pane's session, window and pane;
   * an iTerm2 session's id. Absent when not known. */
  where?: PaneWhereView;
}

/** A question a waiting pane puts to the person, read from its live edge by its program's profile. */
export interface QuestionView {
  /** The question's own line ("Delete 3 stale branches? [y/N]", "Do you want to make this edit to foo.ts?"). */
  text: string;
  /** In screen order. Esc (deny / cancel) is always possible as an interrupt and is not listed. */
  options: QuestionOption[];
}

export interface QuestionOption {
  /** What the person picks, unique within the question: '1', '2', 'y', 'n', 'enter'. */
  id: string;
  /** The option as the screen shows it ("Yes, and don't ask again for Bash(npm test:*)"). */
  label: string;
  /** The keys it sends, printable ("2", "↓ ↓ Enter", "y Enter"): shown before sending and kept in history. */
  keys: string;
}

export interface PaneWhereView {
  /** run: the wrapper's host, tty and the program's pid. */
  host?: string;
  tty?: string;
  pid?: number;
  /** tmux: the session, window index and pane id ("%3"). */
  session?: string;
  window?: string;
  pane?: string;
  /** iTerm2: the session's unique id. */
  sessionId?: string;
  /** run inside tmux: the tmux server's socket path (`pane` is then the wrapper's tmux pane). */
  tmuxSocket?: string;
}

/** Who asked for keys to be typed into a pane (or for an ack or a jump), and what it was (src/store/records.ts). */
export type { ActionOrigin, ActionKind };

/** One thing a person (or a task) did to a pane, as history keeps it: GET /api/panes/:id/actions, ws `action`. */
export type ActionView = ActionRecord;

/** Bodies of the pane actions (POST /api/panes/:id/{answer,reply,interrupt}); the client names itself with the
 * header `x-termsupervisor-client: dashboard|cli|top` (anything else, or none: `api`). Answers: 200 `ActionResult`,
 * 409 `StaleActionView` (the pane changed, or is not in a state that takes this action), 400 a malformed body or an
 * option the question does not offer, 401/403 as every mutation. */
export interface AnswerRequest { option: string; rev: number }
export interface ReplyRequest { text: string; rev: number }
/** `rev`: any revision the pane showed in the state it is in now (a running pane redraws every frame; one from
 * before it entered its state is stale). */
export interface InterruptRequest { rev: number }
export interface ActionResult { action: ActionView; pane: PaneView }
/** POST /api/panes/:id/focus ("jump"): 200 with what was done. `focused` true when the person's terminal now shows
 * the pane (tmux: their client selects it; iTerm2: the bridge activated the session); false with `how` saying where
 * the pane runs (a `run` pane: "runs on HOST in /dev/pts/3 (pid 4242)") or why it could not be shown. 404 an
 * unknown pane, 409 (StaleActionView) a closed one, 501 a daemon that cannot jump. */
export interface FocusResult extends ActionResult { focused: boolean; how: string }
export interface StaleActionView { error: string; pane: PaneView }

/** An exception caught in a pane's pipeline (src/daemon/pane-fault.ts). */
export interface AnalysisErrorView {
  /** When the last one happened. */
  at: number;
  /** screen | analysis | state: the stage that threw. */
  stage: string;
  /** What the pane was applying: output, input, hook, tick, signal, read, ack, ... */
  step: string;
  /** The profile reading the pane. */
  program: string;
  /** The error's name and message, on one line. */
  message: string;
  /** How many since the pane attached. */
  count: number;
}

export interface TransitionView extends Omit<TransitionRecord, 'paneId'> {
  paneId: string;
}

export type TurnView = TurnRecord;

export interface StatsView {
  /** Since the database was created (survives restarts). */
  counters: Counters;
  panes: { total: number; alive: number; byState: Partial<Record<MachineState, number>> };
  uptimeS: number;
  /** The notification channels this daemon delivers to, and how that goes (since it started). */
  notify?: NotifyHealthView;
}

/** GET /api/notify: each notification channel of the running daemon and its health (src/notify/delivery.ts). */
export interface NotifyHealthView {
  /** `detail`: where it delivers: the program, the webhook's format and URL (no credentials, no query). */
  channels: Array<ChannelHealth & { detail?: string }>;
  /** Configured channels that cannot work here, and why (no notify-send on the daemon's PATH). */
  unavailable: Array<{ name: string; why: string }>;
  /** Notifications held back (rate limit, quiet hours, a group forming). */
  held: number;
}

/** GET /healthz: the daemon answers (HTTP 200) whatever the history's health; `ok` is false while it is degraded. */
export interface HealthView {
  ok: boolean;
  version: string;
  history?: HistoryHealth;
  /** Notification channels whose last try failed (details: GET /api/notify). */
  notifyFailing?: string[];
}

/** Messages the daemon pushes on /ws. */
export type WsMessage =
  | { type: 'hello'; version: string; panes: PaneView[]; history?: HistoryHealth }
  /** History became degraded (writes refused: full disk, damaged file) or recovered by itself. */
  | { type: 'history'; history: HistoryHealth }
  | { type: 'pane'; pane: PaneView }
  /** Sent once the transition's row is committed; `unsaved` while history is degraded (told, not yet kept). */
  | { type: 'transition'; transition: TransitionView; unsaved?: true }
  | { type: 'pane_removed'; id: string }
  /** Keys typed into a pane (or an ack, a jump), once stored. */
  | { type: 'action'; action: ActionView }
  | { type: 'task'; task: TaskRecord }
  | { type: 'task_event'; event: TaskEvent };
