// What a task runner is handed: the panes it reads and types into, the store it checkpoints to, the judge and the
// check command. The daemon wires them (task-panes.ts, task-judge.ts); tests hand in their own.
import type { TasksConfig } from '../config/config.js';
import type { PaneView } from '../web/api-types.js';
import type { CheckResult } from './check-command.js';
import type { IterationRecord, TaskEvent, TaskRecord } from './task-types.js';

export interface PaneAccess {
  view(id: string): PaneView | null;
  screen(id: string): string | null;
  /** The detector's verdict on the screen now (working | waiting | ready | failed | resting | unknown), or null. */
  verdict(id: string): string | null;
  /** Types `text` (then Enter when `enter`) through the pane's source; false when it cannot. */
  type(id: string, text: string, enter: boolean): Promise<boolean>;
}

export interface JudgeAnswer {
  continuation: string;
  risk: number;
  complete: boolean;
  reason: string;
  confidence: number;
  parsedBy: string;
  tokens: number;
}

/** The LLM judge; `signal` aborts a call when the task stops (a daemon shutting down must not wait on it). */
export interface TaskJudge {
  ask(req: { goal: string; criteria: { success: string[]; failure: string[]; until?: string; check?: string }; screen: string; iteration: number; recentPrompts: string[] }, signal: AbortSignal): Promise<JudgeAnswer>;
  propose(goal: string, signal: AbortSignal): Promise<{ success: string[]; failure: string[]; tokens: number }>;
  reflect(input: { goal: string; iterations: Array<{ prompt: string; screenExcerpt: string; verdict?: string }> }, signal: AbortSignal): Promise<{
    goalAchieved: boolean;
    progress: 'good' | 'slow' | 'stuck';
    looping: boolean;
    suggestions: string[];
    tokens: number;
  }>;
}

export interface RunnerDeps {
  panes: PaneAccess;
  save(t: TaskRecord): void;
  saveIteration(it: IterationRecord): void;
  iterations(taskId: string): IterationRecord[];
  event(e: TaskEvent): void;
  /** The task ended or needs the person. */
  notify(t: TaskRecord, kind: 'finished' | 'needs_you'): void;
  cfg: TasksConfig;
  /** Null: no judge configured. */
  judge: TaskJudge | null;
  check(cmd: string, cwd: string | null, timeoutMs: number, signal: AbortSignal): Promise<CheckResult>;
  redact(text: string): string;
  now(): number;
}
