// The task loop on a scripted pane in virtual time (fake timers): the guardrails that need long waits or rare
// failures — failed turns in a row, prompts that start nothing, agent time, the hourly cap, a pane that goes away
// or cannot be typed into — and approvals not counted as agent time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { parseTaskRequest } from '../../src/tasks/task-spec.js';
import { TaskRunner, type PaneAccess, type RunnerDeps } from '../../src/tasks/task-runner.js';
import type { IterationRecord, TaskEvent, TaskRecord } from '../../src/tasks/task-types.js';
import type { PaneView } from '../../src/web/api-types.js';

const cfg = { ...loadConfig().tasks, cooldown_s: 0.5, ready_stable_s: 0.5, settle_s: 0.5, turn_start_timeout_s: 5, pane_wait_s: 10 };

/** A pane whose program reacts to typed prompts as the test scripts it. */
class ScriptedPane implements PaneAccess {
  v: PaneView = { id: 'p', name: 'p', program: 'generic', state: 'IDLE', since: Date.now(), startedAt: Date.now(), source: 'timer', tier: 0, rule: '', line: '', stalled: false, cols: 80, rows: 24, attach: 'run', command: 'agent', alive: true, needsYou: false, edge: [], shellIntegration: false, exitCodeUnknown: false, analysisError: null, rev: 0, question: null };
  text = '> ';
  typed: string[] = [];
  typable = true;
  react: (prompt: string) => void = () => {};

  view(id: string) {
    return id === 'p' ? { ...this.v } : null;
  }
  screen() {
    return this.v.alive ? this.text : null;
  }
  verdict() {
    return this.v.state === 'RUNNING' ? 'working' : 'ready';
  }
  async type(_id: string, text: string, enter: boolean) {
    if (!this.typable) return false;
    this.typed.push(text);
    if (enter) this.react(text);
    return true;
  }
  to(state: PaneView['state'], text = this.text, line = '') {
    const now = Date.now();
    const fromRest = !['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL'].includes(this.v.state);
    this.v = { ...this.v, state, since: now, startedAt: fromRest && state !== 'IDLE' && state !== 'DONE' && state !== 'FAILED' ? now : this.v.startedAt, line };
    this.text = text;
  }
  /** After `afterMs` the prompt starts work; `workMs` later the turn ends in `end` with `text`. */
  turns(end: 'DONE' | 'FAILED', workMs: number, text = (n: number) => `result ${'abcdefgh'.slice(0, n)}\n> `) {
    let n = 0;
    this.react = () => {
      n++;
      const k = n;
      setTimeout(() => this.to('RUNNING', `working on ${k}`), 100);
      setTimeout(() => this.to(end, text(k)), 100 + workMs);
    };
  }
}

function rig(body: Record<string, unknown>, pane = new ScriptedPane()) {
  const spec = parseTaskRequest({ pane: 'p', prompt: 'go', until: 'never printed', ...body }, cfg);
  const now = Date.now();
  const t: TaskRecord = {
    id: 't-1', spec, status: 'PENDING', reason: '', reasonCode: null, phase: 'start', iterations: 0, nextPrompt: spec.prompt, consecutiveFailures: 0,
    tokensUsed: 0, agentMs: 0, proposed: null, warnings: [], recentSends: [], slowReflections: 0, loop: { edges: [], continuations: [] }, lastTurnEnd: null,
    createdAt: now, updatedAt: now, endedAt: null,
  };
  const its = new Map<number, IterationRecord>();
  const events: TaskEvent[] = [];
  const notes: string[] = [];
  const deps: RunnerDeps = {
    panes: pane,
    save: () => {},
    saveIteration: (it) => its.set(it.n, structuredClone(it)),
    iterations: () => [...its.values()].sort((a, b) => a.n - b.n).map((i) => structuredClone(i)),
    event: (e) => events.push(e),
    notify: (_t, kind) => notes.push(kind),
    cfg,
    judge: null,
    check: async () => ({ exitCode: 1, output: '' }),
    redact: (s) => s,
    now: () => Date.now(),
  };
  const runner = new TaskRunner(t, deps);
  return { t, pane, runner, its, events, notes, kinds: () => events.map((e) => e.kind) };
}

/** Advances virtual time until the task leaves RUNNING (or the limit). */
async function settle(t: TaskRecord, limitMs = 4 * 3600_000) {
  for (let waited = 0; waited < limitMs && (t.status === 'RUNNING' || t.status === 'PENDING'); waited += 1000) await vi.advanceTimersByTimeAsync(1000);
}

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
afterEach(() => vi.useRealTimers());

