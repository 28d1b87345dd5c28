// Codex hooks and its background app-server, end to end: a real daemon, two real `termsupervisor run` panes each
// running a Codex stand-in (tests/fixtures/hooks/fake-codex.py), and notify hooks posted by the built
// `termsupervisor hook codex <payload>` as Codex's app-server posts them: with the environment of the pane that
// started the server (pane A), whichever pane's turn it is. They must land on the pane whose turn ended (B), by what
// they carry and which pane has a turn running; never on A for its environment, never on no pane once A is gone.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, ROOT } from './harness.js';
import { daemonScratch, DaemonProcess, runWrapper, until } from './daemon-harness.js';
import type { PaneView, StatsView, TransitionView } from '../../src/web/api-types.js';

const FAKE_CODEX = join(ROOT, 'tests', 'fixtures', 'hooks', 'fake-codex.py');
/** The interpreter itself, not a launcher in front of it (a pyenv shim is a bash script: bash, then python3, reads
 * as a job the pane's shell started). */
const PYTHON = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim() || 'python3';
const TITLE = 'Generate a concise, single-line task title of at most 36 characters and under five words where possible.\n\nUser prompt:\n';

const { cleanups, dirs } = daemonScratch();
beforeAll(() => ensureBuilt(), 120_000);

/** Codex's notify payload (codex-rs/hooks/src/legacy_notify.rs): one JSON argument. */
function notify(thread: string, input: string, last: string): string {
  return JSON.stringify({ type: 'agent-turn-complete', 'thread-id': thread, 'turn-id': `turn-${thread}`, cwd: ROOT, client: 'codex-tui', 'input-messages': [input], 'last-assistant-message': last });
}

describe('Codex notify from the app-server started by another pane', () => {
  it('lands on the pane whose turn ended, by what it carries and which pane works; never on the pane in its environment', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const a = runWrapper(d, ['--name', 'codex-a', '--agent', 'codex'], [PYTHON, FAKE_CODEX]);
    cleanups.push(() => void a.kill('SIGKILL'));
    const b = runWrapper(d, ['--name', 'codex-b', '--agent', 'codex'], [PYTHON, FAKE_CODEX]);
    cleanups.push(() => void b.kill('SIGKILL'));
    let seen: PaneView[] = [];
    const panes = async () => (seen = await dm.get<PaneView[]>('/api/panes'));
    const diag = () => `${JSON.stringify(seen, null, 1)}\nA:\n${a.out}\nB:\n${b.out}\n${dm.diag()}`;
    const paneOf = async (name: string) => (await panes()).find((p) => p.name === name && p.alive);
    // Both stand-ins at their composer (typing earlier would be typing before the program reads).
    const ready = (p: PaneView | undefined) => p?.edge.some((l) => l.includes('Ask Codex to do anything'));
    const [pa, pb] = await until('both panes at their composer', async () => {
      const [x, y] = [await paneOf('codex-a'), await paneOf('codex-b')];
      return ready(x) && ready(y) ? [x!, y!] : null;
    }, diag);
    // The app-server was started by pane A: every notify carries A's environment.
    const appServerEnv = { ...d.env, TERMSUPERVISOR_PANE_ID: pa.id };
    const post = (payload: string) => {
      const r = spawnSync(process.execPath, [BIN, 'hook', 'codex', payload, '--verbose'], { cwd: ROOT, env: appServerEnv, encoding: 'utf8' });
      expect(r.status).toBe(0);
      return r.stderr;
    };
    const transitions = async (id: string) => (await dm.get<TransitionView[]>(`/api/panes/${id}/transitions`)).reverse().map((t) => [t.from, t.to, t.rule]);

    // Only B is prompted.
    b.stdin!.write('fix the parser\r');
    await until('B running', async () => (await paneOf('codex-b'))?.state === 'RUNNING', diag);
    // Codex's title request ends first, on a thread of its own: it lands on B and ends nothing.
    expect(post(notify('thread-title', TITLE + 'fix the parser', '{"title":"Fix the parser"}')), diag()).toContain(`"pane":"${pb.id}"`);
    // Then B's turn ends.
    expect(post(notify('thread-b', 'fix the parser', 'Fixed.')), diag()).toContain(`"pane":"${pb.id}"`);
    await until('B done by its hook', async () => (await paneOf('codex-b'))?.state === 'DONE', diag);
    expect(await transitions(pb.id), diag()).toEqual([
      ['IDLE', 'RUNNING', 'osc7501.working'],
      ['RUNNING', 'DONE', 'hook.codex.agent_turn_complete'],
    ]);
    expect((await paneOf('codex-a'))!.state).toBe('IDLE');
    expect(await transitions(pa.id)).toEqual([]);

    // A goes away; the app-server (and its environment, naming A) stays and serves B's next turn.
    a.stdin!.end();
    a.kill('SIGTERM');
    await until('A closed', async () => (await paneOf('codex-a')) === undefined, diag);
    b.stdin!.write('\r'); // the stand-in finishes its turn on the screen (OSC 7501 done) ...
    b.stdin!.write('add a test\r'); // ... and starts the next one
    await until('B running again', async () => (await paneOf('codex-b'))?.state === 'RUNNING', diag);
    expect(post(notify('thread-b', 'add a test', 'Added.')), diag()).toContain(`"pane":"${pb.id}"`);
    await until('B done again', async () => (await paneOf('codex-b'))?.state === 'DONE', diag);
    const stats = await dm.get<StatsView>('/api/stats');
    expect(stats.counters['hook.unmatched'] ?? 0).toBe(0);
    expect(stats.counters['hook.matched']).toBe(3);
  });
});
