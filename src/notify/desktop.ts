// OS notifications: notify-send on Linux (and other freedesktop systems), osascript on macOS. The program is
// looked up on PATH once, at start; text goes in as argv, never through a shell.
import { execFile } from 'node:child_process';
import { findExecutable } from '../cli/which.js';
import type { Notification, NotifyChannel } from './types.js';

/** A notifier process that has not returned by then is killed: a wedged session bus must not pile up children. */
export const DESKTOP_TIMEOUT_MS = 5_000;
/** Shown as the sending application where the notification daemon displays one. */
const APP_NAME = 'termsupervisor';

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
  const args = program === 'osascript' ? osascriptArgs : notifySendArgs;
  return { name: 'desktop', send: (n) => run(bin, args(n), timeout) };
}

export function notifySendArgs(n: Notification): string[] {
  // "--" so a title or body beginning with "-" is text, not an option.
  return [`--urgency=${n.urgent ? 'critical' : 'normal'}`, `--app-name=${APP_NAME}`, '--', n.title, ...(n.body ? [n.body] : [])];
}

export function osascriptArgs(n: Notification): string[] {
  return [...OSASCRIPT_LINES.flatMap((l) => ['-e', l]), n.title, n.body || ' '];
}

function run(bin: string, args: string[], timeout: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout, windowsHide: true }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`${bin} failed: ${err.message}${stderr ? `: ${String(stderr).trim().slice(0, 200)}` : ''}`));
      else resolve();
    });
  });
}
