// Crash safety: a process writing a burst of transitions is SIGKILLed mid-burst. Reopening must recover the WAL,
// keep every batch the child reported committed, and hold only whole batches (a flush is one transaction).
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { HistoryStore } from '../../src/store/history-store.js';
import { bundleScript } from '../helpers/store-bundle.js';
import { tempDirs } from '../helpers/store-fixtures.js';

const BATCH = 50;
/** Commits the child must report before it is killed: enough that the kill lands in a running burst. */
const KILL_AFTER = 20 * BATCH;

const tmp = tempDirs();
afterAll(() => tmp.cleanup());

it('keeps every committed transition after SIGKILL mid-burst, and only whole batches', async () => {
  const dir = tmp.make();
  const path = join(dir, 'history.db');
  const script = await bundleScript(fileURLToPath(new URL('../helpers/store-crash-child.ts', import.meta.url)), dir);
  const child = spawn(process.execPath, [script, path, String(BATCH)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let reported = 0;
  let pending = '';
  const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
  child.stdout.on('data', (d: Buffer) => {
    const lines = (pending + d.toString()).split('\n');
    pending = lines.pop()!;
    for (const l of lines) reported = Math.max(reported, Number(l));
    if (reported >= KILL_AFTER && child.exitCode === null && !child.killed) child.kill('SIGKILL');
  });
  const signal = await exited;
  expect(stderr).toBe('');
  expect(signal).toBe('SIGKILL');
  expect(reported).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(existsSync(`${path}-wal`)).toBe(true); // killed with its WAL open: the reopen below recovers it

  const s = HistoryStore.open(path);
  const raw = new Database(path, { readonly: true });
  try {
    const n = raw.prepare('SELECT count(*) FROM transitions').pluck().get() as number;
    expect(n).toBeGreaterThanOrEqual(reported);
    expect(n % BATCH).toBe(0);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(s.transitions('p1', 1)[0]!.at).toBe(n - 1);
  } finally {
    raw.close();
    s.close();
  }
});
