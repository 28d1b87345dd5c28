// `termsupervisor run -- <command>`: a transparent wrapper. The command runs on a pty of ours; the person's keys go
// to it and its output comes back byte for byte, while a PaneMonitor watches the same stream and every state
// transition is appended to the JSONL event log (and, with --record, the session to an asciicast file).
import { repaint } from '../screen/repaint.js';
import { closeSync, openSync } from 'node:fs';
import { basename } from 'node:path';
import type { ReadStream, WriteStream } from 'node:tty';
import { AGENT_CHOICES, isGenericAgent } from '../config/config.js';
import { CastWriter } from '../attach/asciicast.js';
import { exitStatus, PtySource } from '../attach/pty-source.js';
import type { PaneEvent } from '../attach/source.js';
import { processMarker } from '../attach/replay-source.js';
import { MonitorThread } from './monitor-thread.js';
import { RealClock } from '../state/clock.js';
import { oneOf, parseArgs, UsageError, type ParsedArgs } from './args.js';
import { EventLog, type EventBase, type EventKind } from './event-log.js';
import { configOrDefaults } from './load-config.js';
import { eventLogPath } from '../config/paths.js';
import { jsonl } from './replay.js';
import { enterRawMode } from './raw-mode.js';
import { EofWhenIdle } from './eof-when-idle.js';
import { findExecutable } from './which.js';
import { markOwnTmuxPane, ownTmuxPane } from '../attach/tmux/ours.js';
import { DaemonLink, findDaemon, type LinkOptions } from './daemon-link.js';
import { hostname } from 'node:os';
import { ttyName } from './tty-name.js';
import { namesakeNotice, namesakes, probeDaemon, runNotice } from './run-notice.js';
import { redactCommand } from '../daemon/redact.js';
import { randomBytes } from 'node:crypto';
import { programKind } from '../analysis/program-kind.js';
import { namesOfCommand } from '../attach/process-identity.js';
import { injectShellIntegration, type Injection } from '../shell/inject.js';
import { printable } from './printable.js';

export const RUN_USAGE = `usage: termsupervisor run [--name N] [--agent A] [--record file.cast] [--log PATH] [--config PATH]
                        [--cols N] [--rows N] [--daemon URL | --no-daemon] [--no-shell-integration] [--quiet]
                        -- <command...>

Runs a command in a watched pseudo-terminal. Use it exactly as without the wrapper: keys, output, resizes, Ctrl-C
and the exit code pass through. Each state transition (IDLE, RUNNING, LONG_RUNNING, WAITING_APPROVAL, DONE, FAILED)
is appended as one JSON line to the event log; follow it with 'termsupervisor logs --follow'.
A command that is one thing to do (npm test, make, bash -c …, python3 script.py) is one turn: RUNNING from its start,
DONE or FAILED at its exit with the exit code. A session (a shell, REPL, agent, editor; told by its name and by what
the process is: its executable, its script's npm package) gets a turn per thing asked of it; bash, zsh and fish get
shell integration (their own rc files still load, nothing is written to them). A program that waits on the
person's keys at a prompt (blocked reading the terminal, Linux) is at rest, whatever it was taken for.
  --name     the pane's name in the log (default: the command's name)
  --agent    auto (default) | ${AGENT_CHOICES.slice(1).join(' | ')}: which profile reads the screen (crush,
             cursor, copilot, cline, amp, aider, kimi, goose: the generic tier, under that name; an agent named here
             is a session, whatever command starts it)
  --record   also save the session as an asciicast v2 file (replay it with 'termsupervisor replay')
  --log      event log path (default: $XDG_STATE_HOME/termsupervisor/events.jsonl)
  --config   a config file (default: $XDG_CONFIG_HOME/termsupervisor/config.json if present)
  --cols/--rows  initial pty size (default: the terminal's, or 80x24 without one)
  --daemon   join this daemon (default: $TERMSUPERVISOR_DAEMON, else the running daemon, found through its
             runtime file); the pane then shows on its dashboard. Without a daemon the wrapper runs standalone.
  --no-daemon  never join a daemon
  --quiet    do not say on stderr, before the command starts, whether a daemon watches the pane (which one) or it
             runs unwatched
  --no-shell-integration  start bash, zsh or fish without the injected shell integration (config run.shell_integration)
Without a terminal on stdin, input is passed through as is and EOF (Ctrl-D) is sent when it ends.
The exit code is the command's (128+N if a signal N killed it; 127 if it was not found).
examples:
  termsupervisor run -- bash
  termsupervisor run --name api --agent claude -- claude
  termsupervisor run --record session.cast -- codex
  echo 'make test' | termsupervisor run -- bash`;

