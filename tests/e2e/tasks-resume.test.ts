// Supervised tasks survive the daemon: killed mid-turn and restarted, a task resumes from its checkpoint and
// never types a prompt twice. And on a real agent's recording, the loop never types while the turn runs or its
// approval menu is open (checked against the recording's own truth).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from './harness.js';
import { DaemonProcess, until } from './daemon-harness.js';
import { CAST_PLAYER, lines, startTask, taskReaches, taskScratch } from './task-harness.js';

assertBuilt();
const { rig, daemon, pane, dirs, cleanups } = taskScratch();
const ENDS = ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'];

describe('supervised tasks: restarts and real recordings', () => {
  it('a daemon killed mid-turn and restarted resumes the task from its checkpoint: no prompt typed twice', async () => {
    const r = await rig(['--finish-after', '3', '--work', '3']);
    const t = await startTask(r.dm, { pane: r.pane, prompt: 'build the feature', until: 'all tests pass' });
    await until('the second prompt to be typed', async () => (lines(r.files.echo).length >= 2 ? true : null), r.w.diag, 60_000);
    await r.w.waitOutput('the agent working on it', (o) => o.lastIndexOf('Working') > o.lastIndexOf('● Task: continue'));
    await r.dm.stop('SIGKILL');
    const dm2 = await DaemonProcess.start(r.d, ['--config', join(r.d.dir, 'config.json')]);
    cleanups.push(async () => void (await dm2.stop('SIGKILL')));
    const d = await taskReaches(dm2, t.id, ENDS, r.w, 90_000);
    expect(d.task.status).toBe('FINISHED');
    expect(d.task.iterations).toBe(3);
    expect(lines(r.files.echo)).toEqual(['build the feature', 'continue', 'continue']);
    expect(d.events.map((e) => e.kind)).toContain('daemon_restarted');
  });

  it('on a recorded Claude Code approval session, keys are typed only while the recording shows the agent at rest', async () => {
    const fixture = join(ROOT, 'tests', 'fixtures', 'corpus', 'claude-approval');
    const truth = JSON.parse(readFileSync(join(fixture, 'truth.json'), 'utf8')) as { segments: Array<{ start: number; end: number; state: string }>; duration: number };
    const d = dirs();
    const dm = await daemon(d);
    const keysLog = join(d.dir, 'keys.log');
    const header = JSON.parse(readFileSync(join(fixture, 'session.cast'), 'utf8').split('\n', 1)[0]!) as { width: number; height: number };
    // the terminal the recording was made in: drawn into another size, a TUI's screen is not what it showed
    const size = { cols: header.width, rows: header.height };
    const { w, pane: id } = await pane(dm, d, ['python3', CAST_PLAYER, join(fixture, 'session.cast'), keysLog], { name: 'claude', agent: 'claude', size });
    const t = await startTask(dm, { pane: id, prompt: 'add a hello file', until: 'never printed', cooldownS: 1 });
    const busy = truth.segments.filter((s) => s.state !== 'IDLE' && s.state !== 'DONE');
    const turnStart = busy[0]!.start;
    const turnEnd = busy[busy.length - 1]!.end;
    expect(busy.some((s) => s.state === 'WAITING_APPROVAL')).toBe(true);
    // the recording runs its own turn, with an approval menu in it; the task must wait it out
    await until('the recording to end and the task to type after it', async () => {
      const keys = lines(keysLog).map((l) => Number(l.split('\t')[0]));
      return keys.some((k) => k > turnEnd) ? keys : null;
    }, w.diag, 60_000);
    await new Promise((res) => setTimeout(res, 500));
    const keys = lines(keysLog).map((l) => ({ t: Number(l.split('\t')[0]), data: JSON.parse(l.split('\t')[1]!) as string }));
    const stateAt = (x: number) => truth.segments.find((s) => x >= s.start && x < s.end)?.state ?? 'DONE';
    for (const k of keys) expect({ t: k.t, data: k.data, state: stateAt(k.t) }).toMatchObject({ state: expect.stringMatching(/^(IDLE|DONE)$/) });
    expect(keys.some((k) => k.t < turnStart)).toBe(true); // the first prompt, while the agent sat idle
    expect(keys.some((k) => k.t > turnEnd)).toBe(true); // the follow-up, only after the turn with its approval ended
    const detail = await taskReaches(dm, t.id, ['RUNNING', ...ENDS], w);
    expect(detail.events.some((e) => e.kind === 'approval_waiting')).toBe(true);
  });
});
