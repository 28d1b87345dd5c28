// Supervised tasks in the history database. Unlike pane history these writes are synchronous: a task's
// checkpoint must be on disk before the loop acts on it (a restarted daemon resumes from exactly there), and a
// task writes a few rows per turn, not per screen change.
import type Database from 'better-sqlite3';
import type { IterationRecord, TaskEvent, TaskRecord } from '../tasks/task-types.js';

/** Timeline rows a task keeps at most: a looping task must not grow its history without bound. */
export const MAX_EVENTS_PER_TASK = 2000;

/** Runs one checkpoint write; a storage fault (a full disk) is reported by the history store, not thrown, so a task
 * carries on in memory and a daemon never dies of its checkpoint. */
export type TaskWriteGuard = (write: () => void) => void;

export class TaskStore {
  private readonly put;
  private readonly get;
  private readonly list;
  private readonly listPane;
  private readonly putIteration;
  private readonly iterationsOf;
  private readonly addEvent;
  private readonly eventsOf;
  private readonly trimEvents;

  constructor(
    private readonly db: Database.Database,
    private readonly guard: TaskWriteGuard = (write) => write(),
  ) {
    this.put = db.prepare(
      `INSERT INTO tasks (id, pane_id, status, created_at, updated_at, ended_at, data)
       VALUES (@id, @pane, @status, @createdAt, @updatedAt, @endedAt, @data)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at,
         ended_at = excluded.ended_at, data = excluded.data`,
    );
    this.get = db.prepare('SELECT data FROM tasks WHERE id = ?').pluck();
    this.list = db.prepare('SELECT data FROM tasks ORDER BY created_at DESC, id LIMIT ?').pluck();
    this.listPane = db.prepare('SELECT data FROM tasks WHERE pane_id = ? ORDER BY created_at DESC, id LIMIT ?').pluck();
    this.putIteration = db.prepare(
      'INSERT INTO task_iterations (task_id, n, data) VALUES (?, ?, ?) ON CONFLICT (task_id, n) DO UPDATE SET data = excluded.data',
    );
    this.iterationsOf = db.prepare('SELECT data FROM task_iterations WHERE task_id = ? ORDER BY n').pluck();
    this.addEvent = db.prepare('INSERT INTO task_events (task_id, at, kind, detail) VALUES (?, ?, ?, ?)');
    this.eventsOf = db.prepare('SELECT task_id AS taskId, at, kind, detail FROM task_events WHERE task_id = ? ORDER BY id DESC LIMIT ?');
    this.trimEvents = db.prepare(
      'DELETE FROM task_events WHERE task_id = ? AND id <= (SELECT id FROM task_events WHERE task_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)',
    );
  }

  save(t: TaskRecord): void {
    this.guard(() => this.put.run({
      id: t.id,
      pane: t.spec.pane,
      status: t.status,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      endedAt: t.endedAt,
      data: JSON.stringify(t),
    }));
  }

  task(id: string): TaskRecord | null {
    const data = this.get.get(id) as string | undefined;
    return data === undefined ? null : (JSON.parse(data) as TaskRecord);
  }

  tasks(limit: number, pane?: string): TaskRecord[] {
    const rows = (pane === undefined ? this.list.all(limit) : this.listPane.all(pane, limit)) as string[];
    return rows.map((d) => JSON.parse(d) as TaskRecord);
  }

  saveIteration(it: IterationRecord): void {
    this.guard(() => this.putIteration.run(it.taskId, it.n, JSON.stringify(it)));
  }

  iterations(taskId: string): IterationRecord[] {
    return (this.iterationsOf.all(taskId) as string[]).map((d) => JSON.parse(d) as IterationRecord);
  }

  event(e: TaskEvent): void {
    this.guard(() => {
      const id = this.addEvent.run(e.taskId, e.at, e.kind, e.detail).lastInsertRowid;
      if (Number(id) % 100 === 0) this.trimEvents.run(e.taskId, e.taskId, MAX_EVENTS_PER_TASK);
    });
  }

  /** The task's timeline, oldest first. */
  events(taskId: string, limit = MAX_EVENTS_PER_TASK): TaskEvent[] {
    return (this.eventsOf.all(taskId, limit) as TaskEvent[]).reverse();
  }

  /** Ended tasks older than the cutoff go, with their iterations and timelines. */
  pruneBefore(cutoff: number): number {
    return this.db.transaction(() => {
      const old = "SELECT id FROM tasks WHERE ended_at IS NOT NULL AND ended_at < @cutoff";
      this.db.prepare(`DELETE FROM task_iterations WHERE task_id IN (${old})`).run({ cutoff });
      this.db.prepare(`DELETE FROM task_events WHERE task_id IN (${old})`).run({ cutoff });
      return this.db.prepare('DELETE FROM tasks WHERE ended_at IS NOT NULL AND ended_at < @cutoff').run({ cutoff }).changes;
    }).immediate();
  }
}
