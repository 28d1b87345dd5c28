// `termsupervisor status`: one line per pane from the running daemon — state (dashboard colours), how long, name
// and id, program, a "needs you" mark, and the rule and screen line that decided it. --json for scripts.
import type { PaneView } from '../web/api-types.js';
import { duration, EXIT_CODE_UNKNOWN, STALL_ICON, STATE_ICON } from '../web/state-words.js';
import { parseArgs, UsageError } from './args.js';
import { colorMode, painter, STATE_COLOR, type Paint } from './colors.js';
import { DAEMON_OPTION_HELP, daemonJson, daemonTarget } from './daemon-client.js';
import { printable, printableJson } from './printable.js';
import { comparePanes } from './top/model.js';
import { commandName } from './command-name.js';

export const STATUS_USAGE = `usage: termsupervisor status [--json] [--all] [--needs-you] [--no-color] [--format tmux] [--daemon URL]

One line per attached pane, the ones that need you first (a question, a failure, a stall, a finished turn; newest
first within each), then the rest: state, for how long (a busy pane: since its work began), name, program,
"needs you", and why (rule: screen line). Panes of other machines (remote tmux over SSH, peer daemons) are grouped
under their host's name.
  --json      the panes as a JSON array (GET /api/panes objects), in the same order
  --all       closed panes from history too
  --needs-you only the panes that need you (exit 0 either way; none: nothing printed but a note)
  --no-color  plain text (also when NO_COLOR is set or the output is not a terminal)
  --format tmux  one line for tmux's status-right (#(termsupervisor status --format tmux)): what needs you,
                 coloured with tmux's #[fg=…]; the options the daemon sets need no command (docs/tmux.md)
${DAEMON_OPTION_HELP}
Exit status: 0, or 1 when no daemon answers.
examples:
  termsupervisor status
  termsupervisor status --needs-you
  termsupervisor status --json | jq -r '.[] | select(.needsYou) | .name'`;

export async function statusCommand(argv: string[], out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon', 'format'], flags: ['help', 'json', 'all', 'needs-you', 'no-color'] });
  const format = a.options.get('format');
  if (format !== undefined && format !== 'tmux') throw new UsageError(`--format takes tmux (for status-right's #(…)), got ${JSON.stringify(format)}`);
  if (a.options.has('help')) return void out.write(STATUS_USAGE + '\n'), 0;
  if (a.positional.length) throw new UsageError(`status takes no arguments\n\n${STATUS_USAGE}`);
  const target = daemonTarget(a.options.get('daemon'));
  const all = await daemonJson<PaneView[]>(target, '/api/panes');
  const needsYou = a.options.has('needs-you');
  const panes = choosePanes(all, { all: a.options.has('all'), needsYou });
  if (format === 'tmux') return void out.write((await import('./commands/status-tmux.js')).tmuxStatusLine(panes) + '\n'), 0;
  if (a.options.has('json')) return void out.write(printableJson(panes, 2) + '\n'), 0;
  const paint = painter(colorMode(out, a.options.has('no-color')));
  if (panes.length === 0 && needsYou) out.write(`no pane needs you\n`);
  else if (panes.length === 0) out.write(`no panes attached to the daemon at ${target.url}: start one with \`${commandName()} run -- <command>\`, or open a tmux pane\n`);
  for (const line of statusLines(panes, Date.now(), paint)) out.write(line + '\n');
  const closed = all.filter((p) => !p.alive).length;
  if (closed > 0 && !a.options.has('all') && !needsYou) out.write(paint('dim', `(${closed} closed pane${closed === 1 ? '' : 's'} in history: --all shows them)`) + '\n');
  return 0;
}

/** The panes `status` lists, in urgency order (top's and the board's): closed ones only with --all, only those
 * that need the person with --needs-you. */
export function choosePanes(all: PaneView[], opts: { all: boolean; needsYou: boolean }): PaneView[] {
  return all.filter((p) => (opts.all || p.alive) && (!opts.needsYou || (p.alive && p.needsYou))).sort(comparePanes);
}

/** Max width of the name column: longer names are cut with an ellipsis. */
const NAME_WIDTH = 20;
const NEEDS_YOU = '● needs you';
/** Screen lines are cut to this many characters. */
const LINE_WIDTH = 60;

/** The heading of this machine's own panes, once other hosts' panes are listed too. */
const LOCAL_HOST = 'this machine';

/** One line per pane; when some run on other hosts, this machine's first, then each host's under its name
 * (columns aligned across all of them). */
export function statusLines(shown: PaneView[], now: number, paint: Paint): string[] {
  // Names, programs, rules, lines and ids come from the panes' programs: shown, never obeyed.
  const panes = shown.map((p) => ({ ...p, name: printable(p.name), program: printable(p.program), rule: printable(p.rule), id: printable(p.id) }));
  const nameW = Math.min(NAME_WIDTH, Math.max(4, ...panes.map((p) => p.name.length)));
  const progW = Math.max(7, ...panes.map((p) => p.program.length));
  const line = (p: PaneView) => paneLine(p, now, paint, nameW, progW);
  if (!panes.some((p) => p.host)) return panes.map(line);
  const hosts = new Map<string, PaneView[]>([[LOCAL_HOST, []]]);
  for (const p of panes) {
    const h = p.host ? printable(p.host) : LOCAL_HOST;
    hosts.set(h, [...(hosts.get(h) ?? []), p]);
  }
  const out: string[] = [];
  for (const [host, group] of hosts) {
    if (!group.length) continue;
    const down = group.find((p) => p.unreachable)?.unreachable;
    const why = down ? paint('failed', `  unreachable since ${new Date(down.since).toTimeString().slice(0, 8)} (${printable(down.reason)}): last states shown`) : '';
    out.push(paint('dim', `── ${host} ──`) + why);
    out.push(...group.map(line));
  }
  return out;
}

function paneLine(p: PaneView, now: number, paint: Paint, nameW: number, progW: number): string {
  {
    const color = STATE_COLOR[p.state];
    const state = paint(color, `${STATE_ICON[p.state]} ${p.state.padEnd(16)}`, p.needsYou);
    // A busy pane's time is its work's (what the board's card says: LONG_RUNNING or a stall does not restart it).
    const busy = p.alive && (p.state === 'RUNNING' || p.state === 'LONG_RUNNING');
    const age = duration(now - (busy ? p.startedAt : p.since)).padStart(7);
    const name = cut(p.name, nameW).padEnd(nameW);
    // A fixed-width "needs you" column keeps the rest aligned; stalled and closed are rarer and go after it.
    const needs = p.needsYou ? paint(color, NEEDS_YOU, true) : ' '.repeat(NEEDS_YOU.length);
    const extra = [p.stalled ? paint('stalled', `${STALL_ICON} stalled`) : '', p.alive ? '' : paint('dim', 'closed'), p.unreachable ? paint('dim', 'stale') : '', p.exitCodeUnknown ? paint('dim', EXIT_CODE_UNKNOWN) : '', p.analysisError ? paint('failed', `analysis error (${p.analysisError.stage})`) : ''];
    const why = [p.rule, p.line ? printableJson(cut(p.line.trim(), LINE_WIDTH)) : ''].filter(Boolean).join(' ');
    return [state, age, name, p.program.padEnd(progW), needs, ...extra, why && paint('dim', why), paint('dim', `[${p.id}]`)].filter(Boolean).join('  ');
  }
}

function cut(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}
