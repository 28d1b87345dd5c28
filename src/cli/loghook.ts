// `make loghook`: follows the JSONL event log `termsupervisor run` writes and the daemon's log, one readable line
// per event: time, pane, from → to, tier, rule; signals and hook reports; suppressed signals dimmed.
//
// usage: node dist/cli/loghook.js [--file PATH]... [--pane NAME|ID] [--kind transition,signal,...] [--no-follow]
//   --file PATH   follow this file instead of the defaults (repeatable; a bare PATH works too)
//   --pane X      only lines of the pane with this name or id
//   --kind K,…    only these kinds: transition signal suppressed hook pane notify daemon http
//                 (pane_start and pane_exit of the run log count as pane)
//   --no-follow   print what is there and exit (--once is the same)
// By default the run event log, the daemon log and the service log (its stdout/stderr under a service manager) are
// followed; any may not exist (yet).
//
// Prints what is already there, then polls for appends; the files' lines are merged by time, and a transition two
// logs hold (a `run` pane's, by its wrapper and by the daemon) is printed once (log-merge.ts). Waits for a log that does not exist yet, starts over when
// it is truncated, follows it when it is rotated (renamed and recreated: the rest of the old file is read first),
// and shows a line it cannot read as it is: a tail must never die on its input.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { pathToFileURL } from 'node:url';
import { eventLogPath } from '../config/paths.js';
import { daemonLogPath, LOG_KINDS, serviceLogPath } from '../daemon/logger.js';
import { clock, formatEventLine, str } from './event-format.js';
import { printable, printableJson } from './printable.js';
import { LogMerge } from './log-merge.js';

/** How often the logs are checked for appends: a person watching does not notice a quarter second. */
const POLL_MS = 250;
/** Bytes read per read() call while catching up on a large log. */
const CHUNK_BYTES = 64 * 1024;
/**
 * At a rotation, old files path.1 … path.N are searched for the one the tail had open, so files rotated past
 * between two polls are read too. More than anyone keeps (log.keep); bounds the stat calls per rotation.
 */
const ROTATED_SCAN = 10;
/** Pane names are padded to this width so the event column lines up (as in event-format.ts). */
const NAME_WIDTH = 14;
/** Event labels ("suppressed", the longest) are padded to this width. */
const LABEL_WIDTH = 10;
/** Screen lines are cut here so one event stays one terminal row on a typical screen. */
const LINE_MAX = 100;

/** --follow starts with this many of the latest lines, as `tail -f` does: the whole history first would bury them. */
export const FOLLOW_BACKLOG_LINES = 20;
/** Signals that only say "still the same" on a timer (an idle pane re-read every thresholds.idle_reemit_s): one per
 * idle pane per half minute would be most of the log. Shown when signals are asked for by --kind. */
const HEARTBEAT_RULES = new Set(['generic.idle_reemit']);

const ANSI = { reset: '\x1b[0m', dim: '\x1b[2m', red: '\x1b[31m', yellow: '\x1b[33m', cyan: '\x1b[36m', blue: '\x1b[34m' };

/** The run log's own kinds, and the daemon kind each one is filtered as. */
const RUN_KIND_ALIASES: Record<string, string> = { pane_start: 'pane', pane_exit: 'pane' };
const KNOWN_KINDS = new Set<string>([...LOG_KINDS, ...Object.keys(RUN_KIND_ALIASES)]);

/**
 * Follows one file by holding it open: appends are read from the open descriptor, and when the path names a new
 * file (rotation) the old one is read to its end, then any files rotated past since (found by the old file's inode
 * among path.1, path.2, …), then the new one from the start. Only files already deleted by the writer are missed.
 */
export class LogTail {
  private fd: number | null = null;
  private inode = -1;
  private offset = 0;
  private partial = '';
  private decoder = new StringDecoder('utf8');

