// No command prints a stack trace when the reader of its output goes away (`status | head -1`): the pipe's read
// end is closed before the command writes, as a `head` that has read its line does; the command exits quietly.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, ROOT } from './harness.js';
import { daemonDirs, DaemonProcess, type DaemonDirs } from './daemon-harness.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

/** Runs the command with its stdout a pipe whose read end is closed at once; its exit code and stderr. */
function withClosedPipe(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    c.stdout.destroy();
    let stderr = '';
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    c.on('close', (code) => resolve({ code, stderr }));
  });
}

function dirs(): DaemonDirs {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  return d;
}

describe('a closed output pipe', () => {
  it('help, a command\'s help, logs and replay exit quietly', async () => {
    const d = dirs();
    const log = join(d.dir, 'events.jsonl');
    const line = (i: number) => JSON.stringify({ ts: new Date(1_700_000_000_000 + i * 1000).toISOString(), kind: 'transition', pane: 'p', name: 'p', state: 'RUNNING', from: 'IDLE', tier: 1, rule: 'r', line: 'x'.repeat(80) });
    writeFileSync(log, Array.from({ length: 3000 }, (_, i) => line(i)).join('\n') + '\n');
    const cast = join(ROOT, 'tests', 'fixtures', 'corpus', 'shell-yes-no-prompt', 'session.cast');
    for (const args of [['help'], ['help', 'wait'], ['logs', '--file', log], ['replay', cast, '--format', 'table']]) {
      const r = await withClosedPipe(args, d.env);
      expect(r.stderr, args.join(' ')).not.toMatch(/EPIPE|Error|\n\s+at /);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
  });

  it('status and status --json against a real daemon exit quietly', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d, ['--no-tmux']);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    for (const args of [['status', '--all'], ['status', '--json']]) {
      const r = await withClosedPipe(args, d.env);
      expect(r.stderr, args.join(' ')).not.toMatch(/EPIPE|Error|\n\s+at /);
      expect(r.code, r.stderr).toBe(0);
    }
  });
});
