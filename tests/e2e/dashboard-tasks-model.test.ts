// The dashboard's pure task logic (no browser): which buttons a status offers, which live changes alert (and never
// what had ended before the page looked), which task drives a pane, the form's request, the merged timeline.
import { describe, expect, it } from 'vitest';
import { canResume, canRetry, canStop, drivesPane, mergeEvents, progress, TaskAlerts, taskAlert, taskAlertText, TaskIndex, taskRequest, type TaskStatus } from '../../web/src/task-model.js';
import { defaults, parseSettings } from '../../web/src/settings.js';
import type { TaskEventView, TaskView } from '../../src/web/api-types.js';

const STATUSES: TaskStatus[] = ['PENDING', 'RUNNING', 'PAUSED', 'FINISHED', 'FAILED', 'EXHAUSTED', 'STOPPED'];

function task(id: string, over: Partial<TaskView> = {}, spec: Partial<TaskView['spec']> = {}): TaskView {
  return {
    id, status: 'RUNNING', reason: 'running', reasonCode: null, phase: 'sent', iterations: 1, nextPrompt: 'continue', consecutiveFailures: 0, tokensUsed: 10, agentMs: 0,
    proposed: null, warnings: [], recentSends: [], slowReflections: 0, loop: { edges: [], continuations: [] }, lastTurnEnd: null, createdAt: 1000, updatedAt: 1000, endedAt: null,
    spec: {
      pane: 'p1', prompt: 'do it', goal: 'do it', continueText: 'continue', judge: false, approve: [], cwd: null,
      criteria: { success: [], failure: [], successWords: [], failureWords: [], until: null, check: null, region: { kind: 'edge' } },
      limits: { maxIterations: 10, maxRuntimeS: 3600, heartbeatS: 300, onStall: 'pause', maxConsecutiveFailures: 3, cooldownS: 1, maxActivationsPerHour: 60, tokenBudget: 0, loopTurns: 3, reflectEvery: 5, riskThreshold: 0.7 },
      ...spec,
    },
    ...over,
  };
}

const ev = (at: number, kind: string, detail = ''): TaskEventView => ({ taskId: 't', at, kind, detail });

