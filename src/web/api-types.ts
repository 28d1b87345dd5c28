// The JSON the daemon serves (REST and /ws). Shared by the server and the dashboard (web/src), so both sides
// agree at compile time. Times are epoch milliseconds.
import type { AttachKind, Counters, SignalSource, TransitionRecord, TurnRecord } from '../store/records.js';
import type { MachineState, Tier } from '../analysis/types.js';
import type { IterationRecord, TaskEvent, TaskRecord } from '../tasks/task-types.js';
import type { HistoryHealth } from '../store/store-health.js';

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
}

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
}

/** GET /healthz: the daemon answers (HTTP 200) whatever the history's health; `ok` is false while it is degraded. */
export interface HealthView {
  ok: boolean;
  version: string;
  history?: HistoryHealth;
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
  | { type: 'task'; task: TaskRecord }
  | { type: 'task_event'; event: TaskEvent };