  constructor(
    readonly path: string,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Read whatever was appended since the last call; returns false while the file has never been found. */
  poll(): boolean {
    if (this.fd !== null) this.drainOpen();
    let st;
    try {
      st = statSync(this.path);
    } catch {
      return this.fd !== null; // renamed away and not recreated yet: keep the old file, wait for the new one
    }
    if (this.fd !== null && st.ino === this.inode) return true;
    if (this.fd !== null) {
      this.drainOpen(); // lines written between the first drain and the rename
      this.flushPartial(); // the writer will never finish a line in a file it rotated away
      closeSync(this.fd);
      this.fd = null;
      this.readRotatedPast();
    }
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return false; // removed between stat and open
    }
    this.fd = fd;
    this.inode = fstatSync(fd).ino;
    this.restart();
    this.drainOpen();
    return true;
  }

  /** Release the file. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** The old file is now path.k: path.(k-1) … path.1 were written and rotated away since; read them, oldest first. */
  private readRotatedPast(): void {
    for (let i = 1; i <= ROTATED_SCAN; i++) {
      let ino: number;
      try {
        ino = statSync(`${this.path}.${i}`).ino;
      } catch {
        return; // rotated files are numbered without gaps: the old file was not renamed this way
      }
      if (ino !== this.inode) continue;
      for (let j = i - 1; j >= 1; j--) this.readWhole(`${this.path}.${j}`);
      return;
    }
  }

  private readWhole(path: string): void {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return; // rotated again meanwhile: gone
    }
    try {
      this.restart();
      this.readToEnd(fd);
      this.flushPartial();
    } finally {
      closeSync(fd);
    }
  }

  private drainOpen(): void {
    if (this.fd === null) return;
    if (fstatSync(this.fd).size < this.offset) this.restart(); // truncated in place
    this.readToEnd(this.fd);
  }

  private readToEnd(fd: number): void {
    const buf = Buffer.alloc(CHUNK_BYTES);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, this.offset);
      if (n <= 0) break;
      this.offset += n;
      this.feed(this.decoder.write(buf.subarray(0, n)));
    }
  }

  private restart(): void {
    this.offset = 0;
    this.partial = '';
    this.decoder = new StringDecoder('utf8');
  }

  private flushPartial(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest.trim()) this.onLine(rest);
  }

  private feed(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? ''; // an unfinished last line waits for its newline
    for (const l of lines) if (l.trim()) this.onLine(l);
  }
}

// ---- Arguments ----------------------------------------------------------------------------------------------

export interface LoghookOptions {
  files: string[];
  follow: boolean;
  /** A pane name or id, or null for all panes. */
  pane: string | null;
  /** Kinds to show, or null for all. */
  kinds: Set<string> | null;
}

export const USAGE = 'usage: loghook [--file PATH]... [--pane NAME|ID] [--kind transition,signal,...] [--no-follow]';

export function parseLoghookArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): LoghookOptions | { error: string } {
  const files: string[] = [];
  let follow = true;
  let pane: string | null = null;
  let kinds: Set<string> | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | null => inline ?? (i + 1 < argv.length ? argv[++i]! : null);
    switch (flag) {
      case '--no-follow':
      case '--once':
        follow = false;
        break;
      case '--file': {
        const v = value();
        if (!v) return { error: '--file needs a path' };
        files.push(v);
        break;
      }
      case '--pane': {
        const v = value();
        if (!v) return { error: '--pane needs a pane name or id' };
        pane = v;
        break;
      }
      case '--kind': {
        const v = value();
        const list = (v ?? '').split(',').map((k) => k.trim()).filter(Boolean);
        if (!list.length) return { error: '--kind needs a list of kinds' };
        const unknown = list.filter((k) => !KNOWN_KINDS.has(k));
        if (unknown.length) return { error: `--kind: unknown ${unknown.join(', ')} (known: ${[...KNOWN_KINDS].join(', ')})` };
        kinds = new Set(list.map((k) => RUN_KIND_ALIASES[k] ?? k));
        break;
      }
      default:
        if (a.startsWith('-')) return { error: `unknown option ${a}` };
        files.push(a);
    }
  }
  return { files: files.length ? files : [eventLogPath(env), daemonLogPath(env), serviceLogPath(env)], follow, pane, kinds };
}

