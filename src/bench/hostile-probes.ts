// What the hostile bench measures besides transitions: /healthz of the daemon and of a control server (a trivial
// HTTP server in a process of its own, polled the same way in the same run: when both are slow the machine is
// loaded, when only the daemon is, the daemon is stalled), and how long the `run` wrapper takes to give the
// person's shell back after its program exits, with and without a daemon.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN_PATH } from './daemon-proc.js';
import { scrollPairs } from './hostile-storms.js';

/** /healthz is asked this often, one request at a time. */
const HEALTH_EVERY_MS = 50;
/** A request unanswered this long counts as failed (a frozen daemon). */
const HEALTH_TIMEOUT_MS = 10_000;

/** Asks `url` every HEALTH_EVERY_MS, one request at a time; answer times kept by the phase they started in. */
export class HealthPoller {
  readonly samples = new Map<string, number[]>();
  failures = 0;
  phase = 'warm-up';
  private stopped = false;
  private readonly done: Promise<void>;
  constructor(private readonly url: string) {
    this.done = this.loop();
  }
  of(phase: string): number[] {
    return this.samples.get(phase) ?? [];
  }
  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
  private async loop(): Promise<void> {
    while (!this.stopped) {
      const phase = this.phase;
      const t0 = performance.now();
      try {
        const res = await fetch(this.url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
        await res.text();
        if (res.ok) {
          const list = this.samples.get(phase) ?? [];
          list.push(performance.now() - t0);
          this.samples.set(phase, list);
        } else this.failures++;
      } catch {
        this.failures++;
      }
      await new Promise((r) => setTimeout(r, HEALTH_EVERY_MS));
    }
  }
}

/** A trivial HTTP server in a child process: GET anything → 200 "ok". */
export class ControlServer {
  private child: ChildProcess | null = null;
  url = '';

  async start(): Promise<void> {
    const code = `const s=require('http').createServer((q,r)=>r.end('ok'));s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`;
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.child = child;
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (b: Buffer) => resolve(Number(String(b).trim())));
      child.once('exit', (c) => reject(new Error(`control server exited (${c})`)));
    });
    this.url = `http://127.0.0.1:${port}/healthz`;
  }

  stop(): void {
    this.child?.kill('SIGKILL');
    this.child = null;
  }
}

export interface WrapperExit {
  /** The wrapper's exit, after its program's (ms); NaN when the program's end was not seen. */
  exitAfterMs: number;
  /** How long the program ran (ms), from the wrapper's start. */
  programMs: number;
}

/** Bytes of scroll pairs the wrapper's program prints: the 10 MB. */
export const WRAPPER_STORM_BYTES = 10 << 20;

/**
 * Runs `termsupervisor run -- sh -c 'cat <scroll pairs>; date > end'` (a one-shot) with its output to /dev/null and
 * measures when the wrapper exits against when its program did. `daemon`: join this daemon (its XDG folder holds the
 * token); null: --no-daemon. Its event log goes to a temp folder.
 */
export async function measureWrapperExit(daemon: { url: string; dir: string } | null): Promise<WrapperExit> {
  const dir = mkdtempSync(join(tmpdir(), 'ts-bench-wrapper-'));
  try {
    const file = join(dir, 'scroll.bin');
    const endFile = join(dir, 'end');
    writeFileSync(file, scrollPairs(WRAPPER_STORM_BYTES));
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: join(dir, 'state'), XDG_RUNTIME_DIR: join(dir, 'run') };
    if (daemon) env['XDG_CONFIG_HOME'] = join(daemon.dir, 'config');
    delete env['TERMSUPERVISOR_DAEMON'];
    delete env['NODE_OPTIONS'];
    const args = [BIN_PATH, 'run', '--quiet', '--log', join(dir, 'events.jsonl'), ...(daemon ? ['--daemon', daemon.url] : ['--no-daemon']), '--', 'sh', '-c', `cat ${file}; date +%s%3N > ${endFile}`];
    const t0 = Date.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const exited = Date.now();
    let end = NaN;
    try {
      end = Number(readFileSync(endFile, 'utf8').trim());
    } catch {
      // the program did not get to its end
    }
    return { exitAfterMs: exited - end, programMs: end - t0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