/** Pane size when there is no terminal to take it from. */
const DEFAULT_COLS = 80;
const DEFAULT_ROWS = 24;
/** Exit status for a command line we refuse (as for usage errors). */
const EXIT_USAGE = 2;
/** A recording holds everything typed and shown: owner-only. */
const RECORD_MODE = 0o600;
/** What a shell returns for a command it cannot find. */
const EXIT_NOT_FOUND = 127;
/** Ctrl-D: end of input on a pty in canonical mode (and readline's "exit" on an empty line). */
const EOF_KEY = '\x04';
/** States in which the pane's program is reading from the person, not working. */
const REST_STATES: ReadonlySet<string> = new Set(['IDLE', 'DONE', 'FAILED', 'WAITING_APPROVAL']);
/** Ctrl-C: a SIGINT sent to the wrapper is passed on as the key, so it reaches the pane's foreground job. */
const INTERRUPT_KEY = '\x03';
/** After cleanup node should exit by itself; if a stray handle keeps it alive this long, exit anyway. */
const EXIT_SAFETY_MS = 2000;
/** Once the program has exited, the wrapper waits at most this long for its monitor's last verdict (the final
 * transition for the event log), and at most EXIT_LINK_WAIT_MS for the daemon link's close: the person's shell gets
 * its prompt back within half a second whatever analysis still has to read (a monitor 10 MB behind on a scroll
 * storm once held it for 52 s). What the monitor had not read yet is not analysed. */
const EXIT_ANALYSIS_WAIT_MS = 100;
const EXIT_LINK_WAIT_MS = 100;

let paneSeq = 0;

/** The config's problems, for stderr before the command starts (printable: they quote the person's file). */
export function configWarning(problems: string[]): string {
  return `termsupervisor: run: the config has mistakes; watching this pane with the defaults (fix them, then \`termsupervisor doctor\` checks):\n  ${problems.map((p) => printable(p)).join('\n  ')}`;
}

