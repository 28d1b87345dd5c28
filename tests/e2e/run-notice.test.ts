// `run` says once on stderr, before its program starts, whether a daemon watches the pane (which) or it runs
// unwatched and how to start one; --quiet silences it. In a PTY, as a person runs it: the line comes before the
// program's first byte (a full-screen program's screen is never written into).
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, ROOT } from './harness.js';
import { HeldPty } from './held-pty.js';
import { daemonDirs, DaemonProcess, type DaemonDirs } from './daemon-harness.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

function dirs(): DaemonDirs {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  return d;
}

/** `run ARGS -- printf FIRST-OUTPUT` in a PTY; everything the terminal showed, once it exited. */
async function runInPty(d: DaemonDirs, args: string[], env: Record<string, string> = d.env): Promise<string> {
  const p = new HeldPty(process.execPath, [BIN, 'run', '--log', join(d.dir, 'events.jsonl'), ...args, '--', 'printf', 'FIRST-OUTPUT\\n'], { cols: 200, rows: 24, cwd: ROOT, env });
  cleanups.push(() => p.kill());
  return (await p.ended()).out.toString('utf8');
}

describe('run: the notice before the program', () => {
  it('no daemon: runs unwatched, says how to start one, before the program; --quiet says nothing', async () => {
    const d = dirs();
    const out = await runInPty(d, []);
    expect(out).toMatch(/^termsupervisor: no daemon running: this pane runs unwatched \(transitions go to .*events\.jsonl\); start one with `termsupervisor daemon` \(`make run` in a checkout\)/);
    expect(out.indexOf('no daemon running')).toBeLessThan(out.indexOf('FIRST-OUTPUT'));
    expect(out.match(/termsupervisor:/g)).toHaveLength(1);
    const quiet = await runInPty(d, ['--quiet']);
    expect(quiet).not.toContain('termsupervisor:');
    expect(quiet).toContain('FIRST-OUTPUT');
    expect(await runInPty(d, ['--no-daemon'])).not.toContain('termsupervisor:');
  });

  it('a daemon: says which one watches the pane; a daemon named but not there: says so', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const out = await runInPty(d, []);
    expect(out).toMatch(new RegExp(`^termsupervisor: watched by the daemon at ${dm.url.replace(/[.]/g, '\\.')} `));
    expect(out.indexOf('watched by')).toBeLessThan(out.indexOf('FIRST-OUTPUT'));
    const gone = await runInPty(d, ['--daemon', 'http://127.0.0.1:9']);
    expect(gone).toMatch(/^termsupervisor: no daemon answers at http:\/\/127\.0\.0\.1:9 \(found through --daemon\): this pane runs unwatched until one does/);
  });
});
