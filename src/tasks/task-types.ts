// The vocabulary of supervised runs: what a task is asked to do, the limits it runs under, and what it records.
// Times are epoch milliseconds unless a name says otherwise.

export type TaskStatus = 'PENDING' | 'RUNNING' | 'PAUSED' | 'FINISHED' | 'FAILED' | 'EXHAUSTED' | 'STOPPED';

export const ENDED: ReadonlySet<TaskStatus> = new Set(['FINISHED', 'FAILED', 'EXHAUSTED', 'STOPPED']);
/** Statuses a runner drives (a restarted daemon picks these up again). */
export const ACTIVE: ReadonlySet<TaskStatus> = new Set(['PENDING', 'RUNNING']);

/** Why a task stopped or paused, as a code (the record also says it in words). */
export type ReasonCode =
  | 'until_matched'
  | 'success_matched'
  | 'failure_matched'
  | 'check_passed'
  | 'judge_complete'
  | 'reflection_complete'
  | 'agent_failed'
  | 'max_iterations'
  | 'max_runtime'
  | 'token_budget'
  | 'stalled'
  | 'loop'
  | 'slow_progress'
  | 'risky_continuation'
  | 'judge_undecided'
  | 'pane_gone'
  | 'pane_cannot_type'
  | 'stopped_by_person';

/** Where the ending criteria look: the live edge, the last N rows, or named row ranges of the screen. */
export type Region = { kind: 'edge' } | { kind: 'last'; lines: number } | { kind: 'rows'; ranges: Array<[number, number]> };

export interface TaskLimits {
  maxIterations: number;
  maxRuntimeS: number;
  heartbeatS: number;
  onStall: 'pause' | 'fail';
  maxConsecutiveFailures: number;
  cooldownS: number;
  maxActivationsPerHour: number;
  /** 0: no budget. */
  tokenBudget: number;
  loopTurns: number;
  reflectEvery: number;
  riskThreshold: number;
}

export interface TaskCriteria {
  /** Regexes (JavaScript syntax) on the region: success ends FINISHED, failure ends FAILED (failure wins). */
  success: string[];
  failure: string[];
  /** Whole words, case-insensitive. */
  successWords: string[];
  failureWords: string[];
  /** An explicit regex on the region that means "done". */
  until: string | null;
  /** A shell command run after each turn: exit 0 = done. */
  check: string | null;
  region: Region;
}

export interface TaskSpec {
  pane: string;
  prompt: string;
  /** The goal in words, for the judge (defaults to the prompt). */
  goal: string;
  criteria: TaskCriteria;
  /** Typed after a turn when no judge wrote a continuation. */
  continueText: string;
  /** Ask the configured LLM judge after each turn. */
  judge: boolean;
  /** Approvals (regexes on the approval's screen line) the task may answer itself; all others wait for the person. */
  approve: string[];
  /** Where the check command runs (default: the daemon's cwd). */
  cwd: string | null;
  limits: TaskLimits;
}

/** Where the loop stands, saved at each step so a restarted daemon resumes from there. */
export type TaskPhase = 'start' | 'ready' | 'sent' | 'decided';

export interface TaskRecord {
  id: string;
  spec: TaskSpec;
  status: TaskStatus;
  reason: string;
  reasonCode: ReasonCode | null;
  phase: TaskPhase;
  /** Prompts sent so far. */
  iterations: number;
  /** The prompt the next iteration sends (the first prompt, a continuation). */
  nextPrompt: string;
  consecutiveFailures: number;
  tokensUsed: number;
  /** Agent time spent (ms), approvals waiting on the person excluded. */
  agentMs: number;
  /** Criteria the judge proposed when the task came without any. */
  proposed: { success: string[]; failure: string[] } | null;
  warnings: string[];
  /** Send times of the last hour's prompts, for max_activations_per_hour. */
  recentSends: number[];
  slowReflections: number;
  /** Keys of the last turns' edges and judge continuations, for loop detection. */
  loop: { edges: string[]; continuations: string[] };
  /** Ended turns, for the cooldown (null before the first). */
  lastTurnEnd: number | null;
  createdAt: number;
  updatedAt: number;
  endedAt: number | null;
}

export interface JudgeNote {
  complete: boolean;
  confidence: number;
  reason: string;
  continuation: string;
  risk: number;
  parsedBy: string;
  tokens: number;
}

/** One prompt sent and what came of it. */
export interface IterationRecord {
  taskId: string;
  n: number;
  prompt: string;
  sentAt: number;
  /** When the turn began (null: it never did) and ended. */
  turnStartedAt: number | null;
  endedAt: number | null;
  /** done | failed | interrupted | no_response | resumed (the daemon restarted during the turn) | null while open. */
  result: string | null;
  /** The region's text after the turn (redacted, cut). */
  excerpt: string;
  /** What decided: a rule id (failure_matched, check_passed, judge_complete, continue, …). */
  decision: string | null;
  judge: JudgeNote | null;
  check: { exitCode: number | null; output: string } | null;
  /** Characters typed (prompt) and read (excerpt) this iteration. */
  charsTyped: number;
  charsRead: number;
  tokens: number;
  /** Agent time waiting on approvals this turn (ms). */
  approvalMs: number;
}

/** One line of a task's timeline (the dashboard shows these). */
export interface TaskEvent {
  taskId: string;
  at: number;
  kind: string;
  detail: string;
}
