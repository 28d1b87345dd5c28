// A real OpenSSH server (Debian's openssh-server) for the remote tests: on 127.0.0.1 at a free port, with a host key
// and a user key made in a temp folder, authorized for the current user, and a known_hosts file that knows it. The
// daemon reaches it through `ssh_command` (`ssh -F /dev/null -o UserKnownHostsFile=… -i key -p PORT`), so the
// person's own ssh config and keys are never read or touched.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort, writeSshdFiles } from '../../src/bench/bench-sshd.js';

export const SSHD = '/usr/sbin/sshd';

/** Why the ssh tests cannot run here, or null. */
export function sshMissing(): string | null {
  for (const bin of [SSHD, '/usr/bin/ssh', '/usr/bin/ssh-keygen']) {
    if (!existsSync(bin)) return `${bin} is missing (make test installs openssh-server and openssh-client when run as root)`;
  }
  return null;
}

export class TestSshd {
  readonly user = userInfo().username;
  readonly key: string;
  readonly knownHosts: string;
  private proc: ChildProcess | null = null;
  private readonly frozen: number[] = [];
  private readonly config: string;

  private constructor(readonly dir: string, readonly port: number) {
    this.key = join(dir, 'id_ed25519');
    this.knownHosts = join(dir, 'known_hosts');
    this.config = join(dir, 'sshd_config');
  }

  /** Keys, config and the server; `know` false leaves known_hosts empty (an unknown host). */
  static async start(dir: string, know = true): Promise<TestSshd> {
    const s = new TestSshd(dir, await freePort());
    writeSshdFiles(dir, s.port, know);
    await s.resume();
    return s;
  }

  get destination(): string {
    return `${this.user}@127.0.0.1:${this.port}`;
  }

  /** The ssh command the daemon is given: nothing of the person's own ssh set-up is read. */
  sshCommand(): string {
    return `ssh -F /dev/null -o UserKnownHostsFile=${this.knownHosts} -o GlobalKnownHostsFile=/dev/null -o LogLevel=ERROR`;
  }

  /** Starts (again) listening; resolves once the port accepts connections. */
  async resume(): Promise<void> {
    this.proc = spawn(SSHD, ['-D', '-e', '-f', this.config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    this.proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    for (let i = 0; i < 100; i++) {
      if (this.proc.exitCode !== null) throw new Error(`sshd exited: ${err}`);
      try {
        execFileSync('bash', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${this.port}`], { stdio: 'ignore' });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`sshd did not listen on ${this.port}: ${err}`);
  }

  /** The host goes down: the listener and every session it started end (the links drop at once). */
  async down(): Promise<void> {
    const pid = this.proc?.pid;
    if (!pid || this.proc!.exitCode !== null) return;
    const sessions = childrenOf(pid);
    const gone = new Promise((r) => this.proc!.once('exit', r));
    this.proc!.kill('SIGKILL');
    await gone;
    for (const p of sessions) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** The open connections go silent (their sshd processes stopped, nothing closed: a link that died without a
   * word, as a sleeping laptop's or a dropped route's); the listener still takes new connections. Returns the
   * stopped processes (killed by stop()). */
  freezeSessions(): number[] {
    const pid = this.proc?.pid;
    if (!pid) return [];
    const sessions = childrenOf(pid);
    for (const p of sessions) process.kill(p, 'SIGSTOP');
    this.frozen.push(...sessions);
    return sessions;
  }

  async stop(): Promise<void> {
    for (const p of this.frozen.splice(0)) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await this.down();
  }
}

/** Every descendant of `pid` (sshd's per-connection processes). */
function childrenOf(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [c, pp] of parent) if (pp === p) (out.push(c), walk(c));
  };
  walk(pid);
  return out;
}