export async function runCommand(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['name', 'agent', 'record', 'log', 'config', 'cols', 'rows', 'daemon'], flags: ['help', 'no-daemon', 'no-shell-integration', 'quiet'] });
  if (a.options.has('help')) {
    process.stdout.write(RUN_USAGE + '\n');
    return 0;
  }
  if (a.positional.length) throw new UsageError(`run: unexpected argument ${JSON.stringify(a.positional[0])} (the command goes after --)\n\n${RUN_USAGE}`);
  const command = a.rest;
  if (command.length === 0 || !command[0]) throw new UsageError(`run needs a command after --\n\n${RUN_USAGE}`);
  const agent = oneOf(a.options.get('agent'), AGENT_CHOICES, 'agent', 'auto');
  // A mistake in the config never stops the person's command: said, and the defaults watch the pane.
  const { cfg, problems: configProblems } = configOrDefaults(a.options.get('config'));
  if (configProblems) process.stderr.write(configWarning(configProblems) + '\n');
  const logPath = stringOption(a, 'log') ?? eventLogPath();
  const record = stringOption(a, 'record');
  const name = stringOption(a, 'name') ?? basename(command[0]!);
  const size = initialSize(a);
  const executable = findExecutable(command[0]!);
  if (!executable) {
    process.stderr.write(`termsupervisor: run: command not found: ${printable(command[0]!)}\n`);
    return EXIT_NOT_FOUND;
  }

  // Files first: a log or recording we cannot write is refused before anything runs.
  let log: EventLog;
  try {
    log = new EventLog(logPath, { maxBytes: cfg.log.max_bytes, keep: cfg.log.keep });
    if (record) closeSync(openSync(record, 'w', RECORD_MODE));
  } catch (e) {
    process.stderr.write(`termsupervisor: run: ${(e as Error).message}\n`);
    return EXIT_USAGE;
  }

  const clock = new RealClock();
  const wallOrigin = Date.now();
  const id = `run-${process.pid}-${++paneSeq}-${randomBytes(3).toString('hex')}`;
  // A one-shot program is itself the turn; a session's shell gets shell integration (src/shell/inject.ts).
  // --agent naming an agent says the program is one, whatever starts it: a session. So does what the program is
  // (its executable's real name, its script's package: `claude.exe`, `node …/@google/gemini-cli/dist/index.js`).
  const identity = namesOfCommand(command, executable, process.cwd(), cfg.programs);
  const kind = agent === 'claude' || agent === 'codex' || agent === 'gemini' || agent === 'qwen' || agent === 'opencode' || agent === 'kilo' || isGenericAgent(agent) ? 'session' : programKind(cfg.programs, command, identity);
  const injected = kind === 'session' && cfg.run.shell_integration && !a.options.has('no-shell-integration') ? injectOrWarn(command) : null;
  const source = new PtySource({ id, name, command, ...size, clock, oneShot: kind === 'one-shot', programs: cfg.programs, ...(injected && { exec: injected.argv, env: withEnv(process.env, injected.env) }) });
  // Parsing and analysis run on a thread of their own: the pane's output reaches the person's terminal whatever they cost.
  const configOption = a.options.get('config');
  const monitor = new MonitorThread({ configPath: typeof configOption === 'string' ? configOption : undefined, defaults: configProblems !== null, ...size, agent, command: command.join(' '), originMs: clock.origin, markNonce: injected?.nonce }, cfg);
  const cast = record ? new CastWriter(record, { width: size.cols, height: size.rows, title: name, env: castEnv() }, wallOrigin) : null;
  const wall = (t: number) => wallOrigin + t * 1000;
  const base = (kind: EventKind, t: number): EventBase => ({
    ts: new Date(wall(t)).toISOString(),
    kind,
    pane: id,
    name,
    program: monitor.program,
    t: Number(t.toFixed(3)),
    state: monitor.state,
  });
  monitor.onTransition((tr) => log.append({ ...base('transition', tr.t), ...jsonl(tr), kind: 'transition' }));
  let turnStartedAt = 0;
  monitor.onTransition((tr) => (turnStartedAt = tr.startedAt));
  // Caught at the pane (the pass-through never sees it), or the monitor's thread failed: the log says so.
  monitor.onFault((f) => log.append({ ...base('analysis_error', f.t), kind: 'analysis_error', stage: f.stage, step: f.step, error: f.error, count: f.count }));
  const target = a.options.has('no-daemon') ? null : findDaemon(stringOption(a, 'daemon'));
  // Said once, before the program owns the terminal (a line after its first byte would garble a full screen).
  if (!a.options.has('quiet') && !a.options.has('no-daemon')) {
    const probe = target ? await probeDaemon(target) : null;
    process.stderr.write(runNotice(target, probe, logPath) + '\n');
    const taken = target && probe === 'joined' ? await namesakes(target, name) : [];
    if (taken.length) process.stderr.write(namesakeNotice(name, taken) + '\n');
  }
  // Where the pane runs, for a person told to go there (a jump); the program's pid is added once it runs.
  const tty = ttyName();
  // Inside tmux: the pane is this wrapper's (one card, read through its own signals), and a jump goes to it through
  // tmux. The tmux pane is marked ours so a daemon watching that server leaves it to us (attach/tmux/ours.ts).
  // Marked once a daemon has welcomed the pane: a wrapper that never joins one leaves its tmux pane watched as before.
  const inTmux = target ? ownTmuxPane() : null;
  const tmuxMark: { unmark: (() => void) | null } = { unmark: null };
  const hello: LinkOptions['hello'] = { id, name, agent, command: command.join(' '), cols: size.cols, rows: size.rows, host: hostname(), ...(tty && { tty }), ...(injected && { markNonce: injected.nonce }), ...(inTmux && { tmuxPane: inTmux.pane, tmuxSocket: inTmux.socket }) };
  const link = target
    ? new DaemonLink({
        target,
        hello,
        onBell: (bytes) => void (stdoutOk && process.stdout.write(bytes)),
        onSend: (keys) => source.write(keys),
        repaint: async () => {
          const drawing = await monitor.flush(true);
          return drawing ? repaint(drawing) : '';
        },
        onStatus: (status, why) => {
          log.append({ ...base('daemon_link', clock.now() / 1000), kind: 'daemon_link', status, url: target.url, ...(why && { why }) });
          if (status === 'connected' && inTmux && !tmuxMark.unmark) tmuxMark.unmark = markOwnTmuxPane(`run:${id}`);
        },
      })
    : null;

  const stdout = process.stdout;
  const holds = new Holds(source);
  let lastOutputMs = 0;
  const eof = new EofWhenIdle({
    now: () => clock.now(),
    lastOutputAt: () => lastOutputMs,
    atRest: () => {
      const fg = source.foreground;
      return fg === null || fg.pid === source.pid || REST_STATES.has(monitor.state);
    },
    sendEof: () => source.write(EOF_KEY),
  });
  let stdoutOk = true;
  const onStdoutError = (): void => {
    stdoutOk = false; // the terminal or reader went away: keep the pane's bookkeeping, drop the passthrough
  };
  stdout.on('error', onStdoutError);
  // The pass-through: the program's bytes to the person's terminal exactly as it wrote them (never decoded and
  // encoded again: invalid UTF-8 or Latin-1 would come out as U+FFFD), and before any analysis of them.
  source.onBytes((bytes) => {
    lastOutputMs = clock.now();
    if (stdoutOk && !stdout.write(bytes) && !holds.has('stdout')) {
      holds.hold('stdout');
      stdout.once('drain', () => holds.release('stdout'));
    }
  });
  source.onEvent((ev: PaneEvent) => {
    if (ev.kind === 'output') {
      cast?.write('o', text(ev.data), wall(ev.t));
    } else if (ev.kind === 'input') {
      cast?.write('i', ev.data, wall(ev.t));
    } else if (ev.kind === 'resize') {
      cast?.write('r', `${ev.cols}x${ev.rows}`, wall(ev.t));
    } else if (ev.kind === 'command') {
      // A marker (asciicast's own kind of event), so a replay of the recording has the same one-shot turn.
      cast?.write('m', `termsupervisor: command ${ev.phase === 'executed' ? 'executed' : `finished ${ev.exitCode}`}`, wall(ev.t));
    } else if (ev.kind === 'process') {
      // So is each foreground process (its names, its terminal reads): a replay reads the same rests.
      cast?.write('m', processMarker(ev), wall(ev.t));
    }
    monitor.handle(ev);
    link?.send(ev);
    if (monitor.backlogged && !holds.has('monitor')) {
      holds.hold('monitor');
      void monitor.drain().then(() => holds.release('monitor'));
    }
  });

  await source.start();
  // Read by the link when its socket opens, which takes I/O: start() spawned the program without any.
  if (source.pid !== null) hello.pid = source.pid;
  log.append({ ...base('pane_start', 0), kind: 'pane_start', command: redactCommand(command.join(' ')), pid: source.pid, ...size, agent, one_shot: kind === 'one-shot', ...(identity.length > 0 && { identity }), shell_integration: injected !== null });
  const detach = attachTerminal(source, () => eof.start());
  const exit = await source.exited();
  tmuxMark.unmark?.();
  eof.stop();
  detach();
  stdout.off('error', onStdoutError);

  const caughtUp = await within(monitor.flush(), EXIT_ANALYSIS_WAIT_MS);
  const code = exitStatus(exit);
  // A one-shot program's end is sure whatever the screen says (its exit is the turn's): written here when the
  // monitor is still reading what came before it (it has not reached the exit: flush() covers every event).
  if (!caughtUp && kind === 'one-shot') {
    const t = clock.now() / 1000;
    const to = code === 0 ? 'DONE' : 'FAILED';
    const rule = `run.command_${code === 0 ? 'finished' : 'failed'}`;
    log.append({ ...base('transition', t), kind: 'transition', state: to, from: monitor.state, tier: 1, rule, line: `exit ${code} (the monitor had not read all output)`, started_at: Number(turnStartedAt.toFixed(3)), stalled: false });
  }
  log.append({ ...base('pane_exit', clock.now() / 1000), kind: 'pane_exit', code: exit.code, signal: exit.signal, exit_code: code });
  await Promise.all([monitor.stop(), link?.close(EXIT_LINK_WAIT_MS)]);
  log.close();
  if (cast) {
    await cast.close();
    if (cast.error) process.stderr.write(`termsupervisor: recording to ${record} failed: ${cast.error.message}\n`);
  }
  setTimeout(() => process.exit(code), EXIT_SAFETY_MS).unref();
  return code;
}

