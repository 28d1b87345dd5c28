// What the history store keeps: panes, their transitions and turns, and signal counters. Times are epoch
// milliseconds (a pane's own clock starts at 0; the daemon adds the pane's origin before storing).
import type { MachineState, Tier } from '../analysis/types.js';

/** How a pane reaches the daemon. */
/** ssh: a pane of a remote tmux server (`daemon --remote`), id `<host>:%N`. */
export type AttachKind = 'run' | 'tmux' | 'ssh' | 'iterm2' | 'replay';

/** Which kind of evidence put a pane in its state, in words (the tier, plus timers and the person). */
/** process: what the pane's source saw of its processes (`run`'s program starting and exiting, a shell's foreground
 * job starting), not what the program printed. */
export type SignalSource = 'in-band' | 'hook' | 'process' | 'profile' | 'heuristic' | 'timer' | 'user';

export interface PaneRecord {
  /** Stable across daemon restarts for the same pane (run: chosen by the wrapper; tmux: server + pane id). */
  id: string;
  name: string;
  /** The profile reading it: claude | codex | gemini | qwen | shell | generic. */
  program: string;
  attach: AttachKind;
  /** The command line, already redacted and cut (never the raw one). */
  command: string;
  cols: number;
  rows: number;
  createdAt: number;
  /** Last time the daemon heard from the pane's source. */
  lastSeenAt: number;
  /** Set when the source went away (wrapper exited, tmux pane closed); null while attached. */
  closedAt: number | null;
  state: MachineState;
  since: number;
  /** When the current piece of work began (kept across RUNNING→WAITING→RUNNING). */
  startedAt: number;
  tier: Tier | 0;
  source: SignalSource;
  rule: string;
  line: string;
  stalled: boolean;
  /** The machine the pane runs on: a remote's or a peer daemon's name; null (or absent) for this machine's own. */
  host?: string | null;
}

export interface TransitionRecord {
  paneId: string;
  at: number;
  from: MachineState;
  to: MachineState;
  tier: Tier | 0;
  source: SignalSource;
  rule: string;
  line: string;
  stalled: boolean;
  startedAt: number;
  startedAtKept: boolean;
  /** The turn's phase and rule that decided it (analysis/turn-rules.ts); in the event log, not stored. */
  step?: string;
}

export type TurnResult = 'done' | 'failed' | 'interrupted';

export interface TurnRecord {
  paneId: string;
  /** Identifies the turn within its pane (its start time): saving it again updates it. */
  start: number;
  end: number | null;
  durationS: number | null;
  /** null while the turn is still open. */
  result: TurnResult | null;
  /** The first line of the prompt the person submitted, redacted and cut, when it is known. */
  prompt: string | null;
}

/** Who asked for keys to be typed into a pane (or an ack, a jump): the client's own name, a task, or `api`. */
export type ActionOrigin = 'dashboard' | 'cli' | 'top' | 'task' | 'api';
export type ActionKind = 'answer' | 'reply' | 'interrupt' | 'ack' | 'focus' | 'keys';

/** Something a person (or a task) did to a pane: the keys typed, printable and redacted, with who and from where. */
export interface ActionRecord {
  paneId: string;
  at: number;
  kind: ActionKind;
  origin: ActionOrigin;
  /** The client's address as the daemon saw it ('' for the daemon itself: a task). */
  from: string;
  /** Printable keys ("2", "Esc", "fix the tests Enter"), redacted and cut; '' for ack/focus. */
  keys: string;
  /** The option's label, the reply's first line, or a jump's result, redacted and cut. */
  detail: string;
  /** The screen revision it was made on (null: none given). */
  rev: number | null;
}

/** "fired.tier2.done.claude.done_marker" / "suppressed.tier3.run.debounce" → count. */
export type Counters = Record<string, number>;
