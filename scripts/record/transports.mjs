// Where the program runs: its own PTY (node-pty: what `termsupervisor run` sees, typed keys included) or a pane of
// a private tmux server (what the daemon's tmux watcher sees: the pane's output through control mode, no keys).
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createRequire } from 'node:module';
import { comm, ttyOf } from './tty-watch.mjs';
import { keyBytes, tmuxKey } from './keys.mjs';

const require = createRequire(import.meta.url);

export class PtyTransport {
  kind = 'pty';
  /** Typed keys are part of what the watcher sees: they go in the cast as "i" events. */
  keysVisible = true;

  start({ argv, cwd, env, cols, rows }, onOutput) {
    const pty = require('node-pty');
    this.p = pty.spawn(argv[0], argv.slice(1), { name: 'xterm-256color', cols, rows, cwd, env });
    this.p.onData(onOutput);
    this.exited = new Promise((r) => this.p.onExit(r));
    this.shellPid = this.p.pid;
    this.tty = ttyOf(this.p.pid);
  }

  /** A key by name ("Enter", "C-c") or literal text; returns the bytes the terminal got. */
  send(name) {
    const bytes = keyBytes(name);
    this.p.write(bytes);
    return bytes;
  }

  async stop() {
    try {
      process.kill(-this.p.pid, 'SIGHUP');
    } catch {
      /* gone */
    }
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 1000))]);
  }
}

/** tmux %output data: octal escapes (\ooo) for control bytes and backslash, other bytes as they are. */
export function unescapeTmux(buf) {
  const out = [];
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (b === 0x5c && i + 3 < buf.length + 1 && /^[0-7]{3}$/.test(buf.subarray(i + 1, i + 4).toString('latin1'))) {
      out.push(parseInt(buf.subarray(i + 1, i + 4).toString('latin1'), 8));
      i += 3;
    } else out.push(b);
  }
  return Buffer.from(out);
}

export class TmuxTransport {
  kind = 'tmux';
  /** tmux passes no typed keys to its watchers: the cast holds output only. */
  keysVisible = false;

  tmux(...args) {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', env: this.env, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  }

  async start({ argv, cwd, env, cols, rows, scratch }, onOutput) {
    this.socket = `ts-rec-${process.pid}`;
    this.env = { ...env, TMUX: '' };
    const go = `${scratch}/go`;
    // The pane waits for a go file so that the control client is attached before the first byte is written.
    const q = (s) => `'${String(s).replaceAll("'", `'\\''`)}'`;
    const cmd = `while [ ! -e ${q(go)} ]; do sleep 0.01; done; exec ${argv.map(q).join(' ')}`;
    this.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'rec', '-x', String(cols), '-y', String(rows), '-c', cwd, 'sh', '-c', cmd);
    this.tmux('set-option', '-g', 'status', 'off');
    this.pane = this.tmux('display-message', '-p', '-t', 'rec', '#{pane_id}');
    this.ctl = spawn('tmux', ['-L', this.socket, '-C', 'attach-session', '-f', 'ignore-size', '-t', 'rec'], { env: this.env, stdio: ['pipe', 'pipe', 'ignore'] });
    const dec = new StringDecoder('utf8');
    let rest = Buffer.alloc(0);
    let ready;
    const attached = new Promise((r) => (ready = r));
    this.ctl.stdout.on('data', (chunk) => {
      rest = Buffer.concat([rest, chunk]);
      let nl;
      while ((nl = rest.indexOf(0x0a)) >= 0) {
        const line = rest.subarray(0, nl);
        rest = rest.subarray(nl + 1);
        if (line.subarray(0, 8).toString('latin1') === '%output ') {
          const sp = line.indexOf(0x20, 8);
          if (line.subarray(8, sp).toString('latin1') !== this.pane) continue;
          const text = dec.write(unescapeTmux(line.subarray(sp + 1)));
          if (text) onOutput(text);
        } else if (line.subarray(0, 4).toString('latin1') === '%end') ready();
      }
    });
    await attached;
    this.shellPid = Number(this.tmux('display-message', '-p', '-t', this.pane, '#{pane_pid}'));
    this.tty = this.tmux('display-message', '-p', '-t', this.pane, '#{pane_tty}');
    execFileSync('touch', [go]);
    // the exec replaces sh with the program: wait for it so that /proc shows the program, not the loop
    for (let i = 0; i < 300 && comm(this.shellPid) === 'sh'; i++) await new Promise((r) => setTimeout(r, 10));
  }

  send(name) {
    const k = tmuxKey(name);
    if (k.literal !== undefined) this.tmux('send-keys', '-t', this.pane, '-l', k.literal);
    else this.tmux('send-keys', '-t', this.pane, k.key);
    return keyBytes(name);
  }

  async stop() {
    let socketPath = null;
    try {
      socketPath = this.tmux('display-message', '-p', '#{socket_path}');
      this.tmux('kill-server');
    } catch {
      /* gone */
    }
    this.ctl?.kill();
    // tmux leaves its socket file behind
    if (socketPath) rmSync(socketPath, { force: true });
  }
}

