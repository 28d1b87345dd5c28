// The real Python bridge (bridge/iterm2_bridge.py) running against a fake iTerm2 (bridge/tests/iterm2_driver.py),
// for end-to-end tests: the test scripts iTerm2 through the driver's stdin and reads what the bridge was asked to
// type from its stdout. The bridge finds the daemon and its token as it would on a person's Mac (XDG dirs, the
// runtime file).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, waitFor } from '../e2e/harness.js';

const DRIVER = join(ROOT, 'bridge', 'tests', 'iterm2_driver.py');

/** Python 3 is needed for these tests (the bridge's own language); without it they are skipped, loudly. */
export function hasPython(): boolean {
  return spawnSync('python3', ['--version']).status === 0;
}

export type DriverEvent = { event: 'done' | 'error'; n: number; error?: string } | { event: 'sent_text'; session: string; text: string; suppress_broadcast: boolean };

export class PythonBridge {
  readonly events: DriverEvent[] = [];
  stderr = '';
  private stdoutBuf = '';
  private sent = 0;
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (d: Buffer) => {
      this.stdoutBuf += d.toString();
      let nl: number;
      while ((nl = this.stdoutBuf.indexOf('\n')) >= 0) {
        const line = this.stdoutBuf.slice(0, nl);
        this.stdoutBuf = this.stdoutBuf.slice(nl + 1);
        if (line.trim()) this.events.push(JSON.parse(line) as DriverEvent);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** Starts the bridge with iTerm2 showing `windows` ({window id: [[session id, name, cols, rows], …]}). */
  static start(env: Record<string, string>, windows: Record<string, Array<[string, string, number, number]>>): PythonBridge {
    return new PythonBridge(spawn('python3', [DRIVER, JSON.stringify(windows)], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  /** Scripts one thing iTerm2 does (see the driver's ops) and waits until the fake iTerm2 has done it. */
  async iterm(cmd: Record<string, unknown>): Promise<void> {
    const n = ++this.sent;
    this.child.stdin!.write(JSON.stringify(cmd) + '\n');
    const ev = await waitFor(`iTerm2 command ${n} (${String(cmd['op'])})`, () => this.events.find((e) => 'n' in e && e.n === n), () => this.diag());
    if (ev.event === 'error') throw new Error(`iTerm2 command ${JSON.stringify(cmd)} failed: ${'error' in ev ? ev.error : ''}\n${this.diag()}`);
  }

  /** The shell's screen in session `session`: `lines` from the top, the cursor after the last one. */
  show(session: string, lines: string[], rows = 24): Promise<void> {
    const all = [...lines, ...new Array<string>(Math.max(0, rows - lines.length)).fill('')];
    const y = lines.length - 1;
    return this.iterm({ op: 'show', session, rows: all, cursor: [lines[y]!.length, y], first_line: 1000 });
  }

  sentText(): Array<{ session: string; text: string; suppress_broadcast: boolean }> {
    return this.events.filter((e): e is Extract<DriverEvent, { event: 'sent_text' }> => e.event === 'sent_text');
  }

  diag(): string {
    return `bridge stderr:\n${this.stderr.split('\n').slice(-40).join('\n')}\nbridge events: ${JSON.stringify(this.events.slice(-10))}`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}