/** Whether `p` settled within `ms` (past that the wait is given up, not what it waited on). */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  return Promise.race([p.then(() => true), late]).finally(() => clearTimeout(timer));
}

/** The shell integration start-up files could not be written (a read-only runtime dir): say so, start the shell
 * as it is. */
function injectOrWarn(command: string[]): Injection | null {
  try {
    return injectShellIntegration(command, process.env);
  } catch (e) {
    process.stderr.write(`termsupervisor: run: no shell integration: ${(e as Error).message}\n`);
    return null;
  }
}

/** `env` with `changes` applied (a null value removes the variable). */
function withEnv(env: NodeJS.ProcessEnv, changes: Record<string, string | null>): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/**
 * Connects the wrapper's own terminal to the pane: stdin → pane (raw when it is a terminal), resizes, signals.
 * `onInputEnd` runs when piped input ends. Returns the function that undoes all of it.
 */
function attachTerminal(source: PtySource, onInputEnd: () => void): () => void {
  const stdin = process.stdin;
  const stdout = process.stdout;
  const restoreRaw = stdin.isTTY ? enterRawMode(stdin as ReadStream) : null;
  // The person's bytes reach the program as typed (or piped), whatever their encoding.
  const onData = (buf: Buffer): void => source.writeBytes(buf);
  // A pipe that ends is the person saying "that's all": the pane gets Ctrl-D once it is reading (EofWhenIdle).
  const onEnd = (): void => onInputEnd();
  const onStdinError = (): void => {}; // a broken stdin only means no more input
  stdin.on('data', onData);
  stdin.on('error', onStdinError);
  if (!stdin.isTTY) stdin.on('end', onEnd);
  stdin.resume();

  const onResize = (): void => {
    const tty = stdout as WriteStream;
    if (tty.columns && tty.rows) source.resize(tty.columns, tty.rows);
  };
  if (stdout.isTTY) stdout.on('resize', onResize);

  // Raw mode turns Ctrl-C into a byte for the pane; a SIGINT can still come from kill(1) or, without a terminal,
  // from the outer one: pass it on as the key. TERM/HUP end the wrapper, so they end the pane first.
  const onInt = (): void => source.write(INTERRUPT_KEY);
  const onTerm = (sig: NodeJS.Signals): void => void source.terminate(sig);
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onTerm);

  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onTerm);
    stdout.off('resize', onResize);
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    stdin.off('error', onStdinError);
    stdin.pause();
    restoreRaw?.();
  };
}

