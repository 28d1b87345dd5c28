// `termsupervisor daemon --tmux-socket NAME` against a real tmux server on a private socket, the way a person
// uses it: panes they already run (bash, a Python REPL, a y/N script, recorded agents played back at their own
// pace) are found and read with no wrapper, panes come and go, the tmux server and the daemon restart.
// tmux does not report typed keys, so turns here are unanchored: the recordings are compared with `replay` of the
// same recording without its input events — what a pane seen through tmux holds. No timed assertions.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, runCli, until, type DaemonDirs } from './daemon-harness.js';
import { BIN } from './harness.js';
import { BASH, playback, pythonMissing, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { ReplaySource } from '../../src/attach/replay-source.js';
import { replayCast } from '../../src/daemon/replay.js';
import { loadConfig } from '../../src/config/config.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const missing = tmuxMissing();
if (missing) console.warn(`tmux daemon tests SKIPPED: ${missing}`);
const noPython = pythonMissing();
if (noPython) console.warn('tmux daemon tests: python3 is missing: the Python REPL pane is SKIPPED');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

beforeAll(() => ensureBuilt(), 120_000);

function setup(): { d: DaemonDirs; tmux: TestTmux; start: () => Promise<DaemonProcess>; id: (pane: string) => string } {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  const tmux = new TestTmux(d.env);
  cleanups.push(() => tmux.kill(true));
  return {
    d,
    tmux,
    id: (pane) => tmux.paneId(pane),
    start: async () => {
      const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
      cleanups.push(async () => void (await dm.stop('SIGKILL')));
      return dm;
    },
  };
}

const panes = (dm: DaemonProcess) => dm.get<PaneView[]>('/api/panes');
const pane = async (dm: DaemonProcess, id: string) => (await panes(dm)).find((p) => p.id === id);
/** Oldest first. */
const transitions = async (dm: DaemonProcess, id: string) => (await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(id)}/transitions?limit=1000`)).reverse();

/** Waits for the pane's transitions after index `from` to reach `states` (a prefix match while they come in). */
async function states(dm: DaemonProcess, id: string, want: string[], from = 0, timeoutMs = 30_000): Promise<TransitionView[]> {
  let last: TransitionView[] = [];
  await until(
    `${id}: ${want.join(' → ')}`,
    async () => {
      last = (await transitions(dm, id)).slice(from);
      return last.length >= want.length;
    },
    () => `got: ${last.map((t) => `${t.to} (${t.rule}: ${t.line})`).join(', ')}\n${dm.diag()}`,
    timeoutMs,
  );
  expect(last.map((t) => t.to), last.map((t) => `${t.to} ${t.rule} ${t.line}`).join('\n')).toEqual(want);
  return last;
}

/** An installer-like script: checks for two seconds, asks, works for a second and a half after the answer. */
const YES_NO = `echo "Checking environment..."
sleep 1
echo "  python3 ............ ok"
sleep 1
echo "  git ................ ok"
read -r -p "Proceed? [y/N] " ans
echo "answer: $ans"
sleep 1.5
echo "installed"
`;

describe.skipIf(missing !== null)('daemon --tmux (real tmux, private socket)', () => {
  it('finds bash, a Python REPL and a y/N script already running, seeds them IDLE, and reads their turns', async () => {
    const { d, tmux, start, id } = setup();
    const script = join(d.dir, 'setup.sh');
    writeFileSync(script, YES_NO);
    const sh = tmux.newSession('work', BASH, 100, 30);
    const yn = tmux.split(sh, BASH);
    const py = noPython ? null : tmux.newSession('repl', 'python3 -q', 100, 30);
    tmux.type(sh, 'echo typed-before-the-daemon');
    await until('the echo on the tmux screen', async () => tmux.screen(sh).includes('typed-before-the-daemon\n$'));
    const dm = await start();

    const all = [sh, yn, ...(py ? [py] : [])].map(id);
    await until('the panes to be attached and seeded', async () => {
      const ps = await panes(dm);
      return all.every((i) => ps.some((p) => p.id === i && p.alive && p.edge.some((l) => l.trim() !== '')));
    }, dm.diag);
    expect(await pane(dm, id(sh))).toMatchObject({ name: 'work:0.0', attach: 'tmux', command: 'bash', program: 'shell', state: 'IDLE', alive: true, cols: 100, rows: 15 });
    expect((await pane(dm, id(sh)))!.edge.join('\n')).toContain('typed-before-the-daemon');
    if (py) expect(await pane(dm, id(py))).toMatchObject({ name: 'repl:0.0', command: 'python3', program: 'shell', state: 'IDLE' });

    // bash switches bracketed paste on at each prompt, which tmux 3.3 cannot tell us about for the prompt already
    // on screen: the shell profile reads it from the first prompt it sees drawn. A no-op command draws one.
    for (const p of [sh, yn]) {
      tmux.type(p, ':');
      await until('the prompt after the no-op', async () => /\$ :\n\$ *$/.test((await dm.get<{ text: string }>(`/api/panes/${encodeURIComponent(id(p))}/screen`)).text.trimEnd() + ' '), dm.diag);
    }
    // Seeding produced no turn of its own; the warm-up is a command the person ran: seen by its result, a new
    // prompt below it (tmux passes no keys on).
    const said = async (p: string) => (await transitions(dm, id(p))).map((t) => `${t.from}>${t.to} ${t.rule}: ${t.line}`);
    for (const p of [sh, yn]) await states(dm, id(p), ['RUNNING', 'DONE']);
    expect((await said(sh))[0]).toBe('IDLE>RUNNING turn.unseen_submit: $ :');
    const base = { sh: 2, yn: 2 };

    tmux.type(sh, 'sleep 2; echo finished');
    await states(dm, id(sh), ['RUNNING', 'DONE'], base.sh);
    tmux.type(sh, 'sleep 2; ls /nonexistent-path');
    const failed = await states(dm, id(sh), ['RUNNING', 'DONE', 'RUNNING', 'FAILED'], base.sh);
    expect(failed[3]!.line).toContain('nonexistent-path');

    tmux.type(yn, `bash ${script}`);
    const asked = await states(dm, id(yn), ['RUNNING', 'WAITING_APPROVAL'], base.yn);
    expect(asked[1]!.line).toContain('Proceed? [y/N]');
    tmux.type(yn, 'y');
    await states(dm, id(yn), ['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE'], base.yn);

    if (py) {
      expect(await transitions(dm, id(py))).toEqual([]);
      tmux.type(py, 'import time');
      await states(dm, id(py), ['RUNNING', 'DONE']);
      tmux.type(py, 'for i in range(4): print("line", i, "-" * 60); time.sleep(0.4)');
      tmux.keys(py, 'Enter');
      const t = await states(dm, id(py), ['RUNNING', 'DONE', 'RUNNING', 'DONE']);
      expect(t[3]!.line).toContain('>>>');
    }
  });

  it("a shell's first command after the daemon attached counts: its foreground job starts the turn (no keys, no warm-up)", async () => {
    const { tmux, start, id } = setup();
    const a = tmux.newSession('work', BASH, 100, 30);
    const b = tmux.split(a, BASH);
    await until('both prompts on the tmux screens', async () => [a, b].every((p) => tmux.screen(p).includes('$')));
    const dm = await start();
    await until('both panes attached and seeded', async () => {
      const ps = await panes(dm);
      return [a, b].every((p) => ps.some((v) => v.id === id(p) && v.alive && v.edge.some((l) => l.includes('$'))));
    }, dm.diag);

    // The very first thing typed in each pane: seen from its start (the foreground job), ended by its prompt.
    tmux.type(a, 'sleep 2; echo one');
    tmux.type(b, 'sleep 2; ls /nonexistent-path');
    const first = await states(dm, id(a), ['RUNNING', 'DONE']);
    expect(first[0]).toMatchObject({ tier: 1, source: 'process', rule: 'job.started', line: 'sleep' });
    const failed = await states(dm, id(b), ['RUNNING', 'FAILED']);
    expect(failed[1]!.line).toContain('nonexistent-path');
    // No shell integration here: the DONE came from the prompt on screen, so its exit code is not known.
    expect(await pane(dm, id(a))).toMatchObject({ state: 'DONE', shellIntegration: false, exitCodeUnknown: true });
    const status = await runCli([process.execPath, BIN, 'status', '--no-color'], dm.dirs.env);
    expect(status.stdout.split('\n').find((l) => l.includes(id(a))), status.stdout).toContain('exit codes unknown: install shell integration');

    tmux.type(a, 'sleep 2; echo two');
    await states(dm, id(a), ['RUNNING', 'DONE', 'RUNNING', 'DONE']);
  }, 60_000);

  it('recordings written into tmux panes at their own pace show the states replay gives for them', async () => {
    const { tmux, start, id } = setup();
    const dir = mkdtempSync(join(tmpdir(), 'ts-tmux-play-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const cfg = loadConfig();
    const plays = ['claude-approval', 'codex-approval', 'gemini-quick-answer', 'shell-bash-osc133'].map((n) => playback(dir, n));
    const expected = new Map<string, string[]>();
    const paneOf = new Map<string, string>();
    for (const p of plays) {
      const r = await replayCast(new ReplaySource(p.cast, p.name), cfg, 'auto');
      expected.set(p.name, r.transitions.map((t) => t.to));
      paneOf.set(p.name, tmux.newSession(p.name, p.command, p.cast.header.width, p.cast.header.height));
    }
    const dm = await start();
    await until('the players\' panes attached', async () => {
      const ps = await panes(dm);
      return plays.every((p) => ps.some((v) => v.id === id(paneOf.get(p.name)!) && v.alive));
    }, dm.diag);
    // Each player waits for a key before it plays, so the daemon sees the whole recording live.
    for (const p of plays) tmux.keys(paneOf.get(p.name)!, 'Enter');
    const longest = Math.max(...plays.map((p) => p.duration));
    for (const p of plays) {
      const want = expected.get(p.name)!;
      expect(want.length, `${p.name}: replay gives transitions`).toBeGreaterThan(0);
      await states(dm, id(paneOf.get(p.name)!), want, 0, (longest + 30) * 1000);
    }
    expect((await pane(dm, id(paneOf.get('claude-approval')!)))!.program).toBe('claude');
    expect((await pane(dm, id(paneOf.get('codex-approval')!)))!.program).toBe('codex');
    expect((await pane(dm, id(paneOf.get('gemini-quick-answer')!)))!.program).toBe('gemini');
  }, 120_000);

  it('panes come and go; a restarted tmux server\'s panes are new panes; a restarted daemon finds its panes with their history', async () => {
    const { tmux, start, id } = setup();
    const a = tmux.newSession('work', BASH);
    let dm = await start();
    await until('the pane, seeded with its prompt', async () => (await pane(dm, id(a)))?.edge.some((l) => l.includes('$')), dm.diag);
    // the warm-up is a command like any other: seen by its result, a new prompt below it
    tmux.type(a, 'echo warm-up');
    await states(dm, id(a), ['RUNNING', 'DONE']);
    tmux.type(a, 'sleep 2; echo one');
    await states(dm, id(a), ['RUNNING', 'DONE', 'RUNNING', 'DONE']);

    const b = tmux.split(a, BASH);
    await until('a pane split off mid-test', async () => (await pane(dm, id(b)))?.alive, dm.diag);
    expect((await pane(dm, id(a)))!.rows).toBe(15);
    tmux.run('kill-pane', '-t', b);
    await until('the killed pane closed, kept in history', async () => (await pane(dm, id(b)))?.alive === false, dm.diag);
    await until('the first pane back to full height', async () => (await pane(dm, id(a)))!.rows === 30, dm.diag);

    const old = id(a);
    tmux.kill();
    await until('the server gone: its pane closed', async () => (await pane(dm, old))?.alive === false, dm.diag);
    // The new server numbers its first pane %0 again: another pane, with a history of its own.
    expect(tmux.newSession('work', BASH)).toBe(a);
    expect(id(a)).not.toBe(old);
    await until('the restarted server\'s pane, a new id', async () => (await pane(dm, id(a)))?.alive, dm.diag);
    expect(await transitions(dm, id(a))).toEqual([]);
    expect((await transitions(dm, old)).map((t) => t.to)).toEqual(['RUNNING', 'DONE', 'RUNNING', 'DONE']);
    expect(await pane(dm, old)).toMatchObject({ alive: false });
    tmux.type(a, 'echo again');
    await states(dm, id(a), ['RUNNING', 'DONE']);

    await dm.stop();
    dm = await start();
    await until('attached again after the daemon restart', async () => (await pane(dm, id(a)))?.alive, dm.diag);
    // Its last turn ended unseen: still DONE and needing the person (issue 26 item 7), not IDLE.
    expect(await pane(dm, id(a))).toMatchObject({ state: 'DONE', needsYou: true, attach: 'tmux' });
    expect((await transitions(dm, id(a))).map((t) => t.to)).toEqual(['RUNNING', 'DONE']);
  }, 90_000);
});
