// Guardrails of supervised tasks: EXHAUSTED by iterations and by token budget (then retried to FINISHED), PAUSED
// by loop detection, a risky judge continuation and a stalled turn; approvals answered only when allowed.
import { describe, expect, it } from 'vitest';
import { assertBuilt } from './harness.js';
import { api, lines, startTask, taskReaches, taskScratch } from './task-harness.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import type { TaskView } from '../../src/web/api-types.js';

assertBuilt();
const { rig, cleanups } = taskScratch();
const ENDS = ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'];

describe('supervised tasks: guardrails', () => {
  it('EXHAUSTED by max iterations, then retried with more iterations, goes on where it stopped to FINISHED', async () => {
    const r = await rig(['--finish-after', '3']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'step', until: 'all tests pass', maxIterations: 2 });
    let d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('EXHAUSTED');
    expect(d.task.reasonCode).toBe('max_iterations');
    expect(lines(r.files.echo)).toEqual(['step', 'continue']);
    expect((await api(r.dm, 'POST', `/api/tasks/${t.id}/resume`)).status).toBe(409); // exhausted is retried, not resumed
    const retry = await api<TaskView>(r.dm, 'POST', `/api/tasks/${t.id}/retry`, {});
    expect(retry.status).toBe(200);
    expect(retry.body.spec.limits.maxIterations).toBe(12); // default +10
    d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('FINISHED');
    expect(d.task.iterations).toBe(3);
    expect(lines(r.files.echo)).toEqual(['step', 'continue', 'continue']);
    expect(d.events.map((e) => e.kind)).toContain('retried');
  });

  it('EXHAUSTED by the token budget (characters typed and read), then retried with more budget to FINISHED', async () => {
    const r = await rig(['--finish-after', '3']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'step', until: 'all tests pass', tokenBudget: 40 });
    let d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('EXHAUSTED');
    expect(d.task.reasonCode).toBe('token_budget');
    expect(d.task.tokensUsed).toBeGreaterThanOrEqual(40);
    const used = d.task.iterations;
    expect(used).toBeLessThan(3);
    const retry = await api<TaskView>(r.dm, 'POST', `/api/tasks/${t.id}/retry`, { budget: 1000 });
    expect(retry.body.spec.limits.tokenBudget).toBeGreaterThan(1000);
    d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('FINISHED');
    expect(d.task.iterations).toBe(3);
  });

  it('PAUSED by loop detection: the same screen after 3 turns in a row; resume goes on', async () => {
    const r = await rig(['--loop']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'fix it', until: 'never printed', loopTurns: 3 });
    const d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('PAUSED');
    expect(d.task.reasonCode).toBe('loop');
    expect(d.task.iterations).toBe(3);
    expect(d.task.reason).toMatch(/same 3 turns in a row/);
    const resumed = await api<TaskView>(r.dm, 'POST', `/api/tasks/${t.id}/resume`);
    expect(resumed.body.status).toBe('RUNNING');
    await taskReaches(r.dm, t.id, ['RUNNING'], r.w);
    expect((await api(r.dm, 'POST', `/api/tasks/${t.id}/stop`)).status).toBe(200);
  });

  it('reflection every N iterations: no new lines and repeated turns pause the task with suggestions', async () => {
    const r = await rig(['--loop']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'fix it', until: 'never printed', loopTurns: 10, reflectEvery: 2 });
    const d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('PAUSED');
    expect(d.task.reasonCode).toBe('loop');
    expect(d.task.iterations).toBe(4); // the 1st reflection (after 2) saw new text, the 2nd only repeats
    expect(d.task.reason).toMatch(/stuck and looping .* suggestions: /);
    expect(d.events.filter((e) => e.kind === 'reflection').map((e) => e.detail.split(' (')[0])).toEqual(['good, looping', 'stuck, looping']);
  });

  it('PAUSED by a risky continuation: the judge wants something dangerous, nothing is typed until the person resumes', async () => {
    const judge = await startFakeOpenAI(() => ({
      json: { continuation_prompt: 'delete the production database', continuation_prompt_risk: 0.95, task_complete: false, task_complete_reason: 'not yet', confidence: 0.8 },
    }));
    cleanups.push(() => judge.close());
    const r = await rig([], { judge: { base_url: judge.baseUrl, model: 'fake', api_key_env: '' } });
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'clean up', judge: true, until: 'never printed' });
    const d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('PAUSED');
    expect(d.task.reasonCode).toBe('risky_continuation');
    expect(d.task.reason).toContain('delete the production database');
    expect(lines(r.files.echo)).toEqual(['clean up']);
  });

  it('PAUSED when a turn stalls: no screen progress for the heartbeat while RUNNING', async () => {
    const r = await rig(['--silent-hang-on', '2']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'go', until: 'never printed', heartbeatS: 3 });
    const d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('PAUSED');
    expect(d.task.reasonCode).toBe('stalled');
    expect(d.task.iterations, JSON.stringify(d, null, 1) + r.w.diag()).toBe(2);
  });

  it('answers only the approvals it is allowed to; any other waits for the person, who answers in the pane', async () => {
    // allowed: --approve matches the command in the question
    const r = await rig(['--approve-on', '1', '--finish-after', '1']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'clean the build', until: 'all tests pass', approve: ['rm -rf build'] });
    const d = await taskReaches(r.dm, t.id, ENDS, r.w);
    expect(d.task.status).toBe('FINISHED');
    expect(d.events.map((e) => e.kind)).toContain('approved');
    expect(r.w.output).toContain('Approved.');

    // not allowed: the task waits (clock paused), the person types y, the turn goes on to the goal
    const r2 = await rig(['--approve-on', '1', '--finish-after', '1']);
    const t2 = await startTask(r2.dm, { pane: r2.pane, prompt: 'clean the build', until: 'all tests pass', approve: ['git push'] });
    await r2.w.waitOutput('the approval question', (o) => o.includes('[y/n]'));
    await taskReaches(r2.dm, t2.id, ['RUNNING'], r2.w);
    await new Promise((res) => setTimeout(res, 1500)); // the task must not answer in this time
    expect(r2.w.output).not.toContain('Approved.');
    r2.w.term.write('y\r');
    const d2 = await taskReaches(r2.dm, t2.id, ENDS, r2.w);
    expect(d2.task.status).toBe('FINISHED');
    expect(d2.events.map((e) => e.kind)).toContain('approval_waiting');
    expect(d2.events.map((e) => e.kind)).not.toContain('approved');
    expect(d2.iterations[0]!.approvalMs).toBeGreaterThan(1000);
  });
});
