// Supervised tasks the way a person drives them from a terminal: `termsupervisor task ...` against a daemon that
// follows a real tmux server, the agent in a tmux pane typed into with send-keys.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, BIN, ROOT } from './harness.js';
import { DaemonProcess, until } from './daemon-harness.js';
import { FAKE_AGENT, lines, taskScratch } from './task-harness.js';
import { TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import type { PaneView } from '../../src/web/api-types.js';

assertBuilt();
const missing = tmuxMissing();
if (missing) console.warn(`tmux task tests SKIPPED: ${missing}`);
const { dirs, cleanups } = taskScratch();

function cli(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env }, (e, out, err) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }));
  });
}

describe.skipIf(missing !== null)('termsupervisor task (CLI) on a tmux pane', () => {
  it('start prints the id; the prompts go in through send-keys; show --json reports FINISHED; list has it', async () => {
    const d = dirs();
    const echo = join(d.dir, 'prompts.txt');
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const p = tmux.newSession('agents', `python3 ${FAKE_AGENT} --work 0.6 --finish-after 2 --echo-prompts ${echo}`, 100, 30);
    await until('the fake agent prompt in tmux', async () => /^>\s*$/m.test(tmux.screen(p)), () => tmux.screen(p));
    const cfg = join(d.dir, 'config.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(cfg, JSON.stringify({ notify: { desktop: false }, tasks: { cooldown_s: 0.3, ready_stable_s: 0.6, settle_s: 0.6, enter_delay_s: 0.1 } }));
    const dm = await DaemonProcess.start(d, ['--config', cfg, '--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const id = tmux.paneId(p);
    await until('the tmux pane attached', async () => (await dm.get<PaneView[]>('/api/panes')).some((x) => x.id === id && x.alive), dm.diag);

    // by the pane's name (tmux: session:window.pane), as `status` shows it
    const started = await cli(d.env, 'task', 'start', '--pane', 'agents:0.0', '--prompt', 'write the "quoted" $HOME thing', '--until', 'all tests pass', '--max-iterations', '5');
    expect(started.err).toBe('');
    expect(started.code).toBe(0);
    const taskId = started.out.trim();
    expect(taskId).toMatch(/^t-[0-9a-f]{8}$/);
    const shown = await until('the task to end', async () => {
      const r = await cli(d.env, 'task', 'show', taskId, '--json');
      const j = JSON.parse(r.out) as { status: string };
      return ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'].includes(j.status) ? j : null;
    }, () => tmux.screen(p) + dm.diag(), 60_000);
    expect(shown).toMatchObject({ id: taskId, pane: id, status: 'FINISHED', reasonCode: 'until_matched', iterations: 2 });
    // typed literally: quotes and $ arrive as written, not expanded by tmux
    expect(lines(echo)).toEqual(['write the "quoted" $HOME thing', 'continue']);
    const list = await cli(d.env, 'task', 'list');
    expect(list.out).toContain(taskId);
    expect(list.out).toContain('FINISHED');
    const text = await cli(d.env, 'task', 'show', taskId);
    expect(text.out).toMatch(/#1 .* done → continue/);
  });

  it('refuses with exit 2 and a reason: no pane, unknown task, a finished task stopped', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const noPane = await cli(d.env, 'task', 'start', '--prompt', 'x');
    expect(noPane.code).toBe(2);
    expect(noPane.err).toMatch(/needs --pane/);
    const unknown = await cli(d.env, 'task', 'stop', 't-00000000');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/HTTP 404: no task/);
    const badPane = await cli(d.env, 'task', 'start', '--pane', 'nope', '--prompt', 'x');
    expect(badPane.code).toBe(2);
    expect(badPane.err).toMatch(/--pane: no pane "nope"/);
    const help = await cli(d.env, 'task', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('task start --pane ID|NAME --prompt TEXT');
  });
});
