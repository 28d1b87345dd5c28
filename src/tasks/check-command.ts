// A task's `check` command (the project's tests, a build): run in a shell after a turn; exit 0 means the goal is
// met. Bounded in time and output, killed with its whole process group when the task stops or time runs out.
import { spawn } from 'node:child_process';

/** Output kept for the record: the end of it, where test runners print their summary. */
export const CHECK_OUTPUT_CHARS = 2000;
/** After SIGTERM a check gets this long to exit before SIGKILL. */
const KILL_GRACE_MS = 2000;

export interface CheckResult {
  /** null: it did not exit by itself (timed out, stopped, or could not start). */
  exitCode: number | null;
  output: string;
}

export function runCheck(cmd: string, opts: { cwd?: string | null; timeoutMs: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv }): Promise<CheckResult> {
  return new Promise((resolve) => {
    let out = '';
    const keep = (b: Buffer) => {
      out = (out + b.toString('utf8')).slice(-CHECK_OUTPUT_CHARS * 2);
    };
    const child = spawn('/bin/sh', ['-c', cmd], { cwd: opts.cwd ?? undefined, env: opts.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let why = '';
    const kill = (reason: string) => {
      why = reason;
      try {
        process.kill(-child.pid!, 'SIGTERM');
        setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
        }, KILL_GRACE_MS).unref();
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => kill(`timed out after ${Math.round(opts.timeoutMs / 1000)} s`), opts.timeoutMs);
    const onAbort = () => kill('stopped');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const done = (exitCode: number | null, extra = '') => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      const text = (out + extra + (why ? `\n[check ${why}]` : '')).slice(-CHECK_OUTPUT_CHARS);
      resolve({ exitCode: why ? null : exitCode, output: text });
    };
    child.on('error', (e) => done(null, `\n[check could not start: ${e.message}]`));
    child.on('close', (code) => done(code));
  });
}