// ---- One line -----------------------------------------------------------------------------------------------

type Rec = Record<string, unknown>;

/** The readable form of one log line, or null when a filter hides it. */
export function renderLine(raw: string, opts: Pick<LoghookOptions, 'pane' | 'kinds'>, colour: boolean): string | null {
  const rec = parseRecord(raw);
  if (opts.pane !== null || opts.kinds !== null) {
    if (!rec) return null; // a line we cannot read belongs to no pane and no kind
    if (opts.pane !== null && rec['pane'] !== opts.pane && rec['name'] !== opts.pane) return null;
    if (opts.kinds !== null && !opts.kinds.has(kindOf(rec))) return null;
  }
  if (rec && opts.kinds === null && (rec['kind'] === 'signal' || rec['kind'] === 'suppressed') && HEARTBEAT_RULES.has(str(rec['rule']))) return null;
  if (!rec) return printable(raw);
  return isDaemonRecord(rec) ? formatDaemonRecord(rec, colour) : formatEventLine(raw, colour);
}

function parseRecord(raw: string): Rec | null {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : null;
  } catch {
    return null;
  }
}

function kindOf(rec: Rec): string {
  const k = str(rec['kind']);
  return RUN_KIND_ALIASES[k] ?? k;
}

/** pino lines carry `level` and `time`; the run event log has `ts` and `state`. */
function isDaemonRecord(rec: Rec): boolean {
  return 'level' in rec && 'time' in rec && !('ts' in rec);
}

/** One daemon log line (see the conventions at the top of src/daemon/logger.ts). */
export function formatDaemonRecord(r: Rec, colour: boolean): string {
  const paint = (code: string, s: string) => (colour ? code + s + ANSI.reset : s);
  const kind = str(r['kind']);
  if (kind === 'transition') {
    // The run log's transition line, so both logs read alike.
    const asEvent = { ts: isoOf(r['time']), kind: 'transition', pane: r['pane'], name: r['name'], state: r['to'], from: r['from'], tier: r['tier'], rule: r['rule'], line: r['line'] ?? '', stalled: r['stalled'] };
    return formatEventLine(JSON.stringify(asEvent), colour);
  }
  const head = `${clock(r['time'])}  ${str(r['name'] ?? r['pane'] ?? (kind === 'daemon' || kind === 'http' ? 'daemon' : '-')).padEnd(NAME_WIDTH)}`;
  const level = str(r['level']);
  const label = (kind === '-' ? level : kind).padEnd(LABEL_WIDTH);
  const quoted = (v: unknown) => (typeof v === 'string' && v ? '  ' + paint(ANSI.dim, printableJson(cutLine(v))) : '');
  let detail: string;
  switch (kind) {
    case 'signal':
      detail = `${str(r['type'])}  tier ${str(r['tier'])}  ${str(r['rule'])}${quoted(r['line'])}`;
      break;
    case 'suppressed':
      // The whole line dimmed: evidence that was weighed and not acted on.
      return paint(ANSI.dim, `${head}  ${label}  ${str(r['type'])}  tier ${str(r['tier'])}  ${str(r['rule'])}  (${str(r['reason'])})`);
    case 'hook':
      detail = `${str(r['event'] ?? r['msg'])}${r['rule'] !== undefined ? `  ${str(r['rule'])}` : ''}${quoted(r['line'])}`;
      break;
    case 'notify':
      detail = `${str(r['state'] ?? r['msg'])}  ${r['sent'] === true ? 'sent' : r['sent'] === false ? `not sent (${str(r['reason'])})` : str(r['msg'])}`;
      break;
    default:
      detail = str(r['msg']);
  }
  const err = r['err'] && typeof r['err'] === 'object' ? `  ${str((r['err'] as Rec)['message'])}` : '';
  const colourOf = level === 'error' || level === 'fatal' ? ANSI.red : level === 'warn' ? ANSI.yellow : kind === 'signal' || kind === 'hook' ? ANSI.blue : ANSI.cyan;
  return `${head}  ${paint(colourOf, label)}  ${detail}${err}`;
}

