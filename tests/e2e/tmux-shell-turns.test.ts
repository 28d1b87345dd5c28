// Shells without shell integration in real tmux panes (private socket), read by `termsupervisor daemon --tmux`,
// which sees no typed keys there, only output (issue 12, items 3 and 6): a Python REPL statement that raises is
// FAILED (it stayed IDLE), the statements around it DONE; a question printed within milliseconds of Enter is
// WAITING_APPROVAL. No timed assertions: every wait is for a condition, with a generous bound.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { BASH, pythonMissing, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import type { TransitionView } from '../../src/web/api-types.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const missing = tmuxMissing();
if (missing) console.warn(`tmux shell tests SKIPPED: ${missing}`);
const noPython = pythonMissing();
if (noPython) console.warn('tmux shell tests: python3 is missing: SKIPPED');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

/** Oldest first. */
async function transitions(dm: DaemonProcess, id: string): Promise<TransitionView[]> {
  return (await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(id)}/transitions?limit=1000`)).reverse();
}

/** Waits until the pane has made `want.length` transitions, then compares them with `want`. */
async function states(dm: DaemonProcess, id: string, want: string[]): Promise<TransitionView[]> {
  let last: TransitionView[] = [];
  await until(
    `${id}: ${want.join(' → ')}`,
    async () => (last = await transitions(dm, id)).length >= want.length,
    () => `got: ${last.map((t) => `${t.to} (${t.rule}: ${t.line})`).join(', ')}\n${dm.diag()}`,
    30_000,
  );
  // a moment more: a transition beyond the expected ones would show now (a false turn, a second DONE)
  await new Promise((r) => setTimeout(r, 1500));
  last = await transitions(dm, id);
  expect(last.map((t) => t.to), last.map((t) => `${t.to} ${t.rule}: ${t.line}`).join('\n')).toEqual(want);
  return last;
}

describe.skipIf(missing !== null || noPython)('shells without integration in tmux (real tmux, private socket)', () => {
  it('a Python REPL: a statement DONE, one that raises FAILED, the next DONE; a question right after Enter WAITING', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const script = join(d.dir, 'ask.sh');
    writeFileSync(script, 'read -r -p "Remove the build folder? " ans\necho "answer: $ans"\n');
    const py = tmux.newSession('repl', 'python3 -q', 100, 30);
    const sh = tmux.newSession('work', BASH, 100, 30);
    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const id = (p: string) => tmux.paneId(p);
    await until('the panes attached and seeded', async () => {
      const ps = await dm.get<Array<{ id: string; alive: boolean; edge: string[] }>>('/api/panes');
      return [py, sh].every((p) => ps.some((v) => v.id === id(p) && v.alive && v.edge.some((l) => l.trim() !== '')));
    }, dm.diag);

    tmux.type(py, 'x = 6 * 7');
    await states(dm, id(py), ['RUNNING', 'DONE']);
    tmux.type(py, 'x / 0');
    const failed = await states(dm, id(py), ['RUNNING', 'DONE', 'RUNNING', 'FAILED']);
    expect(failed[3]!.line).toBe('ZeroDivisionError: division by zero');
    tmux.type(py, 'print(x)');
    await states(dm, id(py), ['RUNNING', 'DONE', 'RUNNING', 'FAILED', 'RUNNING', 'DONE']);

    // bash draws a prompt with bracketed paste on after its first command (tmux cannot report the mode of the
    // prompt already on screen): a no-op first, then the script whose question follows Enter at once.
    tmux.type(sh, ':');
    await until('the no-op', async () => tmux.screen(sh).includes('$ :\n$'), dm.diag);
    const before = (await transitions(dm, id(sh))).length;
    tmux.type(sh, `bash ${script}`);
    let got: TransitionView[] = [];
    await until('the question WAITING', async () => (got = (await transitions(dm, id(sh))).slice(before)).some((t) => t.to === 'WAITING_APPROVAL'), () => `got: ${got.map((t) => `${t.to} ${t.rule}`).join(', ')}\n${dm.diag()}`);
    expect(got.find((t) => t.to === 'WAITING_APPROVAL')!.line).toBe('Remove the build folder?');
    tmux.type(sh, 'y');
    await until('the answer and the end', async () => (await transitions(dm, id(sh))).at(-1)?.to === 'DONE', dm.diag);
  }, 120_000);
});
