// The history store when the database will not take a write: the caller never sees a throw, the batch waits for
// the next flush, one bad record does not hold back the rest, and memory stays bounded.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore, type HistoryStoreOptions } from '../../src/store/history-store.js';
import { StoreError } from '../../src/store/store-error.js';
import type { TransitionRecord } from '../../src/store/records.js';
import { pane, tempDirs, transition } from '../helpers/store-fixtures.js';

const tmp = tempDirs();
const open: HistoryStore[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  tmp.cleanup();
});

function store(opts: HistoryStoreOptions = {}): { s: HistoryStore; path: string; errors: Error[] } {
  const path = join(tmp.make(), 'history.db');
  const errors: Error[] = [];
  const s = HistoryStore.open(path, { flushMs: 3_600_000, onError: (e) => errors.push(e), ...opts });
  open.push(s);
  return { s, path, errors };
}

describe('write failures', () => {
  it('a locked database: flush reports, keeps the batch, and commits it once the lock is gone', () => {
    const { s, path, errors } = store();
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE'); // another writer holds the write lock
    s.upsertPane(pane());
    s.addTransition(transition());
    expect(s.flush()).toBe(false);
    expect(s.queued).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(StoreError);
    expect((errors[0]!.cause as { code: string }).code).toMatch(/^SQLITE_BUSY/);
    s.addTransition(transition({ at: 3_000 }));
    other.exec('ROLLBACK');
    other.close();
    expect(s.flush()).toBe(true);
    expect(s.transitions('p1').map((t) => t.at)).toEqual([3_000, 2_000]);
    expect(s.pane('p1')).toEqual(pane());
    expect(s.dropped).toBe(0);
  });

  it('a record the database rejects is dropped alone and reported; the rest of the batch commits', () => {
    const { s, errors } = store();
    s.addTransition(transition({ at: 1 }));
    s.addTransition({ ...transition({ at: 2 }), rule: null } as unknown as TransitionRecord);
    s.addTransition({ ...transition(), at: {} } as unknown as TransitionRecord);
    s.addTransition(transition({ at: 4 }));
    expect(s.flush()).toBe(true);
    expect(s.rejected).toBe(2);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/rejected \(t\).*NOT NULL/),
      expect.stringMatching(/rejected \(t\).*can only bind/),
    ]);
    expect(s.transitions('p1').map((t) => t.at)).toEqual([4, 1]);
    expect(s.commits).toBe(1);
  });

  it('beyond the queue cap the oldest writes are dropped, counted and reported once', () => {
    const { s, errors } = store({ maxQueued: 10 });
    for (let i = 0; i < 15; i++) s.addTransition(transition({ at: i }));
    expect(s.queued).toBe(10);
    expect(s.dropped).toBe(5);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/queue full/);
    expect(s.transitions('p1').map((t) => t.at)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
    s.addTransition(transition({ at: 20 }));
    expect(errors).toHaveLength(1); // the flush went through: nothing new to say
    for (let i = 0; i < 10; i++) s.addTransition(transition({ at: 30 + i }));
    expect(s.dropped).toBe(6);
    expect(errors).toHaveLength(2);
  });

  it('an onError that throws does not reach the caller', () => {
    const { s, path } = store({ maxQueued: 1, onError: () => { throw new Error('logger broke'); } });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    expect(() => {
      s.addTransition(transition());
      s.addTransition(transition());
      s.flush();
    }).not.toThrow();
    other.exec('ROLLBACK');
    other.close();
  });
});

describe('close', () => {
  it('flushes, is idempotent, and later writes are dropped without a throw', () => {
    const { s, path } = store();
    s.addTransition(transition());
    s.close();
    s.close();
    expect(() => s.addTransition(transition())).not.toThrow();
    expect(s.dropped).toBe(1);
    expect(() => s.transitions('p1')).toThrow(StoreError);
    const again = HistoryStore.open(path);
    open.push(again);
    expect(again.transitions('p1')).toHaveLength(1);
  });
});
