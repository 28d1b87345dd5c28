// A real `termsupervisor daemon` for the dashboard tests: own XDG dirs and a free port, started from the built
// CLI, ready once it prints its one-time dashboard link. Panes join it with `run --daemon` (same XDG config dir,
// so they find the token) or, cheaply, as link websockets speaking the pane-link protocol.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { BIN, ROOT, testEnv, waitFor } from '../e2e/harness.js';
import { LINK_PROTOCOL_VERSION, type LinkMessage } from '../../src/attach/link-protocol.js';

const READY = /termsupervisor: dashboard (http:\/\/[^/\s]+)(\/auth\?code=\S+)/;

export class Daemon {
  readonly dir = mkdtempSync(join(tmpdir(), 'ts-dash-'));
  readonly env: Record<string, string>;
  readonly child: ChildProcess;
  out = '';
  /** http://127.0.0.1:PORT */
  url = '';
  /** The one-time link the daemon printed (works once). */
  authUrl = '';
  exited = false;
  private readonly links: WebSocket[] = [];

  private constructor(extraEnv: Record<string, string>) {
    this.env = testEnv(this.dir, extraEnv);
    mkdirSync(join(this.dir, 'run'), { recursive: true, mode: 0o700 });
    this.child = spawn(process.execPath, [BIN, 'daemon', '--port', '0', '--db', join(this.dir, 'db.sqlite')], { cwd: ROOT, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      this.out += `\n[daemon exited: code ${code}, signal ${signal}]\n`;
    });
  }

  /** `extraEnv`: more environment for the daemon (and for panes started with `env`). */
  static async start(extraEnv: Record<string, string> = {}): Promise<Daemon> {
    const d = new Daemon(extraEnv);
    const m = await waitFor('the daemon to print its dashboard link', () => READY.exec(d.out) ?? (d.exited ? ([] as unknown as RegExpExecArray) : null), d.diag);
    if (!m[1]) throw new Error(`the daemon exited before it was ready\n${d.diag()}`);
    d.url = m[1];
    d.authUrl = m[1] + m[2]!;
    return d;
  }

  diag = (): string => `daemon output:\n${this.out}`;

  /** A pane joined the way the run wrapper does, without a process behind it. */
  async link(id: string, name: string, command = 'bash'): Promise<{ send: (m: LinkMessage) => void; close: () => void; typed: string[] }> {
    const token = readFileSync(join(this.dir, 'config', 'termsupervisor', 'token'), 'utf8').trim();
    const ws = new WebSocket(this.url.replace('http', 'ws') + '/api/pane-link', { headers: { authorization: `Bearer ${token}` } });
    this.links.push(ws);
    // the keys the daemon typed into this pane (its `send` messages), in order
    const typed: string[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { type: string; data?: string };
      if (m.type === 'send' && typeof m.data === 'string') typed.push(m.data);
    });
    const welcomed = new Promise<void>((resolve, reject) => {
      ws.on('message', (d) => JSON.parse(d.toString()).type === 'welcome' && resolve());
      ws.once('error', reject);
      ws.once('close', () => reject(new Error(`pane link ${id} closed before the welcome\n${this.diag()}`)));
    });
    welcomed.catch(() => {}); // a failed open is reported below; this one must not go unhandled
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const send = (m: LinkMessage) => ws.send(JSON.stringify(m));
    send({ type: 'hello', v: LINK_PROTOCOL_VERSION, id, name, agent: 'shell', command, cols: 80, rows: 24 });
    await welcomed;
    // the pane closes when its link does, as when a run wrapper exits
    return { send, close: () => ws.close(1000, 'exit'), typed };
  }

  async stop(): Promise<void> {
    for (const ws of this.links) ws.terminate();
    if (!this.exited) {
      this.child.kill('SIGTERM');
      await waitFor('the daemon to exit', () => this.exited, this.diag).catch(() => this.child.kill('SIGKILL'));
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
