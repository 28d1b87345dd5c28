// The history store on real SQLite files: schema and migrations, refusing files it must not touch, batching,
// reads, counters, turns and retention.
import Database from 'better-sqlite3';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HistoryStore } from '../../src/store/history-store.js';
import { LATEST_VERSION } from '../../src/store/migrations.js';
import { openDb } from '../../src/store/open-db.js';
import { DAY_MS } from '../../src/store/prune.js';
import { StoreError } from '../../src/store/store-error.js';
import { pane, tempDirs, transition, turn } from '../helpers/store-fixtures.js';

const tmp = tempDirs();
const open: HistoryStore[] = [];
function store(path: string, opts: Parameters<typeof HistoryStore.open>[1] = {}): HistoryStore {
  const s = HistoryStore.open(path, { flushMs: 3_600_000, onError: (e) => { throw e; }, ...opts });
  open.push(s);
  return s;
}
afterEach(() => {
  vi.useRealTimers();
  for (const s of open.splice(0)) s.close();
  tmp.cleanup();
});

/** A second, independent connection: what another process would see on disk. */
function onDisk<T>(path: string, sql: string): T {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).get() as T;
  } finally {
    db.close();
  }
}

describe('open and migrate', () => {
  it('creates every table from nothing, in a private folder, and records the schema version', () => {
    const path = join(tmp.make(), 'state', 'deep', 'history.db');
    const s = store(path);
    expect(s.schemaVersion).toBe(LATEST_VERSION);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    s.close();
    const db = new Database(path, { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['counters', 'meta', 'panes', 'transitions', 'turns']));
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare("SELECT value FROM meta WHERE key = 'created_at'").pluck().get()).toMatch(/^\d+$/);
    db.close();
  });

  it('reopening applies nothing twice and keeps the data', () => {
    const path = join(tmp.make(), 'history.db');
    const first = openDb(path, () => 5);
    expect(first.applied).toEqual([...Array(LATEST_VERSION).keys()].map((i) => i + 1));
    first.db.close();
    const s = store(path);
    s.upsertPane(pane());
    s.close();
    const again = openDb(path, () => 9);
    expect(again.applied).toEqual([]);
    expect(again.db.prepare("SELECT value FROM meta WHERE key = 'created_at'").pluck().get()).toBe('5');
    again.db.close();
    expect(store(path).panes()).toEqual([pane()]);
  });

  it('refuses a database from a newer build and leaves its bytes alone', () => {
    const path = join(tmp.make(), 'history.db');
    store(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST_VERSION + 7}`);
    raw.close();
    const before = readFileSync(path);
    const attempt = () => HistoryStore.open(path);
    expect(attempt).toThrow(StoreError);
    expect(attempt).toThrow(
      `${path} was written by a newer termsupervisor (schema ${LATEST_VERSION + 7}, this build knows up to ${LATEST_VERSION}); ` +
        'upgrade termsupervisor or point --db elsewhere',
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a file that is not SQLite, clearly, without changing it', () => {
    const path = join(tmp.make(), 'notes.txt');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(50));
    const before = readFileSync(path);
    expect(() => HistoryStore.open(path)).toThrow(StoreError);
    expect(() => HistoryStore.open(path)).toThrow(/notes\.txt is not a SQLite database, or its first page is damaged .*point --db elsewhere/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("refuses another program's SQLite database", () => {
    const path = join(tmp.make(), 'other.db');
    const raw = new Database(path);
    raw.exec('CREATE TABLE bookmarks (url TEXT)');
    raw.close();
    expect(() => HistoryStore.open(path)).toThrow(/other tables in it; point --db elsewhere/);
  });
});

describe('batched writes', () => {
  it('commits many writes in one transaction at flush, nothing before', () => {
    const path = join(tmp.make(), 'history.db');
    const s = store(path);
    s.upsertPane(pane());
    for (let i = 0; i < 400; i++) s.addTransition(transition({ at: 2_000 + i }));
    s.addCounters({ 'fired.tier2.run': 1 });
    expect(onDisk<{ n: number }>(path, 'SELECT count(*) AS n FROM transitions').n).toBe(0);
    expect(s.commits).toBe(0);
    expect(s.flush()).toBe(true);
    expect(s.commits).toBe(1);
    expect(s.queued).toBe(0);
    expect(onDisk<{ n: number }>(path, 'SELECT count(*) AS n FROM transitions').n).toBe(400);
    expect(onDisk<{ n: number }>(path, 'SELECT count(*) AS n FROM panes').n).toBe(1);
  });

  it('flushes by itself flushMs after the first queued write', () => {
    vi.useFakeTimers();
    const s = store(join(tmp.make(), 'history.db'), { flushMs: 200 });
    s.addTransition(transition());
    vi.advanceTimersByTime(150);
    s.addTransition(transition({ at: 2_100 }));
    vi.advanceTimersByTime(49);
    expect(s.commits).toBe(0);
    vi.advanceTimersByTime(1);
    expect(s.commits).toBe(1);
    expect(s.queued).toBe(0);
  });

  it('collapses upserts of one pane within a batch to the last', () => {
    const s = store(join(tmp.make(), 'history.db'));
    s.upsertPane(pane({ state: 'IDLE' }));
    s.upsertPane(pane({ id: 'p2', name: 'shell' }));
    s.upsertPane(pane({ state: 'RUNNING', since: 3_000 }));
    s.upsertPane(pane({ state: 'DONE', since: 4_000, closedAt: 5_000 }));
    expect(s.queued).toBe(2);
    expect(s.pane('p1')).toEqual(pane({ state: 'DONE', since: 4_000, closedAt: 5_000 }));
    expect(s.panes().map((p) => p.id)).toEqual(['p1', 'p2']);
    s.upsertPane(pane({ state: 'IDLE', stalled: true, tier: 1 }));
    expect(s.pane('p1')).toEqual(pane({ state: 'IDLE', stalled: true, tier: 1 }));
    expect(s.pane('nope')).toBeUndefined();
  });

  it('reads see queued writes; transitions come newest first, limited', () => {
    const s = store(join(tmp.make(), 'history.db'));
    s.addTransition(transition({ at: 1, to: 'RUNNING' }));
    s.addTransition(transition({ at: 3, from: 'RUNNING', to: 'WAITING_APPROVAL', startedAtKept: true, stalled: true }));
    s.addTransition(transition({ at: 3, from: 'WAITING_APPROVAL', to: 'RUNNING', startedAtKept: true }));
    s.addTransition(transition({ paneId: 'p2', at: 2 }));
    expect(s.queued).toBe(4);
    const ts = s.transitions('p1');
    expect(ts.map((t) => [t.at, t.to])).toEqual([[3, 'RUNNING'], [3, 'WAITING_APPROVAL'], [1, 'RUNNING']]);
    expect(ts[1]).toEqual(transition({ at: 3, from: 'RUNNING', to: 'WAITING_APPROVAL', startedAtKept: true, stalled: true }));
    expect(s.transitions('p1', 1)).toHaveLength(1);
    expect(s.transitions('p2')).toHaveLength(1);
  });

  it('adds counters up, across batches and reopen', () => {
    const path = join(tmp.make(), 'history.db');
    const s = store(path);
    s.addCounters({ a: 1, b: 2 });
    s.addCounters({ a: 3 });
    expect(s.queued).toBe(2);
    expect(s.counters()).toEqual({ a: 4, b: 2 });
    s.addCounters({ b: 5, c: 1 });
    s.close();
    expect(store(path).counters()).toEqual({ a: 4, b: 7, c: 1 });
  });

  it('saves a turn again by pane and start: an update, not a second row', () => {
    const s = store(join(tmp.make(), 'history.db'));
    s.saveTurn(turn({ start: 10 }));
    s.flush();
    s.saveTurn(turn({ start: 10, end: 70_010, durationS: 70, result: 'done' }));
    s.saveTurn(turn({ start: 90_000 }));
    s.saveTurn(turn({ paneId: 'p2', start: 10 }));
    expect(s.turns('p1')).toEqual([turn({ start: 90_000 }), turn({ start: 10, end: 70_010, durationS: 70, result: 'done' })]);
    expect(s.turns('p1', 1)).toEqual([turn({ start: 90_000 })]);
    expect(s.turns('p2')).toHaveLength(1);
  });
});

describe('retention', () => {
  const now = 100 * DAY_MS;
  const old = now - 31 * DAY_MS;
  const recent = now - 29 * DAY_MS;

  function seeded(retentionDays: number): HistoryStore {
    const s = store(join(tmp.make(), 'history.db'), { retentionDays, now: () => now });
    s.upsertPane(pane({ id: 'open' }));
    s.upsertPane(pane({ id: 'closed-old', closedAt: old }));
    s.upsertPane(pane({ id: 'closed-recent', closedAt: recent }));
    for (const id of ['open', 'closed-old', 'closed-recent']) {
      s.addTransition(transition({ paneId: id, at: old - 1_000 }));
      s.addTransition(transition({ paneId: id, at: recent }));
      s.saveTurn(turn({ paneId: id, start: old - 5_000, end: old - 1_000, result: 'done' }));
      s.saveTurn(turn({ paneId: id, start: old - 500 })); // still open
      s.saveTurn(turn({ paneId: id, start: recent, end: recent + 1, result: 'failed' }));
      s.addAction({ paneId: id, at: old - 1_000, kind: 'answer', origin: 'dashboard', from: '127.0.0.1', keys: '2', detail: 'Yes', rev: 3 });
      s.addAction({ paneId: id, at: recent, kind: 'ack', origin: 'cli', from: '127.0.0.1', keys: '', detail: '', rev: 4 });
    }
    return s;
  }

  it('deletes old transitions, old finished turns and panes closed before the cutoff, with their history', () => {
    const s = seeded(30);
    expect(s.prune()).toEqual({ transitions: 4, actions: 4, turns: 5, panes: 1 });
    expect(s.panes().map((p) => p.id).sort()).toEqual(['closed-recent', 'open']);
    expect(s.transitions('open').map((t) => t.at)).toEqual([recent]);
    expect(s.actions('open').map((a) => [a.at, a.kind])).toEqual([[recent, 'ack']]);
    expect(s.actions('closed-old')).toEqual([]);
    expect(s.turns('open').map((t) => t.start)).toEqual([recent, old - 500]);
    expect(s.transitions('closed-old')).toEqual([]);
    expect(s.turns('closed-old')).toEqual([]);
    expect(s.prune()).toEqual({ transitions: 0, actions: 0, turns: 0, panes: 0 });
    // an explicit now moves the cutoff
    expect(s.prune(now + 30 * DAY_MS)!.panes).toBe(1);
  });

  it('keeps everything when retentionDays is 0', () => {
    const s = seeded(0);
    expect(s.prune(now * 10)).toEqual({ transitions: 0, actions: 0, turns: 0, panes: 0 });
    expect(s.panes()).toHaveLength(3);
  });
});

describe('actions', () => {
  it('are kept newest first with who, from where and what, shown from memory until committed, and survive a reopen', () => {
    const path = join(tmp.make(), 'history.db');
    const s = store(path);
    const a = { paneId: 'p', at: 1_000, kind: 'answer' as const, origin: 'dashboard' as const, from: '127.0.0.1', keys: '↓ Enter', detail: 'Yes, always', rev: 7 };
    const b = { ...a, at: 2_000, kind: 'keys' as const, origin: 'task' as const, from: '', keys: 'continue Enter', detail: 'continue', rev: null };
    let saved: boolean | null = null;
    s.addAction(a, (ok) => (saved = ok));
    s.addAction(b);
    // Not flushed yet (flushMs is an hour): a read shows the queued rows, newest first.
    expect(s.actions('p')).toEqual([b, a]);
    expect(s.actions('p', 1)).toEqual([b]);
    s.flush();
    expect(saved).toBe(true);
    expect(onDisk<{ n: number }>(path, 'SELECT count(*) AS n FROM actions').n).toBe(2);
    s.close();
    open.splice(open.indexOf(s), 1);
    expect(store(path).actions('p')).toEqual([b, a]);
  });
});

describe('queued records', () => {
  it('are copies: a caller mutating its object afterwards does not change what is saved', () => {
    const s = store(join(tmp.make(), 'history.db'));
    const p = pane();
    const t = transition();
    s.upsertPane(p);
    s.addTransition(t);
    p.state = 'FAILED';
    t.to = 'FAILED';
    expect(s.pane('p1')!.state).toBe('IDLE');
    expect(s.transitions('p1')[0]!.to).toBe('RUNNING');
  });
});
