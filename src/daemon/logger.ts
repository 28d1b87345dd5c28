// The daemon's log: pino JSON lines in $XDG_STATE_HOME/termsupervisor/daemon.log, rotated by size
// (config `log`: level, max_bytes, keep). `make loghook` follows it.
//
// Conventions, so one reader (loghook, jq, a person) can follow every line:
//   - Every event line has `kind`, one of LOG_KINDS:
//       transition  a pane changed state: from, to, tier, rule, source, stalled (+ line at debug)
//       signal      evidence the analyzer acted on: type, tier, rule, t (pane seconds) (+ line at debug)
//       suppressed  evidence decided but not acted on: type, tier, rule, reason, t
//       hook        an agent hook or in-band report arrived: event, program (+ line at debug)
//       pane        a pane was attached, renamed, closed: event, attach (+ command at debug); at error, an
//                   exception caught in its pipeline (event analysis_error: stage, step, rule, profile, err)
//       notify      a notification decision: state, sent, reason (errors: err, channel)
//       daemon      start, stop, config, store maintenance; at fatal, what ended the process (event crash)
//       http        requests and websocket clients of the API
//   - Pane lines come from paneLogger(), which binds pane (id), name and program.
//   - Screen text (`line`, `prompt`, `edge`) and command lines (`command`, `cmd`) are written ONLY when the logger
//     is at debug or trace; at info and above those top-level fields are dropped. When written, screen text goes
//     through redactText and command lines through redactCommand. This is enforced here, in one hook, so a call
//     site cannot forget it.
//   - Times are ISO 8601 (`time`), levels are words (`level`: "info").
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { stateDir } from '../config/paths.js';
import type { Signal, Suppressed } from '../analysis/types.js';
import type { IgnoredMark } from './pane-monitor.js';
import type { TransitionRecord } from '../store/records.js';
import { redactCommand, redactText } from './redact.js';
import { RotatingFile } from './rotating-file.js';

export type { Logger } from 'pino';

export const LOG_KINDS = ['transition', 'signal', 'suppressed', 'hook', 'pane', 'notify', 'daemon', 'http'] as const;
export type LogKind = (typeof LOG_KINDS)[number];

/** Top-level fields holding screen text: debug only, redacted. */
const SCREEN_TEXT_FIELDS = ['line', 'prompt', 'edge'] as const;
/** Top-level fields holding command lines: debug only, redacted and cut. */
const COMMAND_FIELDS = ['command', 'cmd'] as const;
/** A command line in the log is cut here: longer than a pane card's, so a debugging reader sees the arguments. */
const LOG_COMMAND_MAX = 200;

/** Where the daemon writes its log (and where `make loghook` looks for it). */
export function daemonLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'daemon.log');
}

/**
 * Where a service manager (`termsupervisor service install`: systemd, launchd) appends the daemon's stdout and
 * stderr: its start lines and anything it dies with before the log above is open. Plain text, not JSON.
 */
export function serviceLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'service.log');
}

export interface LoggerOptions {
  file: string;
  level: string;
  maxBytes: number;
  keep: number;
  /** Also write every line here (stderr in the foreground, a buffer in tests). */
  also?: { write(line: string): unknown };
}

const files = new WeakMap<Logger, RotatingFile>();

export function createLogger(opts: LoggerOptions): Logger {
  const file = new RotatingFile(opts.file, { maxBytes: opts.maxBytes, keep: opts.keep });
  const also = opts.also;
  const dest = also
    ? {
        write(line: string): boolean {
          file.write(line);
          also.write(line);
          return true;
        },
      }
    : file;
  const log = pino(
    {
      level: opts.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: { logMethod: scrubHook },
    },
    dest,
  );
  files.set(log, file);
  return log;
}

/** Close the log file of a logger made by createLogger (nothing is buffered: writes are synchronous). */
export function closeLogger(log: Logger): void {
  files.get(log)?.end();
}

export interface PaneIdentity {
  id: string;
  name: string;
  program: string;
}

/** The logger for one pane's lines: binds pane, name and program. Make a new one when the program changes. */
export function paneLogger(root: Logger, pane: PaneIdentity): Logger {
  return root.child({ pane: pane.id, name: pane.name, program: pane.program });
}

// ---- The event lines loghook knows --------------------------------------------------------------------------

export function logTransition(log: Logger, t: TransitionRecord): void {
  log.info(
    { kind: 'transition', from: t.from, to: t.to, tier: t.tier, rule: t.rule, step: t.step, source: t.source, stalled: t.stalled, kept: t.startedAtKept, line: t.line },
    `${t.from} → ${t.to}`,
  );
}

export function logSignal(log: Logger, s: Signal): void {
  // Activity (output during a stalled turn) is frequent and only clears the stall: debug.
  const level = s.type === 'activity' ? 'debug' : 'info';
  log[level]({ kind: 'signal', type: s.type, tier: s.tier, rule: s.rule, step: s.step, t: s.t, line: s.line }, `signal ${s.type}`);
}

/** A mark ignored as forged or out of order: debug (a hostile stream can hold thousands), for `logs` to explain. */
export function logIgnoredMark(log: Logger, m: IgnoredMark): void {
  const what = m.reason === 'forged_mark' ? 'ignored forged mark' : 'ignored out-of-order mark';
  const mark = markName(m.signal);
  log.debug({ kind: 'suppressed', type: 'mark', tier: 1, rule: mark, reason: m.reason, t: m.t, line: m.line }, `${what}: ${mark}`);
}

/** `osc133 command-finished`, `osc7501 done`. */
function markName(s: IgnoredMark['signal']): string {
  if (s.kind === 'agent-state') return `${s.protocol} ${s.state}`;
  return 'protocol' in s ? `${s.protocol} ${s.kind}` : s.kind;
}

export function logSuppressed(log: Logger, s: Suppressed): void {
  log.info({ kind: 'suppressed', type: s.type, tier: s.tier, rule: s.rule, reason: s.reason, step: s.step, t: s.t }, `suppressed ${s.type}: ${s.reason}`);
}

// ---- Enforcement ------------------------------------------------------------------------------------------

type LogFn = (this: Logger, ...args: unknown[]) => void;

function scrubHook(this: Logger, args: unknown[], method: LogFn): void {
  const first = args[0];
  if (first && typeof first === 'object' && !(first instanceof Error) && !Array.isArray(first)) {
    args[0] = scrub(first as Record<string, unknown>, this.isLevelEnabled('debug'));
  }
  method.apply(this, args);
}

/** A copy without screen text and command lines, or with them redacted at debug. The caller's object is untouched. */
export function scrub(obj: Record<string, unknown>, debug: boolean): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  const edit = (k: string, v: unknown) => {
    out ??= { ...obj };
    if (v === undefined) delete out[k];
    else out[k] = v;
  };
  for (const k of SCREEN_TEXT_FIELDS) {
    if (!(k in obj)) continue;
    const v = obj[k];
    edit(k, debug ? (Array.isArray(v) ? v.map((x) => redactText(String(x))) : redactText(String(v ?? ''))) : undefined);
  }
  for (const k of COMMAND_FIELDS) {
    if (!(k in obj)) continue;
    const v = obj[k];
    edit(k, debug ? redactCommand(Array.isArray(v) ? v.join(' ') : String(v ?? ''), LOG_COMMAND_MAX) : undefined);
  }
  return out ?? obj;
}
