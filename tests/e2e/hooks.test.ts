// Agent hooks end to end: a real daemon, a real `termsupervisor run` pane whose program runs the built
// `termsupervisor hook` at the moments Claude Code would (tests/fixtures/hooks/fake-claude.sh), the hook with no
// daemon at all, and `termsupervisor hooks install` on a scratch home.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, ROOT, testEnv, waitFor } from './harness.js';
import { daemonScratch, DaemonProcess, until, type DaemonDirs } from './daemon-harness.js';
import type { PaneView, StatsView, TransitionView } from '../../src/web/api-types.js';

const FAKE_CLAUDE = join(ROOT, 'tests', 'fixtures', 'hooks', 'fake-claude.sh');
const STOP = JSON.stringify({ session_id: 's', hook_event_name: 'Stop', stop_hook_active: false });

const { cleanups, dirs } = daemonScratch();

beforeAll(() => ensureBuilt(), 120_000);

async function daemon(d: DaemonDirs): Promise<DaemonProcess> {
  const p = await DaemonProcess.start(d);
  cleanups.push(async () => void (await p.stop('SIGKILL')));
  return p;
}

/** `termsupervisor hook …` as an agent runs it: the payload on stdin; its exit code and everything it printed. */
function hook(env: Record<string, string>, args: string[], stdin: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'hook', ...args], { cwd: ROOT, env, input: stdin, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('termsupervisor hook', () => {
  it('with no daemon: exits 0 and prints nothing (and says why with --verbose)', () => {
    const d = dirs();
    expect(hook(d.env, ['claude', 'Stop'], STOP)).toEqual({ status: 0, stdout: '', stderr: '' });
    const v = hook(d.env, ['claude', 'Stop', '--verbose'], STOP);
    expect(v).toMatchObject({ status: 0, stdout: '' });
    expect(v.stderr).toMatch(/no daemon is running/);
    // A broken payload, an unknown agent, a daemon that is not there: still 0, still nothing on stdout.
    expect(hook(d.env, ['claude'], 'not json')).toMatchObject({ status: 0, stdout: '' });
    expect(hook(d.env, ['copilot', 'Stop'], STOP)).toMatchObject({ status: 0, stdout: '' });
    expect(hook({ ...d.env, TERMSUPERVISOR_DAEMON: 'http://127.0.0.1:9' }, ['codex', '--verbose', '{"type":"agent-turn-complete"}'], '')).toMatchObject({ status: 0, stdout: '' });
  });

  it('a hook from no known pane is accepted (202) and counted as unmatched', async () => {
    const d = dirs();
    const dm = await daemon(d);
    const r = hook({ ...d.env, TMUX_PANE: '%77', TMUX: '/tmp/tmux-0/nowhere,1,0' }, ['claude', 'Stop', '--verbose'], STOP);
    expect(r).toMatchObject({ status: 0, stdout: '' });
    expect(r.stderr).toMatch(/HTTP 202 \{"matched":false\}/);
    const stats = await until('the unmatched hook to be counted', async () => {
      const s = await dm.get<StatsView>('/api/stats');
      return s.counters['hook.unmatched'] ? s : null;
    });
    expect(stats.counters['hook.unmatched']).toBe(1);
  });
});

describe('a pane whose program runs its hooks', () => {
  it('ends DONE, every transition from the hooks: Tier 1, source hook', async () => {
    const d = dirs();
    const dm = await daemon(d);
    const feed = await dm.feed();
    cleanups.push(() => feed.ws.close());
    const env = { ...d.env, TERMSUPERVISOR_BIN: BIN };
    // Started as a person starts Claude Code: a program named `claude` (a session, no turn at its start).
    const claude = join(d.dir, 'bin', 'claude');
    mkdirSync(join(d.dir, 'bin'));
    symlinkSync(FAKE_CLAUDE, claude);
    const w = spawn(process.execPath, [BIN, 'run', '--log', join(d.dir, 'events.jsonl'), '--name', 'fake-claude', '--', claude], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    }) as ChildProcess & { out: string };
    w.out = '';
    w.stdout!.on('data', (b: Buffer) => (w.out += b.toString()));
    w.stderr!.on('data', (b: Buffer) => (w.out += b.toString()));
    cleanups.push(() => void w.kill('SIGKILL'));

    const transitions = () => feed.messages.filter((m) => m.type === 'transition').map((m) => m['transition'] as TransitionView);
    const diag = () => `${JSON.stringify(transitions(), null, 1)}\npane output:\n${w.out}\n${dm.diag()}`;
    await waitFor('DONE on the feed', () => transitions().some((t) => t.to === 'DONE'), diag);
    const pane = (await dm.get<PaneView[]>('/api/panes')).find((p) => p.name === 'fake-claude')!;
    expect(pane).toMatchObject({ state: 'DONE', source: 'hook', tier: 1, program: 'claude', needsYou: true });
    const stored = (await dm.get<TransitionView[]>(`/api/panes/${pane.id}/transitions`)).reverse();
    expect(stored.map((t) => [t.from, t.to, t.tier, t.source, t.rule]), diag()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook', 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'WAITING_APPROVAL', 1, 'hook', 'hook.claude.permission_request'],
      ['WAITING_APPROVAL', 'RUNNING', 1, 'hook', 'hook.claude.pre_tool_use'],
      ['RUNNING', 'DONE', 1, 'hook', 'hook.claude.stop'],
    ]);
    expect(stored[0]!.line).toBe('fix the failing test');
    expect(stored[1]!.line).toBe('Bash: rm -rf build');
    expect(stored[3]!.startedAtKept).toBe(true);

    w.stdin!.write('\n'); // the fake agent leaves; the wrapper with it
    await waitFor('the wrapper to exit', () => w.exitCode !== null, diag);
    expect(w.exitCode).toBe(0);
  });
});

describe('termsupervisor hooks install', () => {
  it('installs into a scratch home, again changes nothing, uninstall takes it out', () => {
    const home = mkdtempSync(join(tmpdir(), 'ts-hooks-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const env = testEnv(home, { HOME: home });
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'hooks', ...args, '--home', home], { cwd: ROOT, env, encoding: 'utf8' });
    const first = run('install', 'claude', 'codex', 'gemini');
    expect(first.status, first.stderr).toBe(0);
    const claude = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(claude.hooks['Stop']![0]!.hooks[0]!.command).toBe(`${BIN} hook claude Stop`);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toContain(`notify = [${JSON.stringify(BIN)}, "hook", "codex"]`);
    expect(run('install', 'all').stdout).toMatch(/claude: already installed[\s\S]*codex: already installed[\s\S]*gemini: already installed/);
    const un = run('uninstall', 'all');
    expect(un.status, un.stderr).toBe(0);
    expect(run('status').stdout).toMatch(/claude: not installed[\s\S]*codex: not installed[\s\S]*gemini: not installed/);
  });
});
