// One daemon per database and runtime file (issue 14, item 3): a second `termsupervisor daemon` on the same dirs
// refuses at once, names the first's address and exits non-zero, whatever port it was given; the first keeps its
// runtime file and clients keep finding it. The lock dies with its process: after kill -9 a new daemon starts even
// though the dead one's runtime file is still there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, testEnv } from './harness.js';
import { DaemonProcess, daemonScratch, runCli, runWrapper, until } from './daemon-harness.js';

const { cleanups, dirs } = daemonScratch();

async function first() {
  const d = dirs();
  const daemon = await DaemonProcess.start(d, ['--no-tmux']);
  cleanups.push(() => void daemon.stop('SIGKILL'));
  return { d, daemon };
}

function runtimeUrl(daemon: DaemonProcess): string {
  return (JSON.parse(readFileSync(daemon.runtimeFile, 'utf8')) as { url: string }).url;
}

describe('a second daemon', () => {
  it('on the same dirs refuses at once with the first one\'s URL, whatever port; the first stays found', async () => {
    const { d, daemon } = await first();
    const port = new URL(daemon.url).port;
    for (const args of [['--port', '0'], ['--port', port], ['--port', '0', '--db', join(d.dir, 'other.sqlite')]]) {
      const r = await runCli([process.execPath, BIN, 'daemon', '--no-tmux', '--db', d.db, ...args], d.env);
      expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(`already runs at ${daemon.url}`);
      expect(r.stdout).not.toContain('listening');
    }
    expect(daemon.child.exitCode).toBeNull();
    expect(runtimeUrl(daemon)).toBe(daemon.url);

    // Clients find the first: status, task, and a run wrapper's pane lands in its history.
    const status = await runCli([process.execPath, BIN, 'status'], d.env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(daemon.url);
    const tasks = await runCli([process.execPath, BIN, 'task', 'list'], d.env);
    expect(tasks.code, tasks.stderr).toBe(0);
    const w = runWrapper(d, ['--name', 'found-first'], ['sleep', '30']);
    cleanups.push(() => void w.kill('SIGKILL'));
    await until('the run wrapper\'s pane in the first daemon', async () => (await daemon.get<Array<{ name: string }>>('/api/panes')).some((p) => p.name === 'found-first'), () => w.out + daemon.diag());
  });

  it('with other XDG dirs but the same database refuses too', async () => {
    const { d, daemon } = await first();
    const other = dirs();
    const r = await runCli([process.execPath, BIN, 'daemon', '--port', '0', '--no-tmux', '--db', d.db], other.env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`is using the history database ${d.db}`);
    expect(daemon.child.exitCode).toBeNull();
  });

  it('starts after the first was killed with -9, its runtime file left behind', async () => {
    const { d, daemon } = await first();
    await daemon.stop('SIGKILL');
    expect(daemon.runtimeFileExists()).toBe(true);
    const next = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(() => void next.stop('SIGKILL'));
    expect(runtimeUrl(next)).toBe(next.url);
    const status = await runCli([process.execPath, BIN, 'status'], testEnv(d.dir));
    expect(status.stdout).toContain(next.url);
  });
});
