// One tmux control-mode client (`tmux -C attach-session -t $ID -f …`): a child process that streams one session's
// pane output and notifications on stdout and runs the commands written to its stdin. Replies come back in the
// order the commands were sent, and are handed over synchronously, in stream order, so a caller knows exactly
// which %output lines came before a reply (reflected in what the command saw) and which came after it.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { ControlParser, type Reply } from './control-protocol.js';
import type { TmuxRunner } from './tmux-runner.js';

/** A detach tmux does not act on within this long ends with SIGTERM (a wedged server must not hold stop()). */
const CLOSE_GRACE_MS = 2000;
/** Kept of the client's stderr, for the log when it fails. */
const MAX_STDERR_CHARS = 2000;

export interface ControlClientOptions {
  /** The tmux binary. */
  tmux: string;
  /** `-L NAME` or `-S PATH`. */
  socketArgs: string[];
  /** The session to attach to (its id, `$3`). */
  session: string;
  /** Client flags (`attach-session -f`). */
  flags: string;
  env: NodeJS.ProcessEnv;
  /** Runs tmux elsewhere (through ssh): replaces `tmux` and `socketArgs`. */
  runner?: TmuxRunner;
}

export interface ControlClientEvents {
  output(pane: string, data: Buffer): void;
  notification(name: string, args: string): void;
  /** tmux answered the attach: refused (no such session) when ok is false. */
  attached(ok: boolean, message: string): void;
  /** After each chunk of stdout was handled: back-pressure is decided once per read, not per line. */
  chunkDone(): void;
  /** The client process is gone (once); `code` its exit status (ssh's 255: the link failed). */
  exit(why: string, code: number | null): void;
}

type Pending = { left: number; replies: Reply[]; done: (replies: Reply[]) => void };

export class ControlClient {
  readonly startedAt = Date.now();
  /** null until tmux answers the attach. */
  attachedOk: boolean | null = null;
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly pending: Pending[] = [];
  private readonly parser: ControlParser;
  private gone = false;
  /** Command lines held until tmux has answered the attach (before it, a command has no client to act for). */
  private held: string[] | null = [];
  private exitReason = '';
  /** The last of the client's stderr (ssh's messages when the link fails). */
  stderr = '';
  private paused = 0;

  constructor(readonly opts: ControlClientOptions, private readonly on: ControlClientEvents) {
    this.parser = new ControlParser({
      output: (pane, data) => this.on.output(pane, data),
      notification: (name, args) => {
        if (name === '%exit') this.exitReason = args;
        this.on.notification(name, args);
      },
      reply: (r) => this.reply(r),
    });
    const attach = ['-C', 'attach-session', '-t', opts.session, '-f', opts.flags];
    const cmd = opts.runner ? opts.runner.command(attach) : { file: opts.tmux, args: [...opts.socketArgs, ...attach] };
    this.child = spawn(cmd.file, cmd.args, {
      env: opts.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.parser.push(chunk);
      this.on.chunkDone();
    });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-MAX_STDERR_CHARS)));
    this.child.stdin.on('error', () => {}); // EPIPE once tmux has gone: reported by 'close' below
    this.child.on('error', (e) => (this.exitReason ||= e.message));
    this.child.on('close', (code, signal) => this.closed(code, signal));
  }

  get alive(): boolean {
    return !this.gone;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Runs commands as one command list (tmux runs them back to back, no pane output in between); `done` gets one
   * reply per command, synchronously from the stream, or failed replies when the client dies first. */
  command(cmds: string[], done: (replies: Reply[]) => void): void {
    if (this.gone || cmds.length === 0) return done(cmds.map(() => ({ ok: false, flags: 1, lines: ['tmux client gone'] })));
    this.pending.push({ left: cmds.length, replies: [], done });
    // An empty line would detach the client: a list is never empty here.
    const line = cmds.join(' ; ') + '\n';
    if (this.held) this.held.push(line);
    else this.child.stdin.write(line);
  }

  /** Stop reading (nested: resumes when every pause was undone). tmux then holds the output and, past the
   * pause-after age, pauses the panes that wait: see tmux-watcher.ts. */
  pauseReading(): void {
    if (this.paused++ === 0) this.child.stdout.pause();
  }

  resumeReading(): void {
    if (this.paused > 0 && --this.paused === 0) this.child.stdout.resume();
  }

  /** Detach (an empty command line), then end the process if tmux does not let it go. */
  close(): Promise<void> {
    if (this.gone) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill('SIGTERM'), CLOSE_GRACE_MS);
      this.child.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.resumeReading();
      this.child.stdin.end('\n');
    });
  }

  private reply(r: Reply): void {
    if (r.flags !== 1) {
      // The attach's own reply (flags 0) comes first; later flags-0 replies belong to hooks tmux ran for us.
      if (this.attachedOk === null) {
        this.attachedOk = r.ok;
        const held = this.held ?? [];
        this.held = null;
        if (r.ok && held.length) this.child.stdin.write(held.join(''));
        this.on.attached(r.ok, r.lines.join(' '));
      }
      return;
    }
    const head = this.pending[0];
    if (!head) return;
    head.replies.push(r);
    // A command that fails ends its list: tmux runs none of the commands after it, so no replies come for them.
    if (!r.ok) {
      for (; head.left > 1; head.left--) head.replies.push({ ok: false, flags: 1, lines: ['not run: an earlier command failed'] });
    }
    if (--head.left === 0) {
      this.pending.shift();
      head.done(head.replies);
    }
  }

  private closed(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.gone) return;
    this.gone = true;
    for (const p of this.pending.splice(0)) {
      while (p.left-- > 0) p.replies.push({ ok: false, flags: 1, lines: ['tmux client gone'] });
      p.done(p.replies);
    }
    const why = this.exitReason || this.stderr.trim().split('\n').pop() || (signal ? `signal ${signal}` : `exit code ${code}`);
    this.on.exit(why, code);
  }
}
