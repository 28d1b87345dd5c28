// The daemon's supervised tasks: creates them, runs one TaskRunner per active task, and carries out the person's
// stop / resume / retry. At start it picks up the tasks a previous daemon left running, from their checkpoints.
import { randomBytes } from 'node:crypto';
import type { TaskStore } from '../store/task-store.js';
import { parseTaskRequest, TaskSpecError } from './task-spec.js';
import type { RunnerDeps } from './runner-deps.js';
import { TaskRunner } from './task-runner.js';
import { ACTIVE, ENDED, type IterationRecord, type TaskEvent, type TaskRecord } from './task-types.js';

/** Thrown for a request that cannot be carried out now (HTTP 409): the task or pane is in the wrong state. */
export class TaskConflictError extends Error {}
export class TaskNotFoundError extends Error {}

/** Timeline rows a task view carries. */
const VIEW_EVENTS = 200;

export interface TaskDetail {
  task: TaskRecord;
  iterations: IterationRecord[];
  events: TaskEvent[];
}

export type TaskMessage = { type: 'task'; task: TaskRecord } | { type: 'task_event'; event: TaskEvent };

export interface ManagerDeps extends Omit<RunnerDeps, 'save' | 'saveIteration' | 'iterations' | 'event'> {
  store: TaskStore;
  /** Whether the daemon knows a pane by this id (live or from history). */
  paneKnown(id: string): boolean;
  publish(m: TaskMessage): void;
}

export class TaskManager {
  private readonly runners = new Map<string, TaskRunner>();
  private readonly runnerDeps: RunnerDeps;

  constructor(private readonly d: ManagerDeps) {
    this.runnerDeps = {
      ...d,
      save: (t) => {
        d.store.save(t);
        d.publish({ type: 'task', task: t });
      },
      saveIteration: (it) => d.store.saveIteration(it),
      iterations: (id) => d.store.iterations(id),
      event: (e) => {
        d.store.event(e);
        d.publish({ type: 'task_event', event: e });
      },
    };
  }

