// OS notifications: notify-send on Linux (and other freedesktop systems), osascript on macOS. The program is
// looked up on PATH once, at start; text goes in as argv, never through a shell. A notify-send that knows
// --print-id and --action (libnotify 0.7.9+) gets more: one notification per pane, replaced by the pane's next
// one (--replace-id) and withdrawn once the question is answered, and a "Jump to pane" button (termsupervisor focus).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { findExecutable } from '../cli/which.js';
import type { Notification, NotifyChannel } from './types.js';

/** A notifier process that has not shown its notification by then is killed: a wedged session bus must not pile
 * up children. */
export const DESKTOP_TIMEOUT_MS = 5_000;
/** notify-send with an action waits for the click; after this long nobody will click it any more (its
 * notification stays; only the wait ends). Bounds the processes kept: at most one per pane. */
export const ACTION_WAIT_MS = 30 * 60_000;
/** notify-send processes kept waiting for a click, at most (one per pane; the oldest wait ends first). */
export const MAX_WAITING = 16;
/** Asking notify-send what it can do, once at start. */
const HELP_TIMEOUT_MS = 2_000;
/** Shown as the sending application where the notification daemon displays one. */
const APP_NAME = 'termsupervisor';
/** The freedesktop icon name: a terminal, present in every icon theme. */
export const DESKTOP_ICON = 'utilities-terminal';
/** The action's name notify-send prints when its button is clicked. */
export const FOCUS_ACTION = 'focus';

/**
 * The AppleScript run by osascript. The title and body arrive as `argv` items, so no text of ours is ever parsed
 * as AppleScript: a quote or backslash in a screen line cannot end the string and run code.
 */
const OSASCRIPT_LINES = ['on run argv', 'display notification (item 2 of argv) with title (item 1 of argv)', 'end run'];

export interface DesktopOptions {
  /** Default process.platform: darwin uses osascript, anything else notify-send. */
  platform?: NodeJS.Platform;
  /** PATH to search. Default process.env.PATH. */
  path?: string;
  timeoutMs?: number;
  /** How long a notification with a button waits for its click (ms). */
  actionWaitMs?: number;
  /** The "Jump to pane" button was clicked. */
  onAction?: (paneId: string, action: string) => void;
}

/** What this notify-send can do (from its --help). */
export interface NotifySendCaps {
  printId: boolean;
  action: boolean;
}

/** The program that shows desktop notifications on this platform (`doctor` looks for the same one). */
export function desktopProgram(platform: NodeJS.Platform = process.platform): 'osascript' | 'notify-send' {
  return platform === 'darwin' ? 'osascript' : 'notify-send';
}

/** The desktop channel, or null when this machine has no notifier program. */
export function desktopChannel(opts: DesktopOptions = {}): NotifyChannel | null {
  const program = desktopProgram(opts.platform ?? process.platform);
  const timeout = opts.timeoutMs ?? DESKTOP_TIMEOUT_MS;
  const bin = findExecutable(program, opts.path ?? process.env['PATH'] ?? '');
  if (!bin) return null;
  if (program === 'osascript') return { name: 'desktop', detail: bin, send: (n) => run(bin, osascriptArgs(n), timeout) };
  return new NotifySend(bin, notifySendCaps(bin), timeout, opts.actionWaitMs ?? ACTION_WAIT_MS, opts.onAction);
}