function cutLine(s: string): string {
  return s.length > LINE_MAX ? s.slice(0, LINE_MAX - 1) + '…' : s;
}

/** pino writes ISO strings (our logger) or epoch ms (pino's default). */
function isoOf(t: unknown): string {
  const d = new Date(typeof t === 'number' || typeof t === 'string' ? t : NaN);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

// ---- The command --------------------------------------------------------------------------------------------

/** `who` names the command in its messages: `make loghook` or `termsupervisor logs` (src/cli/logs.ts). */
export async function loghook(argv: string[], who: { name: string; usage: string } = { name: 'loghook', usage: USAGE }): Promise<number> {
  const opts = parseLoghookArgs(argv);
  if ('error' in opts) {
    process.stderr.write(`${who.name}: ${opts.error}\n${who.usage}\n`);
    return 2;
  }
  const colour = Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'];
  process.stdout.on('error', () => process.exit(0)); // the reader went away (loghook | head): nothing left to do
  // --pane names a pane the logs know, or the person is told (not a silent empty output).
  const seenPanes = new Set<string>();
  let paneMatched = false;
  const render = (line: string): string | null => {
    const out = renderLine(line, opts, colour);
    if (opts.pane !== null) {
      const rec = parseRecord(line);
      if (rec && typeof rec['name'] === 'string' && rec['name']) seenPanes.add(rec['name']);
      if (rec && (rec['pane'] === opts.pane || rec['name'] === opts.pane)) paneMatched = true;
    }
    return out;
  };
  const print = (line: string) => {
    const out = render(line);
    if (out !== null) process.stdout.write(out + '\n');
  };
  const noSuchPane = () => `${who.name}: no line of pane ${JSON.stringify(printable(opts.pane ?? ''))} in the logs${seenPanes.size ? ` (panes in them: ${[...seenPanes].slice(0, 20).map((n) => printable(n)).join(', ')})` : ''}`;
  // Every file's new lines go through one merge: in time order across the files, each transition once.
  const merge = new LogMerge();
  const tails = [...new Set(opts.files)].map((f, i) => new LogTail(f, (line) => merge.add(i, line)));
  let announced = false;
  let first = true;
  for (;;) {
    const found = tails.map((t) => t.poll()).some(Boolean);
    if (first && opts.follow) {
      // Following: the latest lines of what is there, then what comes.
      const shown = merge.take().map(render).filter((l): l is string => l !== null);
      for (const l of shown.slice(-FOLLOW_BACKLOG_LINES)) process.stdout.write(l + '\n');
      if (found && opts.pane !== null && !paneMatched) process.stderr.write(`${noSuchPane()} yet: waiting for it\n`);
    } else for (const line of merge.take()) print(line);
    first = false;
    if (!opts.follow) {
      for (const t of tails) t.close();
      if (!found) process.stderr.write(`${who.name}: no log at ${opts.files.join(' or ')}\n`);
      if (found && opts.pane !== null && !paneMatched) {
        process.stderr.write(noSuchPane() + '\n');
        return 1;
      }
      return found ? 0 : 1;
    }
    if (!found && !announced) {
      process.stderr.write(`${who.name}: waiting for ${opts.files.join(' or ')} (start a pane with 'termsupervisor run -- <command>')\n`);
      announced = true;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

// Run only as the entry point (`node dist/cli/loghook.js`), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  loghook(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