describe('task runner guardrails', () => {
  it('FAILED after max consecutive failed turns', async () => {
    const pane = new ScriptedPane();
    pane.turns('FAILED', 1000, (n) => `error ${n}\n> `);
    const r = rig({ maxConsecutiveFailures: 3 }, pane);
    await settle(r.t);
    expect(r.t).toMatchObject({ status: 'FAILED', reasonCode: 'agent_failed', iterations: 3 });
    expect(pane.typed.filter((x) => x !== '')).toEqual(['go', 'continue', 'continue']);
    expect(r.notes).toEqual(['needs_you']);
  });

  it('a prompt that starts no turn counts as a failure (no_response)', async () => {
    const r = rig({ maxConsecutiveFailures: 2 });
    await settle(r.t);
    expect(r.t).toMatchObject({ status: 'FAILED', reasonCode: 'agent_failed', iterations: 2 });
    expect([...r.its.values()].map((i) => i.result)).toEqual(['no_response', 'no_response']);
  });

  it('EXHAUSTED by agent time during a turn that never ends (the screen keeps changing, so it is no stall)', async () => {
    const pane = new ScriptedPane();
    let tick = 0;
    pane.react = () => {
      pane.to('RUNNING', 'working 0');
      setInterval(() => (pane.text = `working ${'.'.repeat(++tick % 50)}`), 500);
    };
    const r = rig({ maxRuntimeS: 30 }, pane);
    await settle(r.t);
    expect(r.t).toMatchObject({ status: 'EXHAUSTED', reasonCode: 'max_runtime', iterations: 1 });
    expect(r.t.agentMs).toBeGreaterThanOrEqual(30_000);
  });

  it('the hourly cap holds the next prompt back until the hour has passed', async () => {
    const pane = new ScriptedPane();
    pane.turns('DONE', 500);
    const r = rig({ maxActivationsPerHour: 2, maxIterations: 3 }, pane);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(r.t.iterations).toBe(2);
    expect(r.events.some((e) => e.kind === 'waiting' && /2 prompts in the last hour/.test(e.detail))).toBe(true);
    await settle(r.t);
    expect(r.t).toMatchObject({ status: 'EXHAUSTED', reasonCode: 'max_iterations', iterations: 3 });
    const sends = [...r.its.values()].map((i) => i.sentAt);
    expect(sends[2]! - sends[0]!).toBeGreaterThanOrEqual(3600_000);
  });

  it('PAUSED when the pane goes away and does not come back', async () => {
    const pane = new ScriptedPane();
    pane.react = () => setTimeout(() => (pane.v = { ...pane.v, alive: false }), 200);
    const r = rig({}, pane);
    await settle(r.t);
    expect(r.t).toMatchObject({ status: 'PAUSED', reasonCode: 'pane_gone' });
    expect(r.kinds()).toContain('pane_gone');
  });

  it('PAUSED when the pane cannot be typed into', async () => {
    const pane = new ScriptedPane();
    pane.typable = false;
    const r = rig({}, pane);
    await settle(r.t);
    expect(r.t).toMatchObject({ status: 'PAUSED', reasonCode: 'pane_cannot_type' });
  });

  it('time waiting on the person at an approval is not agent time; nothing is typed into the question', async () => {
    const pane = new ScriptedPane();
    pane.react = () => {
      setTimeout(() => pane.to('RUNNING', 'working'), 100);
      setTimeout(() => pane.to('WAITING_APPROVAL', 'Allow? [y/n]', 'Allow? [y/n]'), 2000);
      setTimeout(() => pane.to('RUNNING', 'working again'), 600_000); // the person answers after 10 minutes
      setTimeout(() => pane.to('DONE', 'RESULT ok\n> '), 603_000);
    };
    const r = rig({ until: 'RESULT ok', maxRuntimeS: 60 }, pane);
    await settle(r.t);
    expect(r.t).toMatchObject({ status: 'FINISHED', reasonCode: 'until_matched', iterations: 1 });
    expect(r.t.agentMs).toBeLessThan(60_000);
    expect(r.its.get(1)!.approvalMs).toBeGreaterThanOrEqual(590_000);
    expect(pane.typed).toEqual(['go']);
    expect(r.notes).toEqual(['finished']); // the approval itself is the pane's notification, not the task's
    expect(r.kinds()).toContain('approval_waiting');
  });
});
