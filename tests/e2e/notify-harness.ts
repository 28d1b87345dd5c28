// What the notification tests read: the argv of each call a recording `notify-send` got, and the daemon's log of
// what it did with each notification (sent, held, suppressed and why).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A notify-send that records its argv (NUL between arguments, RS between calls). `modern`: it also knows
 * --print-id and --action as libnotify 0.7.9+ does, printing an id and waiting on its button; otherwise it says
 * nothing to --help, as an older one, and the daemon sends plain notifications. */
export function recordingNotifySend(bin: string, log: string, modern = false): void {
  mkdirSync(bin, { recursive: true });
  const script = modern
    ? `#!/bin/sh\nif [ "$1" = "--help" ]; then echo "--print-id --replace-id --action"; exit 0; fi\nprintf '%s\\0' "$@" >> '${log}'; printf '\\036' >> '${log}'\ncase "$*" in *--print-id*) echo 7$(tr -cd '\\036' < '${log}' | wc -c);; esac\ncase "$*" in *--action=*) sleep 60;; esac\n`
    : `#!/bin/sh\n[ "$1" = "--help" ] && exit 0\nprintf '%s\\0' "$@" >> '${log}'; printf '\\036' >> '${log}'\n`;
  writeFileSync(join(bin, 'notify-send'), script);
  chmodSync(join(bin, 'notify-send'), 0o755);
}

/** A test daemon's recording notify-send (`recordingNotifySend` in its scratch folder's bin/): its log, and the
 * daemon's environment with that bin/ first on PATH. */
export function withRecordingNotifySend(d: { dir: string; env: Record<string, string> }, modern = false): { nsLog: string; env: Record<string, string> } {
  const bin = join(d.dir, 'bin');
  const nsLog = join(d.dir, 'notify-send.log');
  recordingNotifySend(bin, nsLog, modern);
  return { nsLog, env: { ...d.env, PATH: `${bin}:${d.env['PATH']}` } };
}

/** The config file of a test daemon whose scratch folder is `dir` (XDG_CONFIG_HOME under it): its `notify` part. */
export function writeNotifyConfig(dir: string, notify: Record<string, unknown>): void {
  const cfgDir = join(dir, 'config', 'termsupervisor');
  mkdirSync(cfgDir, { recursive: true });
  writeFileSync(join(cfgDir, 'config.json'), JSON.stringify({ notify }));
}

/** The recording notify-send's calls, each its argv. */
export function calls(log: string): string[][] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\x1e').filter(Boolean).map((c) => c.split('\0').slice(0, -1)) : [];
}

export interface NotifyLine {
  state: string;
  reason: string;
  rule?: string;
  held?: boolean;
}

/** The daemon's notification lines (daemon.log under the test's state folder). */
export function notifyLines(dir: string): NotifyLine[] {
  const f = join(dir, 'state', 'termsupervisor', 'daemon.log');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8').split('\n').filter((l) => l.includes('"kind":"notify"') && l.includes('"reason"')).map((l) => JSON.parse(l) as NotifyLine);
}
