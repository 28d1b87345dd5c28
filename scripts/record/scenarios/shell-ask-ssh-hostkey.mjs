// ssh to a local sshd (loopback, scratch host key and config, run as nobody) with an unknown host key:
// `Are you sure you want to continue connecting (yes/no/[fingerprint])? ` answered yes, then the password
// prompt `demo@127.0.0.1's password: ` answered with Ctrl-C (ssh exits 255).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let sshd = null;
let keyDir = null;
export default {
  name: 'shell-ask-ssh-hostkey',
  scenario: "bash without shell integration: `ssh -F ssh_config box` to a local sshd with an unknown host key: the host-key question answered yes after 3 s, then the password prompt answered with Ctrl-C after 3 s (exit 255)",
  setup: async ({ dir }) => {
    keyDir = mkdtempSync(join(tmpdir(), 'ts-sshd-'));
    chmodSync(keyDir, 0o755);
    const key = join(keyDir, 'host_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    chownSync(key, nobody, -1);
    const port = 20000 + Math.floor(Math.random() * 20000);
    writeFileSync(join(keyDir, 'sshd_config'), `Port ${port}\nListenAddress 127.0.0.1\nHostKey ${key}\nPidFile none\nUsePAM no\nPasswordAuthentication yes\nKbdInteractiveAuthentication no\n`);
    // Not root: sshd needs no privilege-separation directory then, and nothing of the system's is touched.
    sshd = spawn('runuser', ['-u', 'nobody', '--', '/usr/sbin/sshd', '-D', '-e', '-f', join(keyDir, 'sshd_config')], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 800));
    writeFileSync(join(dir, 'ssh_config'), `Host box\n  HostName 127.0.0.1\n  Port ${port}\n  User demo\n  UserKnownHostsFile ${dir}/known_hosts\n  PubkeyAuthentication no\n`);
  },
  teardown: async () => {
    sshd?.kill();
    if (keyDir) rmSync(keyDir, { recursive: true, force: true });
  },
  steps: [
    { wait: 2 },
    { type: 'ssh -F ssh_config box', enter: true, silent_failure: true },
    { wait: 'blocked', means: 'question' },
    { wait: 3 },
    { answer: 'yes' },
    { wait: 'blocked', means: 'question' },
    { wait: 3 },
    { answer: ['C-c'] },
    { wait: 'command_end' },
  ],
  tail: 3,
};