  /** Tasks a previous daemon was running carry on from their last checkpoint. */
  resumeAll(): number {
    let n = 0;
    for (const t of this.d.store.tasks(1000)) {
      if (!ACTIVE.has(t.status)) continue;
      this.event(t, 'daemon_restarted', `resuming at ${t.phase === 'sent' ? `turn #${t.iterations}` : `iteration ${t.iterations + 1}`}`);
      this.launch(t);
      n++;
    }
    return n;
  }

  start(body: unknown): TaskRecord {
    const spec = parseTaskRequest(body, this.d.cfg);
    if (!this.d.paneKnown(spec.pane)) throw new TaskSpecError([`pane: no pane ${JSON.stringify(spec.pane)} (see GET /api/panes or termsupervisor status)`]);
    const busy = this.list(1000, spec.pane).find((t) => ACTIVE.has(t.status));
    if (busy) throw new TaskConflictError(`pane ${spec.pane} is already driven by task ${busy.id}: stop it first`);
    const now = this.d.now();
    const t: TaskRecord = {
      id: `t-${randomBytes(4).toString('hex')}`,
      spec,
      status: 'PENDING',
      reason: 'created',
      reasonCode: null,
      phase: 'start',
      iterations: 0,
      nextPrompt: spec.prompt,
      consecutiveFailures: 0,
      tokensUsed: 0,
      agentMs: 0,
      proposed: null,
      warnings: [],
      recentSends: [],
      slowReflections: 0,
      loop: { edges: [], continuations: [] },
      lastTurnEnd: null,
      createdAt: now,
      updatedAt: now,
      endedAt: null,
    };
    this.runnerDeps.save(t);
    this.event(t, 'created', spec.prompt);
    this.launch(t);
    return t;
  }

  list(limit: number, pane?: string): TaskRecord[] {
    return this.d.store.tasks(limit, pane).map((t) => this.runners.get(t.id)?.record ?? t);
  }

  detail(id: string): TaskDetail | null {
    const task = this.runners.get(id)?.record ?? this.d.store.task(id);
    if (!task) return null;
    return { task, iterations: this.d.store.iterations(id), events: this.d.store.events(id, VIEW_EVENTS) };
  }

  stop(id: string, by: string): TaskRecord {
    const t = this.must(id);
    if (ENDED.has(t.status)) throw new TaskConflictError(`task ${id} has already ended (${t.status})`);
    this.runners.get(id)?.halt();
    this.runners.delete(id);
    const now = this.d.now();
    Object.assign(t, { status: 'STOPPED', reason: `stopped by ${by}`, reasonCode: 'stopped_by_person', endedAt: now, updatedAt: now });
    this.runnerDeps.save(t);
    this.event(t, 'stopped', `by ${by}`);
    return t;
  }

  /** A PAUSED task goes on (the person dealt with what it asked about). */
  resume(id: string): TaskRecord {
    const t = this.must(id);
    if (t.status !== 'PAUSED') throw new TaskConflictError(`task ${id} is ${t.status}: only a PAUSED task resumes (an EXHAUSTED one is retried)`);
    this.restart(t, 'resumed', 'by the person');
    return t;
  }

  /** An EXHAUSTED (or FAILED) task gets more iterations / budget and goes on where it stopped. */
  retry(id: string, more: { iterations?: number; budget?: number } = {}): TaskRecord {
    const t = this.must(id);
    if (t.status !== 'EXHAUSTED' && t.status !== 'FAILED') throw new TaskConflictError(`task ${id} is ${t.status}: only an EXHAUSTED or FAILED task is retried`);
    const l = t.spec.limits;
    const addIterations = more.iterations ?? this.d.cfg.retry_iterations;
    l.maxIterations = Math.max(l.maxIterations, t.iterations) + addIterations;
    if (l.tokenBudget > 0) l.tokenBudget = Math.max(l.tokenBudget, t.tokensUsed) + (more.budget ?? l.tokenBudget);
    if (t.reasonCode === 'max_runtime') l.maxRuntimeS += l.maxRuntimeS;
    t.consecutiveFailures = 0;
    t.endedAt = null;
    this.restart(t, 'retried', `+${addIterations} iterations (now ${l.maxIterations})${l.tokenBudget > 0 ? `, budget ${l.tokenBudget}` : ''}`);
    return t;
  }

  /** Whether a task is typing into this pane (its per-turn DONE pings are the task's business). */
  driving(paneId: string): boolean {
    for (const r of this.runners.values()) if (r.record.spec.pane === paneId && r.record.status === 'RUNNING') return true;
    return false;
  }

  /** The daemon is stopping: runners halt, their tasks stay RUNNING in the store for the next daemon. */
  async closeAll(): Promise<void> {
    const all = [...this.runners.values()];
    for (const r of all) r.halt();
    this.runners.clear();
    await Promise.all(all.map((r) => r.done));
  }

  private restart(t: TaskRecord, kind: string, detail: string): void {
    if (this.runners.has(t.id)) throw new TaskConflictError(`task ${t.id} is already running`);
    Object.assign(t, { status: 'RUNNING', reason: kind, reasonCode: null, loop: { edges: [], continuations: [] }, slowReflections: 0 });
    this.runnerDeps.save(t);
    this.event(t, kind, detail);
    this.launch(t);
  }

  private launch(t: TaskRecord): void {
    const r = new TaskRunner(t, this.runnerDeps);
    this.runners.set(t.id, r);
    void r.done.then(() => {
      if (this.runners.get(t.id) === r) this.runners.delete(t.id);
    });
  }

  private must(id: string): TaskRecord {
    const t = this.runners.get(id)?.record ?? this.d.store.task(id);
    if (!t) throw new TaskNotFoundError(`no task ${JSON.stringify(id)}`);
    return t;
  }

  private event(t: TaskRecord, kind: string, detail: string): void {
    this.runnerDeps.event({ taskId: t.id, at: this.d.now(), kind, detail: this.d.redact(detail).slice(0, 500) });
  }
}
