// Supervised tasks as the dashboard sees them: which buttons a status offers, which changes alert the person,
// which task drives a pane, the form's request, and the timeline kept in order without duplicates. Pure.
import type { TaskEventView, TaskView } from '../../src/web/api-types.js';

export type TaskStatus = TaskView['status'];

/** A status badge's icon (state never rests on colour alone: the status's name is shown beside it). */
export const TASK_ICON: Record<TaskStatus, string> = {
  PENDING: '…',
  RUNNING: '▶',
  PAUSED: '⏸',
  FINISHED: '✓',
  FAILED: '✗',
  EXHAUSTED: '⌛',
  STOPPED: '■',
};

export const canStop = (s: TaskStatus): boolean => s === 'PENDING' || s === 'RUNNING' || s === 'PAUSED';
export const canResume = (s: TaskStatus): boolean => s === 'PAUSED';
export const canRetry = (s: TaskStatus): boolean => s === 'EXHAUSTED' || s === 'FAILED';
/** The task types into its pane, or holds it (paused): the pane's card says so. */
export const drivesPane = (s: TaskStatus): boolean => s === 'PENDING' || s === 'RUNNING' || s === 'PAUSED';

export type TaskAlert = 'task_finished' | 'task_needs';

/**
 * What a live change of a task means for the person: FINISHED is good news, PAUSED / FAILED / EXHAUSTED need
 * them. STOPPED was their own doing. `before` is the status last known (undefined: never seen, i.e. it is new
 * since the page loaded); the same status again (a task is saved many times) is no news.
 */
export function taskAlert(before: TaskStatus | undefined, t: Pick<TaskView, 'status'>): TaskAlert | null {
  if (before === t.status) return null;
  if (t.status === 'FINISHED') return 'task_finished';
  if (t.status === 'PAUSED' || t.status === 'FAILED' || t.status === 'EXHAUSTED') return 'task_needs';
  return null;
}

/**
 * The statuses the feed has told (or the list fetched at load / reconnect showed), apart from anything the page
 * fetched for itself: a task's alert is decided against what the person was last told, once per change.
 */
export class TaskAlerts {
  private readonly told = new Map<string, { status: TaskStatus; at: number }>();

  /** A fetched list: the baseline, never news (a copy older than what the feed told is ignored). */
  baseline(list: readonly Pick<TaskView, 'id' | 'status' | 'updatedAt'>[]): void {
    for (const t of list) {
      const known = this.told.get(t.id);
      if (!known || t.updatedAt >= known.at) this.told.set(t.id, { status: t.status, at: t.updatedAt });
    }
  }

  /** A `task` message from the feed: the alert it calls for, if any. */
  change(t: Pick<TaskView, 'id' | 'status' | 'updatedAt'>): TaskAlert | null {
    const before = this.told.get(t.id);
    if (before && t.updatedAt < before.at) return null;
    this.told.set(t.id, { status: t.status, at: t.updatedAt });
    return taskAlert(before?.status, t);
  }
}

/** The notification's title and body. */
export function taskAlertText(kind: TaskAlert, t: Pick<TaskView, 'status' | 'reason' | 'iterations' | 'spec'>, paneName: string): { title: string; body: string } {
  const what = kind === 'task_finished' ? 'finished' : `needs you (${t.status})`;
  return { title: `Task on ${paneName} ${what}`, body: `${t.reason || t.status} · ${t.iterations} iteration${t.iterations === 1 ? '' : 's'} · ${t.spec.prompt}` };
}

/** "2/10", and the tokens: "1234" or "1234/5000" under a budget. */
export function progress(t: Pick<TaskView, 'iterations' | 'tokensUsed' | 'spec'>): { iterations: string; tokens: string } {
  const budget = t.spec.limits.tokenBudget;
  return { iterations: `${t.iterations}/${t.spec.limits.maxIterations}`, tokens: budget > 0 ? `${t.tokensUsed}/${budget}` : String(t.tokensUsed) };
}

/** Every task the page knows, keyed by id; an older copy never replaces a newer one (a list fetched before a live change). */
export class TaskIndex {
  private readonly byId = new Map<string, TaskView>();

  get(id: string): TaskView | undefined {
    return this.byId.get(id);
  }

  /** Keeps `t` unless a newer copy is known. */
  upsert(t: TaskView): void {
    const old = this.byId.get(t.id);
    if (!old || t.updatedAt >= old.updatedAt) this.byId.set(t.id, t);
  }

  /** A fetched list: merged, never alerting (what ended before the page looked is not news). */
  merge(list: readonly TaskView[]): void {
    for (const t of list) this.upsert(t);
  }

  /** A pane's tasks, newest first. */
  forPane(pane: string): TaskView[] {
    return [...this.byId.values()].filter((t) => t.spec.pane === pane).sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  /** The task driving `pane` now (the newest if, oddly, several), or null. */
  driving(pane: string): TaskView | null {
    return this.forPane(pane).find((t) => drivesPane(t.status)) ?? null;
  }

  panes(): Set<string> {
    return new Set([...this.byId.values()].map((t) => t.spec.pane));
  }
}

/** A task's timeline: events oldest first, each once (a live event may also come back in a fetched detail). */
export function mergeEvents(a: readonly TaskEventView[], b: readonly TaskEventView[]): TaskEventView[] {
  const seen = new Set<string>();
  const out: TaskEventView[] = [];
  for (const e of [...a, ...b]) {
    const key = `${e.at}\u0000${e.kind}\u0000${e.detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out.sort((x, y) => x.at - y.at);
}

export interface TaskFormFields {
  prompt: string;
  until: string;
  failure: string;
  check: string;
  maxIterations: string;
  judge: boolean;
}

/** The form as a POST /api/tasks body; empty fields are left to the daemon's defaults. Problems say what to fix first. */
export function taskRequest(pane: string, f: TaskFormFields): { body: Record<string, unknown>; problems: string[] } {
  const problems: string[] = [];
  const body: Record<string, unknown> = { pane, prompt: f.prompt.trim() };
  if (!f.prompt.trim()) problems.push('prompt: required');
  if (f.until.trim()) body['until'] = f.until.trim();
  if (f.failure.trim()) body['failure'] = [f.failure.trim()];
  if (f.check.trim()) body['check'] = f.check.trim();
  const max = f.maxIterations.trim();
  if (max) {
    const n = Number(max);
    if (!/^\d+$/.test(max) || n < 1) problems.push('maxIterations: expected a whole number ≥ 1');
    else body['maxIterations'] = n;
  }
  if (f.judge) body['judge'] = true;
  return { body, problems };
}
