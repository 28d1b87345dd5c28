// `run`'s event log is bounded like daemon.log (issue 27, item 2: a mark flood grew events.jsonl to 161 MB): past
// log.max_bytes it moves to events.jsonl.1 … .keep; several wrappers append to one file, and one that finds the
// file rotated by another follows it. Real files in a temp folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog, type LogEvent } from '../../src/cli/event-log.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const MAX = 16 << 10;
const KEEP = 2;

function record(pane: string, i: number): LogEvent {
  return { ts: new Date(0).toISOString(), kind: 'transition', pane, name: 'x', program: 'shell', t: i, state: 'DONE', from: 'RUNNING', tier: 1, rule: 'osc133.command_finished', line: `exit 0 #${i}`, started_at: 0, stalled: false };
}

describe('the run event log rotates by size', () => {
  it('two wrappers appending 4 MB between them: no file past the bound, at most keep old files, whole lines only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-evlog-'));
    dirs.push(dir);
    const path = join(dir, 'events.jsonl');
    const a = new EventLog(path, { maxBytes: MAX, keep: KEEP });
    const b = new EventLog(path, { maxBytes: MAX, keep: KEEP });
    let written = 0;
    for (let i = 0; written < 4 << 20; i++) {
      const w = i % 3 ? a : b;
      w.append(record(w === a ? 'a' : 'b', i));
      written += JSON.stringify(record('a', i)).length + 1;
    }
    a.close();
    b.close();
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['events.jsonl', 'events.jsonl.1', 'events.jsonl.2']);
    for (const f of files) {
      expect(statSync(join(dir, f)).size, f).toBeLessThanOrEqual(MAX);
      for (const line of readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    }
    // The newest records are in the live file, from both writers.
    const live = readFileSync(path, 'utf8');
    expect(live).toContain('"pane":"a"');
    expect(live).toContain('"pane":"b"');
    expect(a.dropped + b.dropped).toBe(0);
  });
});
