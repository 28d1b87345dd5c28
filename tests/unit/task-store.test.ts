// Tasks in the history database: a real SQLite file, migrated to schema 2; checkpoints survive a reopen.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../src/store/history-store.js';
import { loadConfig } from '../../src/config/config.js';
import { parseTaskRequest } from '../../src/tasks/task-spec.js';
import type { IterationRecord, TaskRecord } from '../../src/tasks/task-types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function path(): string {
  const d = mkdtempSync(join(tmpdir(), 'ts-taskstore-'));
  dirs.push(d);
  return join(d, 'history.sqlite');
}

function task(id: string, pane: string, createdAt: number, endedAt: number | null = null): TaskRecord {
  return {
    id, spec: parseTaskRequest({ pane, prompt: 'go' }, loadConfig().tasks), status: endedAt ? 'FINISHED' : 'RUNNING', reason: '', reasonCode: null,
    phase: 'sent', iterations: 1, nextPrompt: 'go', consecutiveFailures: 0, tokensUsed: 3, agentMs: 0, proposed: null, warnings: [],
    recentSends: [], slowReflections: 0, loop: { edges: [], continuations: [] }, lastTurnEnd: null, createdAt, updatedAt: createdAt, endedAt,
  };
}

const iteration = (taskId: string, n: number): IterationRecord => ({
  taskId, n, prompt: `p${n}`, sentAt: n, turnStartedAt: null, endedAt: null, result: null, excerpt: '', decision: null, judge: null, check: null,
  charsTyped: 3, charsRead: 0, tokens: 1, approvalMs: 0,
});

describe('task store', () => {
  it('keeps tasks, iterations and timelines across a reopen; lists newest first, per pane', () => {
    const p = path();
    const s = HistoryStore.open(p);
    s.tasks.save(task('t-a', 'p1', 1));
    s.tasks.save(task('t-b', 'p2', 2));
    s.tasks.saveIteration(iteration('t-a', 1));
    s.tasks.saveIteration({ ...iteration('t-a', 1), result: 'done' }); // the same iteration, updated
    s.tasks.saveIteration(iteration('t-a', 2));
    s.tasks.event({ taskId: 't-a', at: 5, kind: 'sent', detail: '#1' });
    s.tasks.event({ taskId: 't-a', at: 6, kind: 'finished', detail: 'ok' });
    s.close();
    const r = HistoryStore.open(p);
    expect(r.schemaVersion).toBeGreaterThanOrEqual(2);
    expect(r.tasks.tasks(10).map((t) => t.id)).toEqual(['t-b', 't-a']);
    expect(r.tasks.tasks(10, 'p1').map((t) => t.id)).toEqual(['t-a']);
    expect(r.tasks.task('t-a')?.phase).toBe('sent');
    expect(r.tasks.iterations('t-a').map((i) => [i.n, i.result])).toEqual([[1, 'done'], [2, null]]);
    expect(r.tasks.events('t-a').map((e) => e.kind)).toEqual(['sent', 'finished']);
    expect(r.tasks.task('nope')).toBeNull();
    r.close();
  });

  it('retention removes ended tasks older than the cutoff with their rows, never running ones', () => {
    const s = HistoryStore.open(path());
    s.tasks.save(task('t-old', 'p', 1, 10));
    s.tasks.save(task('t-run', 'p', 1, null));
    s.tasks.saveIteration(iteration('t-old', 1));
    s.tasks.event({ taskId: 't-old', at: 1, kind: 'x', detail: '' });
    expect(s.tasks.pruneBefore(100)).toBe(1);
    expect(s.tasks.task('t-old')).toBeNull();
    expect(s.tasks.iterations('t-old')).toEqual([]);
    expect(s.tasks.events('t-old')).toEqual([]);
    expect(s.tasks.task('t-run')).not.toBeNull();
    s.close();
  });
});

describe('task checkpoints on a failing disk', () => {
  it('a refused checkpoint degrades history instead of throwing into the task loop, and the next one mends it', () => {
    const p = path();
    const s = HistoryStore.open(p, { onError: () => {} });
    const other = new Database(p);
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE'); // another writer holds the lock past the store's busy timeout: writes fail
    expect(() => s.tasks.save(task('t-a', 'p1', 1))).not.toThrow();
    expect(() => s.tasks.event({ taskId: 't-a', at: 5, kind: 'sent', detail: '#1' })).not.toThrow();
    expect(() => s.tasks.saveIteration(iteration('t-a', 1))).not.toThrow();
    expect(s.health()).toMatchObject({ status: 'degraded', op: 'task' });
    other.exec('ROLLBACK');
    other.close();
    s.tasks.save(task('t-a', 'p1', 1));
    expect(s.health().status).toBe('ok');
    expect(s.tasks.task('t-a')?.id).toBe('t-a');
    s.close();
  });
});
