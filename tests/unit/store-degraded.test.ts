// The history store on a disk that fills up while it runs (a real small tmpfs when this machine can mount one,
// else SQLite's page limit: the test says which): history becomes degraded with the cause, nothing throws, waiters
// are told the row is not saved yet, reads still show every accepted write, and once space is back the store
// recovers by itself with nothing accepted lost. Also: bounded batches make progress in a little space, and the
// retention prune never throws on a storage failure.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../src/store/history-store.js';
import type { HealthChange } from '../../src/store/store-health.js';
import { pane, transition } from '../helpers/store-fixtures.js';
import { smallDisk, type SmallDisk } from '../helpers/small-disk.js';

const disks: SmallDisk[] = [];
const stores: HistoryStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of disks.splice(0)) d.cleanup();
});

function conn(s: HistoryStore): Database.Database {
  return (s as unknown as { db: Database.Database }).db; // the store's own connection (the page-limit fallback)
}

function onDisk(path: string): number {
  const raw = new Database(path, { readonly: true });
  try {
    return raw.prepare('SELECT count(*) FROM transitions').pluck().get() as number;
  } finally {
    raw.close();
  }
}

async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a full disk while running', () => {
  it('degraded with the cause, then recovered by itself with nothing accepted lost', async () => {
    const disk = smallDisk();
    disks.push(disk);
    console.info(`full-disk test on: ${disk.kind}`);
    const path = join(disk.dir, 'history.db');
    const changes: HealthChange[] = [];
    const errors: Error[] = [];
    const s = HistoryStore.open(path, { flushMs: 50, onError: (e) => errors.push(e), onHealth: (c) => changes.push(c) });
    stores.push(s);
    s.upsertPane(pane());
    expect(s.flush()).toBe(true);

    disk.fill(conn(s));
    const saved: boolean[] = [];
    let accepted = 0;
    // Write until the disk refuses (the WAL's own free room is used up first).
    for (let round = 0; round < 400 && s.health().status === 'ok'; round++) {
      for (let i = 0; i < 50; i++) s.addTransition(transition({ at: accepted++, line: `row ${accepted} ${'x'.repeat(300)}` }), (ok) => saved.push(ok));
      expect(() => s.flush()).not.toThrow();
    }
    const h = s.health();
    expect(h.status).toBe('degraded');
    expect(h.op).toBe('write');
    expect(h.cause).toMatch(/SQLITE_FULL|disk is full/);
    expect(h.queued).toBeGreaterThan(0);
    expect(changes.map((c) => c.health.status)).toEqual(['degraded']);
    expect(errors.some((e) => /history flush failed/.test(e.message))).toBe(true);
    // Every waiter heard back: saved, or not (yet) while degraded; none left hanging.
    expect(saved).toHaveLength(accepted);
    expect(saved.filter((x) => !x).length).toBeGreaterThan(0);
    // Written while degraded: told at once that it is not saved yet.
    let late: boolean | null = null;
    s.addTransition(transition({ at: accepted++ }), (ok) => (late = ok));
    expect(late).toBe(false);
    // Reads show what waits in memory too: nothing accepted is missing from the API's answer.
    expect(s.transitions('p1', 100_000)).toHaveLength(accepted);
    expect(onDisk(path)).toBeLessThan(accepted);

    disk.free(conn(s));
    await until('the store to recover by itself', () => s.health().status === 'ok');
    expect(changes.map((c) => c.health.status)).toEqual(['degraded', 'ok']);
    expect(changes[1]!.degradedMs).toBeGreaterThanOrEqual(0);
    expect(s.health()).toMatchObject({ recoveries: 1, queued: 0, dropped: 0 });
    expect(onDisk(path)).toBe(accepted);
    expect(new Set(s.transitions('p1', 100_000).map((t) => t.at)).size).toBe(accepted);
  });

  it('a backlog larger than the free space still makes progress, one bounded batch at a time', () => {
    const disk = smallDisk();
    disks.push(disk);
    const path = join(disk.dir, 'history.db');
    const s = HistoryStore.open(path, { flushMs: 3_600_000, maxBatch: 50, onError: () => {} });
    stores.push(s);
    s.upsertPane(pane());
    s.flush();
    disk.fill(conn(s));
    disk.room(conn(s), 256 << 10); // room for a part of the backlog, far from all of it
    for (let i = 0; i < 5_000; i++) s.addTransition(transition({ at: i, line: 'y'.repeat(200) }));
    expect(s.flush()).toBe(false);
    // Not all or nothing: the batches that fitted were committed and left the queue.
    expect(onDisk(path)).toBeGreaterThan(0);
    expect(s.queued).toBe(5_000 - onDisk(path));
    disk.free(conn(s));
    expect(s.flush()).toBe(true);
    expect(onDisk(path)).toBe(5_000);
  });

  it('the retention prune reports a storage failure instead of throwing, and is tried again', () => {
    const path = join(smallDiskFor(), 'history.db');
    const s = HistoryStore.open(path, { flushMs: 3_600_000, retentionDays: 1, onError: () => {} });
    stores.push(s);
    const other = new Database(path);
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE'); // another writer holds the lock past the store's busy timeout
    let pruned: unknown;
    expect(() => (pruned = s.prune(Date.now()))).not.toThrow();
    expect(pruned).toBeNull();
    expect(s.health()).toMatchObject({ status: 'degraded', op: 'prune' });
    other.exec('ROLLBACK');
    other.close();
    s.addTransition(transition());
    expect(s.flush()).toBe(true); // the pending prune runs after the flush, and goes through
    expect(s.health().status).toBe('ok');
  });
});

function smallDiskFor(): string {
  const d = smallDisk();
  disks.push(d);
  return d.dir;
}
