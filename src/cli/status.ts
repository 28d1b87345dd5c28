// `termsupervisor status`: one line per pane from the running daemon — state (dashboard colours), how long, name
// and id, program, a "needs you" mark, and the rule and screen line that decided it. --json for scripts.
import type { PaneView } from '../web/api-types.js';
import { duration, EXIT_CODE_UNKNOWN, STALL_ICON, STATE_ICON } from '../web/state-words.js';
import { parseArgs, UsageError } from './args.js';
import { colorMode, painter, STATE_COLOR, type Paint } from './colors.js';
import { DAEMON_OPTION_HELP, daemonJson, daemonTarget } from './daemon-client.js';
import { printable, printableJson } from './printable.js';
import { anyRemote, byHost, THIS_MACHINE, unreachableText } from '../web/hosts.js';

export const STATUS_USAGE = `usage: termsupervisor status [--json] [--all] [--no-color] [--daemon URL]

One line per attached pane: state, for how long, name and id, program, "needs you", and why (rule: screen line).
Panes of other machines (daemon --remote, --peer) are listed under their host's name, after this machine's.
  --json      the panes as a JSON array (GET /api/panes objects)
  --all       closed panes from history too
  --no-color  plain text (also when NO_COLOR is set or the output is not a terminal)
${DAEMON_OPTION_HELP}
Exit status: 0, or 1 when no daemon answers.
examples:
  termsupervisor status
  termsupervisor status --json | jq -r '.[] | select(.needsYou) | .name'`;

export async function statusCommand(argv: string[], out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['help', 'json', 'all', 'no-color'] });
  if (a.options.has('help')) return void out.write(STATUS_USAGE + '\n'), 0;
  if (a.positional.length) throw new UsageError(`status takes no arguments\n\n${STATUS_USAGE}`);
  const target = daemonTarget(a.options.get('daemon'));
  const all = await daemonJson<PaneView[]>(target, '/api/panes');
  const panes = a.options.has('all') ? all : all.filter((p) => p.alive);
  if (a.options.has('json')) return void out.write(printableJson(panes, 2) + '\n'), 0;
  const paint = painter(colorMode(out, a.options.has('no-color')));
  if (panes.length === 0) out.write(`no panes attached to the daemon at ${target.url}: start one with \`termsupervisor run -- <command>\`, or open a tmux pane\n`);
  for (const line of statusGroups(panes, Date.now(), paint)) out.write(line + '\n');
  const closed = all.length - panes.length;
  if (closed > 0) out.write(paint('dim', `(${closed} closed pane${closed === 1 ? '' : 's'} in history: --all shows them)`) + '\n');
  return 0;
}

/** Max width of the name column: longer names are cut with an ellipsis. */
const NAME_WIDTH = 20;
const NEEDS_YOU = '● needs you';
/** Screen lines are cut to this many characters. */
const LINE_WIDTH = 60;

/** The lines, grouped under a heading per host when any pane runs on another machine (this machine first); a
 * host that cannot be reached says so on its heading. Columns line up across the groups. */
export function statusGroups(panes: PaneView[], now: number, paint: Paint): string[] {
  if (!anyRemote(panes)) return statusLines(panes, now, paint);
  const groups = byHost(panes);
  const lines = statusLines(groups.flatMap((g) => g.panes), now, paint);
  const out: string[] = [];
  let i = 0;
  for (const g of groups) {
    const down = g.panes.find((p) => p.alive && p.unreachable)?.unreachable;
    const head = `── ${printable(g.host ?? THIS_MACHINE)} (${g.panes.length})${down ? ` · ${unreachableText({ ...down, reason: printable(down.reason) }, timeOfDay)}` : ''}`;
    out.push(down ? paint('failed', head, true) : paint('dim', head));
    for (const _ of g.panes) out.push(lines[i++]!);
  }
  return out;
}

function timeOfDay(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

export function statusLines(shown: PaneView[], now: number, paint: Paint): string[] {
  // Names, programs, rules, lines and ids come from the panes' programs: shown, never obeyed.
  const panes = shown.map((p) => ({ ...p, name: printable(p.name), program: printable(p.program), rule: printable(p.rule), id: printable(p.id) }));
  const nameW = Math.min(NAME_WIDTH, Math.max(4, ...panes.map((p) => p.name.length)));
  const progW = Math.max(7, ...panes.map((p) => p.program.length));
  return panes.map((p) => {
    const color = STATE_COLOR[p.state];
    const state = paint(color, `${STATE_ICON[p.state]} ${p.state.padEnd(16)}`, p.needsYou);
    const age = duration(now - p.since).padStart(7);
    const name = cut(p.name, nameW).padEnd(nameW);
    // A fixed-width "needs you" column keeps the rest aligned; stalled and closed are rarer and go after it.
    const needs = p.needsYou ? paint(color, NEEDS_YOU, true) : ' '.repeat(NEEDS_YOU.length);
    const extra = [p.stalled ? paint('stalled', `${STALL_ICON} stalled`) : '', p.alive ? '' : paint('dim', 'closed'), p.exitCodeUnknown ? paint('dim', EXIT_CODE_UNKNOWN) : '', p.analysisError ? paint('failed', `analysis error (${p.analysisError.stage})`) : '', p.alive && p.unreachable ? paint('dim', 'stale: host unreachable') : ''];
    const why = [p.rule, p.line ? printableJson(cut(p.line.trim(), LINE_WIDTH)) : ''].filter(Boolean).join(' ');
    return [state, age, name, p.program.padEnd(progW), needs, ...extra, why && paint('dim', why), paint('dim', `[${p.id}]`)].filter(Boolean).join('  ');
  });
}

function cut(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}
