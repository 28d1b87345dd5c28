// Issue 14, item 7, as written: a pane named `\e]0;evil\a\e[2J` (a real `run` wrapper on a real daemon) must not
// retitle or clear the person's terminal through `status`, `logs` or `wait`: each prints the name with its control
// characters escaped; `status --json` keeps the exact name as JSON.
import { describe, expect, it } from 'vitest';
import { BIN } from './harness.js';
import { DaemonProcess, daemonScratch, runCli, runWrapper, until } from './daemon-harness.js';
import type { PaneView } from '../../src/web/api-types.js';

const { cleanups, dirs } = daemonScratch();
const EVIL = '\x1b]0;evil\x07\x1b[2J';
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/; // anything but the line breaks between records

describe('CLI output of a hostile pane name', () => {
  it('status, status --json, logs and wait escape it', async () => {
    const d = dirs();
    const daemon = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(() => void daemon.stop('SIGKILL'));
    const w = runWrapper(d, ['--name', EVIL], ['sleep', '30']);
    cleanups.push(() => void w.kill('SIGKILL'));
    await until('the pane', async () => (await daemon.get<PaneView[]>('/api/panes')).some((p) => p.name === EVIL && p.alive), () => w.out + daemon.diag());

    const cli = (...args: string[]) => runCli([process.execPath, BIN, ...args], d.env);
    const status = await cli('status', '--no-color');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('\\e]0;evil\\x07\\e[2J');
    expect(status.stdout).not.toMatch(ACTIVE);

    const json = await cli('status', '--json');
    expect((JSON.parse(json.stdout) as PaneView[]).map((p) => p.name)).toContain(EVIL);
    expect(json.stdout).not.toMatch(ACTIVE);

    const logs = await cli('logs', '--no-follow', '--file', `${d.dir}/events.jsonl`);
    expect(logs.stdout).toContain('\\e]0;evil');
    expect(logs.stdout + logs.stderr).not.toMatch(ACTIVE);

    // `wait` lists the known panes when the one asked for is not there.
    const wait = await cli('wait', 'nope', '--until', 'done', '--timeout', '5');
    expect(wait.code).toBe(2);
    expect(wait.stderr).toContain('\\e]0;evil');
    expect(wait.stderr).not.toMatch(ACTIVE);
  });
});