export function notifySendCaps(bin: string): NotifySendCaps {
  let help = '';
  try {
    help = execFileSync(bin, ['--help'], { encoding: 'utf8', timeout: HELP_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    help = String((e as { stdout?: unknown }).stdout ?? '');
  }
  return { printId: help.includes('--print-id'), action: help.includes('--action') };
}

/** notify-send's arguments (without --print-id, --replace-id and --action: see NotifySend). */
export function notifySendArgs(n: Notification): string[] {
  // "--" so a title or body beginning with "-" is text, not an option.
  return [`--urgency=${n.urgent ? 'critical' : 'normal'}`, `--app-name=${APP_NAME}`, `--icon=${DESKTOP_ICON}`, `--category=${category(n)}`, '--', n.title, ...(n.body ? [n.body] : [])];
}

/** freedesktop categories: a question or failure is an alert of the program; a finished turn is "complete". */
function category(n: Notification): string {
  return n.kind === 'DONE' || n.kind === 'TASK_FINISHED' ? 'transfer.complete' : n.kind === 'FAILED' ? 'transfer.error' : 'im.received';
}

export function osascriptArgs(n: Notification): string[] {
  return [...OSASCRIPT_LINES.flatMap((l) => ['-e', l]), n.title, n.body || ' '];
}

/** The notify-send channel: remembers each pane's notification id to replace and withdraw it. */
class NotifySend implements NotifyChannel {
  readonly name = 'desktop';
  /** pane (or group) → the id of its notification on screen. */
  private readonly ids = new Map<string, string>();
  /** pane → the notify-send still waiting for a click on that pane's notification. */
  private readonly waiting = new Map<string, ChildProcess>();

  constructor(
    private readonly bin: string,
    private readonly caps: NotifySendCaps,
    private readonly timeout: number,
    private readonly actionWaitMs: number,
    private readonly onAction?: (paneId: string, action: string) => void,
  ) {}

  get detail(): string {
    const lacks = [...(this.caps.printId ? [] : ['replace', 'withdraw']), ...(this.caps.action ? [] : ['jump button'])];
    return lacks.length ? `${this.bin}, an older notify-send: no ${lacks.join(', ')}` : this.bin;
  }

  send(n: Notification): Promise<void> {
    const key = n.panes ? 'group' : n.paneId;
    const extra: string[] = [];
    if (this.caps.printId) {
      extra.push('--print-id');
      const id = this.ids.get(key);
      if (id) extra.push(`--replace-id=${id}`);
    }
    const button = this.caps.action && this.onAction && !n.panes;
    if (button) extra.push(`--action=${FOCUS_ACTION}=Jump to pane`);
    const args = notifySendArgs(n);
    args.splice(args.indexOf('--'), 0, ...extra);
    this.stopWaiting(key);
    return this.show(key, args, button ? n.paneId : null);
  }

  close(): void {
    for (const key of [...this.waiting.keys()]) this.stopWaiting(key);
  }

  /** The pane's question was answered: its notification goes (replaced by a one-second "answered"). */
  async withdraw(paneId: string, title: string): Promise<void> {
    const id = this.ids.get(paneId);
    this.stopWaiting(paneId);
    if (!id) return;
    this.ids.delete(paneId);
    await run(this.bin, [`--replace-id=${id}`, '--urgency=low', `--app-name=${APP_NAME}`, `--icon=${DESKTOP_ICON}`, '--expire-time=1000', '--hint=int:transient:1', '--', title], this.timeout);
  }

  private show(key: string, args: string[], actionPane: string | null): Promise<void> {
    if (!this.caps.printId) return run(this.bin, args, this.timeout);
    return new Promise((resolve, reject) => {
      const child = spawn(this.bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      let out = '';
      let err = '';
      let shown = false;
      const giveUp = setTimeout(() => child.kill('SIGKILL'), this.timeout);
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const l of lines.map((x) => x.trim()).filter(Boolean)) {
          if (!shown && /^\d+$/.test(l)) {
            shown = true;
            clearTimeout(giveUp);
            this.ids.set(key, l);
            if (actionPane) this.wait(key, child);
            else child.stdout!.destroy();
            resolve();
          } else if (shown && actionPane && l === FOCUS_ACTION) {
            this.onAction?.(actionPane, l);
          }
        }
      });
      child.stderr!.setEncoding('utf8').on('data', (d: string) => void (err = (err + d).slice(0, 400)));
      child.on('error', (e) => {
        clearTimeout(giveUp);
        reject(new Error(`${this.bin} failed: ${e.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(giveUp);
        if (this.waiting.get(key) === child) this.waiting.delete(key);
        if (shown) return;
        if (code === 0) return resolve(); // shown, but it printed no id: nothing to replace later
        reject(new Error(`${this.bin} failed: ${signal ? `killed (${signal}) after ${this.timeout} ms` : `exit ${code}`}${err ? `: ${err.trim().slice(0, 200)}` : ''}`));
      });
    });
  }

  private wait(key: string, child: ChildProcess): void {
    this.waiting.set(key, child);
    // Map order is insertion order: the first is the oldest wait.
    while (this.waiting.size > MAX_WAITING) this.stopWaiting(this.waiting.keys().next().value!);
    const t = setTimeout(() => child.kill('SIGKILL'), this.actionWaitMs);
    t.unref();
    child.on('close', () => clearTimeout(t));
  }

  /** SIGKILL: a notify-send that closes its notification on a signal must not close the one replacing it. */
  private stopWaiting(key: string): void {
    const c = this.waiting.get(key);
    if (!c) return;
    this.waiting.delete(key);
    c.kill('SIGKILL');
  }
}

function run(bin: string, args: string[], timeout: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout, windowsHide: true }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      // How it ended and what it said, as show() reports it: execFile's own message repeats the whole command line
      // (the notification's text), which buried the cause once cut for doctor and the board.
      const how = err.killed || err.signal ? `killed (${err.signal ?? 'SIGTERM'}) after ${timeout} ms` : typeof err.code === 'number' ? `exit ${err.code}` : err.message;
      reject(new Error(`${bin} failed: ${how}${stderr ? `: ${String(stderr).trim().slice(0, 200)}` : ''}`));
    });
  });
}
