// How the daemon runs tmux on another machine: `ssh -T <options> <destination> -- 'tmux …'`, with the person's own
// ssh program, config and agent. The options added here are the ones the daemon cannot do without: nothing may
// ever prompt (BatchMode), an unknown host key is refused rather than trusted (StrictHostKeyChecking=yes), a dead
// link is noticed in seconds (ServerAlive*), and one connection per host is shared by the control clients and the
// helper commands (ControlMaster under the daemon's runtime folder).
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** Where one remote is reached: `[user@]host[:port]`. */
export interface SshDestination {
  user: string | null;
  host: string;
  port: number | null;
}

export interface SshSettings {
  /** The ssh program and options before ours (`ssh_command`, TERMSUPERVISOR_SSH_COMMAND), split into words. */
  base: string[];
  identityFile: string | null;
  /** Seconds between keep-alives, and how many may go unanswered: their product bounds how long a dead link
   * looks alive. */
  aliveIntervalS: number;
  aliveCountMax: number;
  /** A connection attempt that has not finished within this long fails (a host that drops packets). */
  connectTimeoutS: number;
  /** The shared connection outlives its last user by this long (a reconnect reuses it). */
  controlPersistS: number;
  /** Folder for the shared connections' sockets (the daemon's runtime folder: private to the user). */
  controlDir: string;
}

export class SshSpecError extends Error {}

/** `[user@]host[:port]`; `[v6addr]:port` for IPv6. */
export function parseDestination(spec: string): SshDestination {
  const s = spec.trim();
  const at = s.lastIndexOf('@');
  const user = at > 0 ? s.slice(0, at) : null;
  let rest = at >= 0 ? s.slice(at + 1) : s;
  let port: number | null = null;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  if (v6) {
    rest = v6[1]!;
    if (v6[2]) port = Number(v6[2]);
  } else {
    const m = /^([^:]+):(\d+)$/.exec(rest);
    if (m) {
      rest = m[1]!;
      port = Number(m[2]);
    }
  }
  if (!rest || /\s/.test(rest) || rest.startsWith('-') || (user !== null && (!user || /\s/.test(user) || user.startsWith('-')))) {
    throw new SshSpecError(`not an ssh destination: ${JSON.stringify(spec)} (expected [user@]host[:port])`);
  }
  if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535)) throw new SshSpecError(`bad port in ${JSON.stringify(spec)}`);
  return { user, host: rest, port };
}

/**
 * A shell-words string (as GIT_SSH_COMMAND is read): words split on blanks, '…' literal, "…" with \" \\ \$ \`
 * escapes, \x outside quotes. No expansion: `ssh -F ~/x` passes `~/x` to ssh, which expands it itself.
 */
export function shellWords(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) throw new SshSpecError(`unterminated ' in ${JSON.stringify(s)}`);
      cur += s.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      inWord = true;
      for (i++; ; i++) {
        if (i >= s.length) throw new SshSpecError(`unterminated " in ${JSON.stringify(s)}`);
        const d = s[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < s.length && '"\\$`'.includes(s[i + 1]!)) cur += s[++i];
        else cur += d;
      }
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out;
}

/** One word for the far side's shell (ssh joins its arguments into one command line). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The ssh program and its options: `TERMSUPERVISOR_SSH_COMMAND`, else config `ssh_command`, else `ssh`. */
export function sshBase(configured: string, env: NodeJS.ProcessEnv): string[] {
  const words = shellWords(env['TERMSUPERVISOR_SSH_COMMAND'] || configured || 'ssh');
  if (!words.length) throw new SshSpecError('the ssh command is empty');
  return words;
}

/** The arguments of ssh that runs `remote` (already a command line for the far side's shell) on `dest`. */
export function sshArgs(dest: SshDestination, s: SshSettings, remote: string, extra: string[] = []): { file: string; args: string[] } {
  const [file, ...opts] = s.base;
  // Ours first: ssh keeps the first value it is given for an option, so no config or ssh_command can switch off
  // BatchMode or strict host keys.
  const args = [
    '-T',
    '-o', 'BatchMode=yes',
    '-o', 'StrictHostKeyChecking=yes',
    '-o', `ServerAliveInterval=${s.aliveIntervalS}`,
    '-o', `ServerAliveCountMax=${s.aliveCountMax}`,
    '-o', `ConnectTimeout=${s.connectTimeoutS}`,
    '-o', 'ControlMaster=auto',
    '-o', `ControlPath=${controlPath(s.controlDir, dest)}`,
    '-o', `ControlPersist=${s.controlPersistS}`,
    ...opts,
    ...(s.identityFile ? ['-i', s.identityFile, '-o', 'IdentitiesOnly=yes'] : []),
    ...(dest.port !== null ? ['-p', String(dest.port)] : []),
    ...extra,
    dest.user ? `${dest.user}@${dest.host}` : dest.host,
    ...(remote ? ['--', remote] : []),
  ];
  return { file: file!, args };
}

/** A short socket path per destination: sun_path holds ~100 bytes, so the destination is hashed. */
export function controlPath(dir: string, dest: SshDestination): string {
  const h = createHash('sha256').update(`${dest.user ?? ''}@${dest.host}:${dest.port ?? ''}`).digest('hex').slice(0, 16);
  return join(dir, `ssh-${h}`);
}

/** ssh's own failures exit 255; anything else is the remote command's status. */
export const SSH_FAILED = 255;

/**
 * ssh's stderr made into the reason shown: its last meaningful line, and for an unknown or changed host key, the
 * way to accept it (ssh never asks here: BatchMode).
 */
export function sshFailure(stderr: string, dest: SshDestination): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/^(Warning: Permanently added|@+$|mux_client_|ControlSocket .* already exists)/.test(l));
  const verify = lines.find((l) => /Host key verification failed/i.test(l));
  const unknown = lines.find((l) => /No (ED25519|ECDSA|RSA|DSA|[A-Z0-9-]+) host key is known for|host key for .* has changed|REMOTE HOST IDENTIFICATION HAS CHANGED/i.test(l));
  const line = verify ?? lines[lines.length - 1] ?? '';
  if (verify || unknown) {
    const scan = `ssh-keyscan${dest.port !== null ? ` -p ${dest.port}` : ''} ${dest.host} >> ~/.ssh/known_hosts`;
    const once = `ssh${dest.port !== null ? ` -p ${dest.port}` : ''} ${dest.user ? `${dest.user}@` : ''}${dest.host}`;
    return `${unknown ? `${unknown}: ` : ''}${line} (the host key must be known: check it, then \`${scan}\` or connect once with \`${once}\`)`;
  }
  return line;
}
