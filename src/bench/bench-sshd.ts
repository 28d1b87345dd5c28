// An OpenSSH server for the remote bench: Debian's sshd on 127.0.0.1 at a free port, host and user keys made in a
// throw-away folder, the user key authorized for the current user, and a known_hosts that knows the host. The
// daemon reaches it through its `ssh_command` only, so nothing of the person's own ssh set-up is read or changed.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';

const SSHD = '/usr/sbin/sshd';
/** sshd is listening well within this (it generates nothing at start: the keys are made before). */
const LISTEN_TIMEOUT_MS = 10_000;

export function sshdMissing(): string | null {
  return existsSync(SSHD) ? null : `${SSHD} is missing (apt-get install openssh-server)`;
}

export class BenchSshd {
  private proc: ChildProcess | null = null;
  readonly key: string;
  readonly knownHosts: string;

  private constructor(readonly dir: string, readonly port: number) {
    this.key = join(dir, 'id_ed25519');
    this.knownHosts = join(dir, 'known_hosts');
  }

  static async start(dir: string): Promise<BenchSshd> {
    const s = new BenchSshd(dir, await freePort());
    const { config } = writeSshdFiles(dir, s.port);
    s.proc = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: 'ignore' });
    const deadline = Date.now() + LISTEN_TIMEOUT_MS;
    while (!(await accepts(s.port))) {
      if (Date.now() > deadline || s.proc.exitCode !== null) throw new Error(`sshd did not listen on 127.0.0.1:${s.port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return s;
  }

  get destination(): string {
    return `${userInfo().username}@127.0.0.1:${this.port}`;
  }

  get sshCommand(): string {
    return `ssh -F /dev/null -o UserKnownHostsFile=${this.knownHosts} -o GlobalKnownHostsFile=/dev/null -o LogLevel=ERROR`;
  }

  stop(): void {
    this.proc?.kill('SIGTERM');
    this.proc = null;
  }
}

/** Keys, authorized_keys, an sshd_config for 127.0.0.1:`port` and a known_hosts (empty unless `know`: an unknown
 * host) in `dir`; also the tests' server (tests/helpers/ssh-server.ts). Paths by the names BenchSshd reads. */
export function writeSshdFiles(dir: string, port: number, know = true): { key: string; knownHosts: string; config: string } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = join(dir, 'id_ed25519');
  const knownHosts = join(dir, 'known_hosts');
  const config = join(dir, 'sshd_config');
  const hostKey = join(dir, 'host_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${key}.pub`), { mode: 0o600 });
  const options = [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${hostKey}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    'StrictModes no',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PubkeyAuthentication yes',
    'PermitRootLogin prohibit-password',
    'UsePAM no',
    'PrintMotd no',
    'AllowAgentForwarding no',
    'X11Forwarding no',
    'LogLevel ERROR',
  ];
  writeFileSync(config, options.join('\n') + '\n');
  const hostPub = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  writeFileSync(knownHosts, know ? `[127.0.0.1]:${port} ${hostPub}\n` : '');
  // sshd wants its privilege-separation folder; only root can make it (a non-root sshd runs without it).
  try {
    mkdirSync('/run/sshd', { recursive: true });
  } catch {
    // not root: sshd runs unprivileged on its high port
  }
  return { key, knownHosts, config };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
}
