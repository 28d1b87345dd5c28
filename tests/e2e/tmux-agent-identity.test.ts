// A tmux pane whose foreground is an agent is read as that agent at once, from what the process is (its script's
// npm package, its script's name), not after its first hook: a real tmux server on a private socket, a real daemon,
// the fake Node agent laid out as @google/gemini-cli and as a `claude.exe` script; tmux reports both as `node`.
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { fakeAgentPackage } from '../helpers/fake-package.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const missing = tmuxMissing();
if (missing) console.warn(`tmux agent identity tests SKIPPED: ${missing}`);
const FAKE_AGENT = join(dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'fake-node-agent.cjs');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

describe.skipIf(missing !== null)('daemon --tmux: agents known by their process', () => {
  it('panes running a fake Gemini (by its package) and a fake Claude (claude.exe) are those agents as soon as they are seen', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const entry = fakeAgentPackage(d.dir, '@google/gemini-cli', 'gemini');
    mkdirSync(join(d.dir, 'bin'));
    const claude = join(d.dir, 'bin', 'claude.exe');
    copyFileSync(FAKE_AGENT, claude);
    chmodSync(claude, 0o755);
    // Running before the daemon starts: one through node, one by its path.
    const gem = tmux.newSession('gem', `${process.execPath} ${entry}`, 100, 30);
    const cc = tmux.newSession('cc', claude, 100, 30);
    // A shell where the person starts the agent once the daemon watches.
    const sh = tmux.newSession('work', BASH, 100, 30);
    for (const p of [gem, cc]) await until(`the fake agent's box in ${p}`, async () => tmux.screen(p).includes('▀▀▀'));
    expect(tmux.show(gem, '#{pane_current_command}')).toBe('node');

    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const view = async (p: string) => (await dm.get<PaneView[]>('/api/panes')).find((x) => x.id === tmux.paneId(p));
    const seen = async (p: string) => until(`${p} attached and seeded`, async () => {
      const v = await view(p);
      return v && v.alive && v.edge.some((l) => l.trim() !== '') ? v : null;
    }, dm.diag);
    // The first reading of each pane already names its agent: no hook was ever sent.
    expect(await seen(gem)).toMatchObject({ command: 'node', program: 'gemini' });
    expect((await seen(cc)).program).toBe('claude');
    expect((await seen(sh)).program).toBe('shell');

    tmux.type(sh, `${process.execPath} ${entry}`);
    await until('the agent started in the shell pane is gemini', async () => (await view(sh))?.program === 'gemini' || null, dm.diag);
    await until("the agent's box", async () => tmux.screen(sh).includes('▀▀▀'));
    const transitions = async (p: string) => dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(tmux.paneId(p))}/transitions?limit=100`);
    for (const p of [gem, cc, sh]) expect((await transitions(p)).filter((t) => t.rule.startsWith('hook.')), p).toEqual([]);
  }, 90_000);
});
