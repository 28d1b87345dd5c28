// tmux presence on a remote server (issue 29: "works for remote tmux servers too"): a real OpenSSH server on
// 127.0.0.1 serving a real tmux server, followed by a real daemon through `ssh … tmux -C` (config `remotes`). The
// options are set on the remote's server, through the same control client the panes are read from.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { tmuxSocketDir } from '../../src/attach/tmux/tmux-socket.js';
import { sshMissing, TestSshd } from '../helpers/ssh-server.js';
import type { PaneView } from '../../src/web/api-types.js';

const missing = tmuxMissing() ?? sshMissing();
if (missing) console.warn(`remote tmux presence test SKIPPED: ${missing}`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

beforeAll(() => ensureBuilt(), 120_000);

describe.skipIf(missing !== null)('tmux presence on a remote server (real sshd, real tmux)', () => {
  it("the remote's panes are marked on the remote's own server", async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const sshd = await TestSshd.start(join(d.dir, 'ssh'));
    cleanups.push(() => sshd.stop());
    const remote = new TestTmux(d.env);
    cleanups.push(() => remote.kill(true));
    const r = remote.newSession('work', BASH, 100, 30);
    const cfg = join(d.dir, 'remote.json');
    writeFileSync(cfg, JSON.stringify({ tmux: { enabled: false }, ssh: { ssh_command: sshd.sshCommand() }, remotes: [{ name: 'devbox', destination: sshd.destination, identity_file: sshd.key, socket: join(tmuxSocketDir(d.env), remote.socket) }] }));
    mkdirSync(join(d.dir, 'state'), { recursive: true });
    const dm = await DaemonProcess.start(d, ['--config', cfg]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const id = `devbox:${r}`;
    const state = async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.id === id);
    await until('the remote pane attached and seeded', async () => (await state())?.edge.some((l) => l.trim() !== ''), () => dm.diag());
    remote.type(r, ':');
    await until('the no-op', async () => remote.screen(r).includes('$ :\n$'), () => dm.diag());
    remote.type(r, 'sleep 2; echo finished');
    await until('running, marked on the remote', async () => (await state())?.state === 'RUNNING' && remote.show(r, '#{@termsupervisor_state}') === 'running', () => dm.diag(), 30_000);
    await until('done, marked on the remote', async () => (await state())?.state === 'DONE' && remote.show(r, '#{@termsupervisor_state}') === 'done', () => dm.diag(), 30_000);
    expect(remote.run('show-options', '-gv', '@termsupervisor_needs').trim()).toBe('1');
    expect(remote.run('show-options', '-gv', '@termsupervisor_status')).toContain('✓ 1');
  }, 90_000);
});
