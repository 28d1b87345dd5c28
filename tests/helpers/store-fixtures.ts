// Records and temp folders for the history store tests: every test gets its own real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PaneRecord, TransitionRecord, TurnRecord } from '../../src/store/records.js';

export function tempDirs(): { make: () => string; cleanup: () => void } {
  const dirs: string[] = [];
  return {
    make: () => {
      const d = mkdtempSync(join(tmpdir(), 'ts-store-'));
      dirs.push(d);
      return d;
    },
    cleanup: () => {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

export function pane(over: Partial<PaneRecord> = {}): PaneRecord {
  return {
    id: 'p1', name: 'claude', program: 'claude', attach: 'run', command: 'claude', cols: 120, rows: 40,
    createdAt: 1_000, lastSeenAt: 1_000, closedAt: null, state: 'IDLE', since: 1_000, startedAt: 1_000, tier: 0,
    source: 'timer', rule: '', line: '', stalled: false, ...over,
  };
}

export function transition(over: Partial<TransitionRecord> = {}): TransitionRecord {
  return {
    paneId: 'p1', at: 2_000, from: 'IDLE', to: 'RUNNING', tier: 2, source: 'profile', rule: 'claude.spinner',
    line: '✳ Thinking…', stalled: false, startedAt: 2_000, startedAtKept: false, ...over,
  };
}

export function turn(over: Partial<TurnRecord> = {}): TurnRecord {
  return { paneId: 'p1', start: 2_000, end: null, durationS: null, result: null, prompt: 'fix the tests', ...over };
}
