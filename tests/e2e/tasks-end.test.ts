// Supervised tasks end by themselves: FINISHED by an until regex, by a check command and by the LLM judge,
// FAILED by a failure pattern, STOPPED by the person. Real daemon, real PTY, the scripted fake agent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { until } from './daemon-harness.js';
import { assertBuilt } from './harness.js';
import { api, lines, startTask, taskReaches, taskScratch } from './task-harness.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import type { TaskView } from '../../src/web/api-types.js';

assertBuilt();
const { rig, cleanups } = taskScratch();

describe('supervised tasks: ending', () => {
  it('FINISHED by --until: types the prompt, then the follow-up, and stops at the goal line; the end is notified', async () => {
    const hooks: Array<{ kind: string; rule: string; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    cleanups.push(() => new Promise<void>((res) => server.close(() => res())));
    const webhook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const r = await rig(['--finish-after', '2'], {}, { webhook_url: webhook, min_interval_s: 0, dedupe_s: 0, done_min_turn_s: 0 });
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'make all tests pass', until: 'RESULT: all tests pass' });
    expect(t.status === 'PENDING' || t.status === 'RUNNING').toBe(true);
    const d = await taskReaches(r.dm, t.id, ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'], r.w);
    expect(d.task.status).toBe('FINISHED');
    expect(d.task.reasonCode).toBe('until_matched');
    expect(d.task.iterations).toBe(2);
    // exactly what was typed, once each: the prompt, then the default follow-up
    expect(lines(r.files.echo)).toEqual(['make all tests pass', 'continue']);
    expect(d.iterations.map((i) => [i.n, i.result, i.decision])).toEqual([
      [1, 'done', 'continue'],
      [2, 'done', 'until_matched'],
    ]);
    expect(d.iterations[1]!.excerpt).toContain('RESULT: all tests pass');
    // the goal named in the prompt never matched the prompt's own echo
    expect(d.iterations[0]!.excerpt).not.toContain('make all tests pass');
    expect(d.events.map((e) => e.kind)).toEqual(expect.arrayContaining(['created', 'started', 'sent', 'turn_started', 'turn_ended', 'finished']));
    // one notification, for the task's end: the turns' own DONEs are the task's business while it drives the pane
    await until('the webhook', async () => hooks.length > 0 || null);
    expect(hooks.map((h) => [h.kind, h.rule])).toEqual([['TASK_FINISHED', 'task.until_matched']]);
    expect(hooks[0]!.body).toContain(t.id);
  });

  it('FINISHED by --check: the command decides after each turn (exit 0 = done)', async () => {
    const r = await rig([]);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'do the next step', check: `test "$(wc -l < '${r.files.state}')" -ge 3`, continue: 'next step please' });
    const d = await taskReaches(r.dm, t.id, ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'], r.w);
    expect(d.task.status).toBe('FINISHED');
    expect(d.task.reasonCode).toBe('check_passed');
    expect(d.task.iterations).toBe(3);
    expect(lines(r.files.echo)).toEqual(['do the next step', 'next step please', 'next step please']);
    expect(d.iterations.map((i) => i.check?.exitCode)).toEqual([1, 1, 0]);
  });

  it('FINISHED by the judge: its continuation is typed, a malformed answer is corrected, completion needs confidence', async () => {
    let calls = 0;
    const judge = await startFakeOpenAI((body) => {
      calls++;
      const user = body.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
      if (calls === 1) return { content: 'Sure! I think it should continue.' }; // not JSON: corrected
      if (/RESULT: all tests pass/.test(user))
        return { json: { continuation_prompt: '', continuation_prompt_risk: 0, task_complete: true, task_complete_reason: 'tests pass', confidence: 0.9 }, usage: { prompt_tokens: 100, completion_tokens: 20 } };
      if (/Step 1/.test(user))
        return { json: { continuation_prompt: 'now run the tests', continuation_prompt_risk: 0.1, task_complete: true, task_complete_reason: 'maybe', confidence: 0.4 }, usage: { prompt_tokens: 100, completion_tokens: 20 } };
      return { json: { continuation_prompt: 'keep going', continuation_prompt_risk: 0.1, task_complete: false, task_complete_reason: 'not yet', confidence: 0.8 } };
    });
    cleanups.push(() => judge.close());
    const r = await rig(['--finish-after', '2'], { judge: { base_url: judge.baseUrl, model: 'fake', api_key_env: '' } });
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'implement the feature', judge: true });
    const d = await taskReaches(r.dm, t.id, ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'], r.w);
    expect(d.task.status).toBe('FINISHED');
    expect(d.task.reasonCode).toBe('judge_complete');
    // the low-confidence "complete" of turn 1 did not end it; its continuation was typed
    expect(lines(r.files.echo)).toEqual(['implement the feature', 'now run the tests']);
    expect(d.iterations[0]!.judge).toMatchObject({ complete: true, confidence: 0.4, continuation: 'now run the tests' });
    expect(d.task.tokensUsed).toBeGreaterThanOrEqual(240);
    // the judge saw the goal and the turn's screen, and the correction after the malformed answer
    const first = judge.requests[0]!.body.messages.map((m) => m.content).join('\n');
    expect(first).toContain('implement the feature');
    expect(judge.requests[1]!.body.messages.length).toBeGreaterThan(judge.requests[0]!.body.messages.length);
  });

  it('without criteria, the judge proposes them up front and the task records and uses them', async () => {
    const judge = await startFakeOpenAI((body) => {
      if (body.messages[0]!.content.includes('propose short markers')) return { json: { success: ['RESULT: all tests pass'], failure: ['FATAL'] } };
      return { json: { continuation_prompt: 'continue', continuation_prompt_risk: 0, task_complete: false, task_complete_reason: 'not yet', confidence: 0.9 } };
    });
    cleanups.push(() => judge.close());
    const r = await rig(['--finish-after', '2'], { judge: { base_url: judge.baseUrl, model: 'fake', api_key_env: '' } });
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'make the tests pass', judge: true });
    const d = await taskReaches(r.dm, t.id, ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'], r.w);
    expect(d.task.proposed).toEqual({ success: ['RESULT: all tests pass'], failure: ['FATAL'] });
    expect(d.task.status).toBe('FINISHED');
    expect(d.task.reasonCode).toBe('success_matched');
    expect(d.events.map((e) => e.kind)).toContain('criteria_proposed');
    expect(d.task.warnings).toEqual([]);
  });

  it('FAILED by a failure pattern, which wins over a success pattern on the same screen', async () => {
    const r = await rig(['--fail-after', '2']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'build it', failure: ['FATAL: .*'], successWords: ['failed'] });
    const d = await taskReaches(r.dm, t.id, ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'], r.w);
    expect(d.task.status).toBe('FAILED');
    expect(d.task.reasonCode).toBe('failure_matched');
    expect(d.task.reason).toContain('FATAL: build failed');
    expect(d.task.iterations).toBe(2);
  });

  it('STOPPED by the person: nothing more is typed, and a stopped task cannot be stopped again', async () => {
    const r = await rig(['--work', '3']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'long job' });
    const running = await taskReaches(r.dm, t.id, ['RUNNING'], r.w);
    // no criteria and no judge: it says only the limits will stop it
    expect(running.task.warnings.join()).toMatch(/only the limits will stop this task/);
    // wait until the first prompt went in, then stop mid-turn
    await r.w.waitOutput('the agent working', (o) => o.includes('Working'));
    const stop = await api<TaskView>(r.dm, 'POST', `/api/tasks/${t.id}/stop`, { by: 'cli' });
    expect(stop.status).toBe(200);
    expect(stop.body.reason).toBe('stopped by cli');
    expect(stop.body.status).toBe('STOPPED');
    expect(stop.body.reasonCode).toBe('stopped_by_person');
    await r.w.waitOutput('the turn to finish', (o) => o.includes('More remains'));
    await new Promise((res) => setTimeout(res, 2500)); // longer than cooldown + ready window: a live loop would type now
    expect(lines(r.files.echo)).toEqual(['long job']);
    expect((await api(r.dm, 'POST', `/api/tasks/${t.id}/stop`)).status).toBe(409);
  });

  it('refuses bad requests with the reason: unknown pane, bad regex, missing prompt, no token', async () => {
    const r = await rig([]);
    const bad = await api<{ problems: string[] }>(r.dm, 'POST', '/api/tasks', { pane: r.pane, prompt: 'x', until: '(' });
    expect(bad.status).toBe(400);
    expect(bad.body.problems.join()).toMatch(/until: invalid regular expression/);
    expect((await api(r.dm, 'POST', '/api/tasks', { pane: 'nope', prompt: 'x' })).status).toBe(400);
    expect((await api(r.dm, 'POST', '/api/tasks', { pane: r.pane })).status).toBe(400);
    const anon = await fetch(r.dm.url + '/api/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pane: r.pane, prompt: 'x' }) });
    expect(anon.status).toBe(401);
    expect(lines(r.files.echo)).toEqual([]);
  });
});