describe('dashboard tasks model', () => {
  it('buttons: Stop while it drives the pane, Resume when paused, Retry when exhausted or failed', () => {
    const offered = (s: TaskStatus) => [canStop(s) && 'stop', canResume(s) && 'resume', canRetry(s) && 'retry'].filter(Boolean);
    expect(Object.fromEntries(STATUSES.map((s) => [s, offered(s)]))).toEqual({
      PENDING: ['stop'],
      RUNNING: ['stop'],
      PAUSED: ['stop', 'resume'],
      FINISHED: [],
      FAILED: ['retry'],
      EXHAUSTED: ['retry'],
      STOPPED: [],
    });
    expect(STATUSES.filter(drivesPane)).toEqual(['PENDING', 'RUNNING', 'PAUSED']);
  });

  it('alerts: FINISHED is its own kind; PAUSED, FAILED, EXHAUSTED need the person; STOPPED and repeats are no news', () => {
    expect(taskAlert('RUNNING', { status: 'FINISHED' })).toBe('task_finished');
    for (const s of ['PAUSED', 'FAILED', 'EXHAUSTED'] as const) expect(taskAlert('RUNNING', { status: s })).toBe('task_needs');
    expect(taskAlert('RUNNING', { status: 'STOPPED' })).toBeNull();
    expect(taskAlert('PENDING', { status: 'RUNNING' })).toBeNull();
    expect(taskAlert('PAUSED', { status: 'PAUSED' })).toBeNull(); // saved again, same status
    expect(taskAlert(undefined, { status: 'FINISHED' })).toBe('task_finished'); // new since the page loaded, ended live
  });

  it('alerts never fire for what had ended before the page looked, once per change, and never for a stale copy', () => {
    const a = new TaskAlerts();
    a.baseline([task('old', { status: 'FINISHED', updatedAt: 50 }), task('paused', { status: 'PAUSED', updatedAt: 60 })]);
    expect(a.change(task('old', { status: 'FINISHED', updatedAt: 50 }))).toBeNull();
    expect(a.change(task('paused', { status: 'PAUSED', updatedAt: 70 }))).toBeNull();
    expect(a.change(task('paused', { status: 'RUNNING', updatedAt: 80 }))).toBeNull();
    expect(a.change(task('paused', { status: 'PAUSED', updatedAt: 90 }))).toBe('task_needs');
    expect(a.change(task('paused', { status: 'PAUSED', updatedAt: 91 }))).toBeNull();
    expect(a.change(task('paused', { status: 'RUNNING', updatedAt: 85 }))).toBeNull(); // older than told: ignored
    // a list fetched on reconnect: newer copies move the baseline, older ones do not
    a.baseline([task('paused', { status: 'EXHAUSTED', updatedAt: 100 })]);
    expect(a.change(task('paused', { status: 'EXHAUSTED', updatedAt: 101 }))).toBeNull();
    a.baseline([task('paused', { status: 'RUNNING', updatedAt: 10 })]);
    expect(a.change(task('paused', { status: 'FINISHED', updatedAt: 102 }))).toBe('task_finished');
  });

  it('alert text names the pane, the reason and the prompt', () => {
    const t = task('t', { status: 'EXHAUSTED', reason: '2 of 2 iterations used', iterations: 2 });
    expect(taskAlertText('task_needs', t, 'api')).toEqual({ title: 'Task on api needs you (EXHAUSTED)', body: '2 of 2 iterations used · 2 iterations · do it' });
    expect(taskAlertText('task_finished', task('t', { status: 'FINISHED', reason: 'check passed', iterations: 1 }), 'api').title).toBe('Task on api finished');
  });

  it('the index: a pane\'s tasks newest first, the one driving it, and an older copy never replaces a newer', () => {
    const i = new TaskIndex();
    i.merge([task('a', { status: 'FINISHED', createdAt: 1 }), task('b', { status: 'PAUSED', createdAt: 2 }), task('c', { createdAt: 3 }, { pane: 'p2' })]);
    expect(i.forPane('p1').map((t) => t.id)).toEqual(['b', 'a']);
    expect(i.driving('p1')?.id).toBe('b');
    expect(i.driving('p3')).toBeNull();
    expect([...i.panes()].sort()).toEqual(['p1', 'p2']);
    i.upsert(task('b', { status: 'STOPPED', createdAt: 2, updatedAt: 2000 }));
    expect(i.driving('p1')).toBeNull();
    i.upsert(task('b', { status: 'PAUSED', createdAt: 2, updatedAt: 1500 })); // a list fetched before the stop
    expect(i.get('b')?.status).toBe('STOPPED');
  });

  it('progress: iterations of the maximum, tokens of the budget when there is one', () => {
    expect(progress(task('t', { iterations: 2, tokensUsed: 345 }))).toEqual({ iterations: '2/10', tokens: '345' });
    const budget = task('t', { tokensUsed: 40 });
    budget.spec.limits.tokenBudget = 500;
    expect(progress(budget).tokens).toBe('40/500');
  });

  it('the form: empty fields left to the daemon, failure as a one-item list, problems the page can see itself', () => {
    const blank = { prompt: '', until: '', failure: '', check: '', maxIterations: '', judge: false };
    expect(taskRequest('p1', { ...blank, prompt: '  fix the tests ' })).toEqual({ body: { pane: 'p1', prompt: 'fix the tests' }, problems: [] });
    expect(taskRequest('p1', { prompt: 'go', until: 'all pass', failure: 'FATAL: .*', check: 'npm test', maxIterations: '5', judge: true }).body).toEqual({
      pane: 'p1', prompt: 'go', until: 'all pass', failure: ['FATAL: .*'], check: 'npm test', maxIterations: 5, judge: true,
    });
    expect(taskRequest('p1', blank).problems).toEqual(['prompt: required']);
    for (const bad of ['0', '2.5', 'ten', '-1']) expect(taskRequest('p1', { ...blank, prompt: 'x', maxIterations: bad }).problems).toEqual(['maxIterations: expected a whole number ≥ 1']);
    // a regex the daemon will refuse is its to say (the 400's problems are shown as they come)
    expect(taskRequest('p1', { ...blank, prompt: 'x', until: '(' }).problems).toEqual([]);
  });

  it('the timeline: live events and fetched ones merged, oldest first, each once', () => {
    const live = [ev(3, 'sent', '#1: go'), ev(5, 'turn_started')];
    const fetched = [ev(1, 'created', 'go'), ev(3, 'sent', '#1: go'), ev(2, 'started', 'go')];
    expect(mergeEvents(live, fetched).map((e) => e.kind)).toEqual(['created', 'started', 'sent', 'turn_started']);
    expect(mergeEvents([], [])).toEqual([]);
    // two events at the same millisecond stay two
    expect(mergeEvents([ev(1, 'check', 'exit 1')], [ev(1, 'judge', 'continue')])).toHaveLength(2);
  });

  it('settings: the task tones have their own switches, on by default, remembered like the others', () => {
    expect(defaults().kinds).toMatchObject({ task_needs: true, task_finished: true });
    expect(parseSettings(JSON.stringify({ kinds: { task_finished: false } })).kinds).toMatchObject({ task_needs: true, task_finished: false, DONE: true });
  });
});
