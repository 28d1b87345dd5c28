// The remote tmux servers the daemon follows: config `remotes` plus `daemon --remote [user@]host[:port]` (named after
// its host, read-only), each turned into what the tmux watcher needs to run tmux there through ssh.
import { mkdirSync } from 'node:fs';
import type { Config, RemoteConfig } from '../config/config.js';
import { parseDestination, sshBase, SshSpecError, type SshSettings } from '../attach/ssh/ssh-command.js';
import { remoteServerArgs, type RemoteTmux } from '../attach/tmux/tmux-runner.js';

export type RemoteSpec = RemoteTmux & { allowTyping: boolean };

/** A `--remote` destination as a config item: named after its host, its default tmux server, no typing. */
export function remoteFromFlag(dest: string): RemoteConfig {
  const d = parseDestination(dest);
  return { name: d.host, destination: dest, identity_file: '', socket: '', tmux: 'tmux', allow_typing: false };
}

function withDefaults(r: Partial<RemoteConfig> & Pick<RemoteConfig, 'name' | 'destination'>): RemoteConfig {
  return { identity_file: '', socket: '', tmux: 'tmux', allow_typing: false, ...r };
}

/** Every remote, checked (a bad destination or ssh command is refused at start, as config errors are). */
export function remoteSpecs(cfg: Config, flags: string[], controlDir: string, env: NodeJS.ProcessEnv): RemoteSpec[] {
  // The schema checked each item's keys and types; the ones left out take their defaults here.
  const all = [...cfg.remotes.map(withDefaults), ...flags.map(remoteFromFlag)];
  if (!all.length) return [];
  const names = new Set<string>();
  for (const r of all) {
    if (names.has(r.name)) throw new SshSpecError(`remote ${JSON.stringify(r.name)} is configured twice (config remotes and --remote name remotes by host)`);
    names.add(r.name);
  }
  // ssh refuses a ControlPath in a folder others can write: the runtime folder is the user's alone.
  mkdirSync(controlDir, { recursive: true, mode: 0o700 });
  const s = cfg.ssh;
  const base = sshBase(s.ssh_command, env);
  return all.map((r) => {
    const ssh: SshSettings = {
      base,
      identityFile: r.identity_file || null,
      aliveIntervalS: s.alive_interval_s,
      aliveCountMax: s.alive_count_max,
      connectTimeoutS: s.connect_timeout_s,
      controlPersistS: s.control_persist_s,
      controlDir,
    };
    return { name: r.name, dest: parseDestination(r.destination), ssh, serverArgs: remoteServerArgs(r.socket), tmux: r.tmux || 'tmux', allowTyping: r.allow_typing };
  });
}
