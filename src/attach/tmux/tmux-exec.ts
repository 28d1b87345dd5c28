// One-shot tmux commands (list-sessions, -V, a command run with no control client attached), here or over ssh.
import { execFile } from 'node:child_process';
import type { TmuxRunner } from './tmux-runner.js';

/** A one-shot tmux command taking longer is given up: a wedged server must not hang us. */
const EXEC_TIMEOUT_MS = 5000;

export interface ExecResult {
  ok: boolean;
  /** The exit code; 255 also for a command that did not answer in time (as ssh's own failure is). */
  code: number | null;
  lines: string[];
  message: string;
}

/** Runs `tmux args` through `runner`; a failure's message is `describe(stderr)`, else the error's own. */
export function execTmux(runner: TmuxRunner, args: string[], withSocket: boolean, env: NodeJS.ProcessEnv, describe: (stderr: string) => string): Promise<ExecResult> {
  const cmd = runner.command(args, withSocket);
  return new Promise((resolve) => {
    execFile(cmd.file, cmd.args, { env, timeout: EXEC_TIMEOUT_MS }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, code: 0, lines: String(stdout).split('\n').filter(Boolean), message: '' });
      const e = err as Error & { code?: number | string; killed?: boolean };
      // A command that hangs past the timeout is a link that does not answer, as ssh's own failure is.
      const code = e.killed ? 255 : typeof e.code === 'number' ? e.code : null;
      resolve({ ok: false, code, lines: [], message: describe(String(stderr)) || (e.killed ? `no answer within ${EXEC_TIMEOUT_MS / 1000}s` : err.message) });
    });
  });
}