/** Pauses reading the pane while any consumer (our stdout, the monitor's terminal) is behind. */
class Holds {
  private readonly reasons = new Set<string>();
  constructor(private readonly source: PtySource) {}
  has(reason: string): boolean {
    return this.reasons.has(reason);
  }
  hold(reason: string): void {
    if (this.reasons.size === 0) this.source.pause();
    this.reasons.add(reason);
  }
  release(reason: string): void {
    if (!this.reasons.delete(reason) || this.reasons.size > 0) return;
    this.source.resume();
  }
}

function initialSize(a: ParsedArgs): { cols: number; rows: number } {
  const out = process.stdout as WriteStream;
  const tty = out.isTTY && out.columns > 0 && out.rows > 0;
  return {
    cols: intOption(a, 'cols') ?? (tty ? out.columns : DEFAULT_COLS),
    rows: intOption(a, 'rows') ?? (tty ? out.rows : DEFAULT_ROWS),
  };
}

function stringOption(a: ParsedArgs, name: string): string | undefined {
  const v = a.options.get(name);
  if (v === true || v === '') throw new UsageError(`--${name} needs a value`);
  return v;
}

function intOption(a: ParsedArgs, name: string): number | undefined {
  const v = stringOption(a, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${name} must be a positive whole number, got ${JSON.stringify(v)}`);
  return Number(v);
}

function text(data: string | Uint8Array): string {
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
}

/** The environment asciinema records, so a replay knows what terminal the program believed it had. */
function castEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['TERM', 'SHELL']) if (process.env[k]) env[k] = process.env[k]!;
  return env;
}
