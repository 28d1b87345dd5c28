// The merge behind `termsupervisor logs`: lines of several files in time order, and a transition two logs hold
// (a `run` pane's, written by its wrapper and by the daemon) once.
import { describe, expect, it } from 'vitest';
import { LogMerge, SAME_TRANSITION_MS } from '../../src/cli/log-merge.js';

const T0 = Date.parse('2026-03-04T05:06:07.000Z');
const runLine = (ms: number, from: string, to: string, pane = 'run-1') => JSON.stringify({ ts: new Date(T0 + ms).toISOString(), kind: 'transition', pane, name: 'api', state: to, from, tier: 1, rule: 'r' });
const daemonLine = (ms: number, from: string, to: string, pane = 'run-1') => JSON.stringify({ level: 'info', time: new Date(T0 + ms).toISOString(), pane, name: 'api', kind: 'transition', from, to, tier: 1, rule: 'r' });
const note = (ms: number, msg: string) => JSON.stringify({ level: 'info', time: new Date(T0 + ms).toISOString(), kind: 'daemon', msg });

describe('LogMerge', () => {
  it('orders a batch by time across sources; a line without a time stays after its predecessor', () => {
    const m = new LogMerge();
    m.add(0, runLine(100, 'IDLE', 'RUNNING'));
    m.add(0, 'not json');
    m.add(0, runLine(900, 'RUNNING', 'DONE'));
    m.add(1, note(50, 'started'));
    m.add(1, note(500, 'middle'));
    expect(m.take()).toEqual([note(50, 'started'), runLine(100, 'IDLE', 'RUNNING'), 'not json', note(500, 'middle'), runLine(900, 'RUNNING', 'DONE')]);
    expect(m.take()).toEqual([]);
  });

  it("drops the other log's copy of a transition, keeps real repeats and other panes' transitions", () => {
    const m = new LogMerge();
    m.add(0, runLine(100, 'IDLE', 'RUNNING'));
    m.add(1, daemonLine(104, 'IDLE', 'RUNNING'));
    m.add(1, daemonLine(104, 'IDLE', 'RUNNING', 'run-2'));
    expect(m.take()).toEqual([runLine(100, 'IDLE', 'RUNNING'), daemonLine(104, 'IDLE', 'RUNNING', 'run-2')]);
    // A copy that comes in a later batch (the other file was read later) is still the same transition.
    m.add(1, daemonLine(2000, 'IDLE', 'RUNNING'));
    // The same source's repeat is a real one (a new turn); so is another source's long after.
    m.add(0, runLine(1000, 'IDLE', 'RUNNING'));
    m.add(1, daemonLine(100 + SAME_TRANSITION_MS + 5000, 'IDLE', 'RUNNING'));
    expect(m.take()).toEqual([runLine(1000, 'IDLE', 'RUNNING'), daemonLine(100 + SAME_TRANSITION_MS + 5000, 'IDLE', 'RUNNING')]);
  });
});
