// The bridge with the REAL `iterm2` Python library, for the conformance test (tests/e2e/iterm2-real-library.test.ts):
// a pretend iTerm2 that speaks iTerm2's protocol (bridge/tests/iterm2_protocol_server.py, on the library's own unix
// socket under a scratch HOME) and the bridge run through bridge/tests/real_library_bridge.py. The library is never
// part of this repository (it is GPLv2): it is found through $ITERM2_LIBRARY_PATH (a folder holding `iterm2/`) or as
// an importable `iterm2`, with a Python that also has its dependencies (websockets, protobuf).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, waitFor } from '../e2e/harness.js';

const TESTS = join(ROOT, 'bridge', 'tests');

export interface RealLibrary {
  python: string;
  /** The folder that holds the library's `iterm2/` package. */
  path: string;
  version: string;
}

/** The real library and a Python that can run it, or why not (the test then says it skipped). */
export function findRealLibrary(): RealLibrary | string {
  const lib = process.env['ITERM2_LIBRARY_PATH'];
  const pythons = [...new Set([process.env['ITERM2_PYTHON'], 'python3', '/usr/bin/python3'].filter((p): p is string => !!p))];
  const probe = 'import os, iterm2, websockets, google.protobuf; print(iterm2.__version__); print(os.path.dirname(os.path.dirname(os.path.abspath(iterm2.__file__))))';
  const tried: string[] = [];
  for (const python of pythons) {
    const r = spawnSync(python, ['-c', probe], { env: { ...process.env, ...(lib ? { PYTHONPATH: lib } : {}) }, encoding: 'utf8' });
    if (r.status === 0) {
      const [version, path] = r.stdout.trim().split('\n');
      return { python, path: path!, version: version! };
    }
    tried.push(`${python}: ${(r.stderr || String(r.error ?? '')).trim().split('\n').pop()}`);
  }
  return `no Python here imports the real iterm2 library with websockets and protobuf (ITERM2_LIBRARY_PATH=${lib ?? 'unset'}; ${tried.join('; ')})`;
}

type Event = { event: string; n?: number; error?: string; [k: string]: unknown };

/** A child that reads JSON commands on stdin and writes JSON events on stdout (the pretend iTerm2). */
class JsonChild {
  readonly events: Event[] = [];
  stderr = '';
  private buf = '';
  private sent = 0;
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (d: Buffer) => {
      this.buf += d.toString();
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        if (line.trim()) this.events.push(JSON.parse(line) as Event);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  async command(cmd: Record<string, unknown>, diag: () => string): Promise<void> {
    const n = ++this.sent;
    this.child.stdin!.write(JSON.stringify(cmd) + '\n');
    const ev = await waitFor(`iTerm2 command ${n} (${String(cmd['op'])})`, () => this.events.find((e) => e.n === n), diag);
    if (ev.event === 'error') throw new Error(`iTerm2 command ${JSON.stringify(cmd)} failed: ${ev.error}\n${diag()}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** The pretend iTerm2 and the bridge (real library) running against it; HOME and the daemon's dirs from `env`. */
export class RealLibraryBridge {
  private constructor(readonly iterm: JsonChild, readonly bridge: JsonChild) {}

  static async start(lib: RealLibrary, env: Record<string, string>, stateDir: string, windows: Record<string, Array<[string, string, number, number]>>): Promise<RealLibraryBridge> {
    const cookie = 'autolaunch-cookie';
    const iterm = new JsonChild(spawn(lib.python, [join(TESTS, 'iterm2_protocol_server.py'), lib.path, stateDir, cookie, JSON.stringify(windows)], { cwd: ROOT, env: { ...env, PYTHONPATH: lib.path }, stdio: ['pipe', 'pipe', 'pipe'] }));
    await waitFor('the pretend iTerm2 listening', () => iterm.events.find((e) => e.event === 'listening'), () => iterm.stderr);
    // As iTerm2 starts an AutoLaunch script: with a cookie (single use) in ITERM2_COOKIE.
    const bridgeEnv = { ...env, PYTHONPATH: lib.path, ITERM2_LIBRARY_PATH: lib.path, FAKE_ITERM2_STATE: stateDir, ITERM2_COOKIE: cookie, ITERM2_KEY: 'autolaunch-key' };
    const bridge = new JsonChild(spawn(lib.python, [join(TESTS, 'real_library_bridge.py')], { cwd: ROOT, env: bridgeEnv, stdio: ['pipe', 'pipe', 'pipe'] }));
    return new RealLibraryBridge(iterm, bridge);
  }

  /** Scripts one thing iTerm2 does (iterm2_protocol_server.py's ops) and waits until it is done. */
  do(cmd: Record<string, unknown>): Promise<void> {
    return this.iterm.command(cmd, () => this.diag());
  }

  /** Session `session` shows `lines` from the top, the cursor after the last one. */
  show(session: string, lines: string[], rows = 24): Promise<void> {
    const all = [...lines, ...new Array<string>(Math.max(0, rows - lines.length)).fill('')];
    const y = lines.length - 1;
    return this.do({ op: 'show', session, rows: all, cursor: [lines[y]!.length, y] });
  }

  eventsOf(kind: string): Event[] {
    return this.iterm.events.filter((e) => e.event === kind);
  }

  diag(): string {
    const tail = (s: string) => s.split('\n').slice(-40).join('\n');
    return `bridge stderr:\n${tail(this.bridge.stderr)}\npretend iTerm2 stderr:\n${tail(this.iterm.stderr)}\niTerm2 events: ${JSON.stringify(this.iterm.events.slice(-12))}`;
  }

  async stop(): Promise<void> {
    await this.bridge.stop();
    await this.iterm.stop();
  }
}
