// `termsupervisor focus --next`: jumps the person's tmux client (or iTerm2) to the next pane that needs them, in
// urgency order (a question waiting, then a failure, a stall, a finished turn; newest first within each, as `top`
// orders them). Pressed again, it goes on to the one after: the pane the person's tmux shows now is skipped. Bound
// to prefix N by the tmux plugin (tmux/termsupervisor.conf), which runs it with --display: what happened is said in
// the tmux status line (display-message) rather than in a copy-mode page of output.
import { execFile } from 'node:child_process';
import type { PaneView } from '../../web/api-types.js';
import { parseArgs, UsageError } from '../args.js';
import { DAEMON_OPTION_HELP, daemonJson, daemonTarget } from '../daemon-client.js';
import { paneAction } from '../pane-actions.js';
import { printable, printableJson, printableLines } from '../printable.js';
import { comparePanes } from '../top/model.js';

export const FOCUS_NEXT_USAGE = `usage: termsupervisor focus --next [--display] [--json] [--daemon URL]

Jumps to the next pane that needs you, in urgency order (waiting for an answer, failed, stalled, done; newest
first): your attached tmux client shows it (iTerm2: its session is activated). Run from inside tmux, the pane
your tmux shows now is skipped, so pressing it again goes on to the next one.
  --display   say what happened in tmux's status line (tmux display-message) instead of on stdout
  --json      print the daemon's answer as JSON
${DAEMON_OPTION_HELP}
Exit status: 0 shown (or nothing needs you), 1 no daemon answers, 3 the pane could not be shown.
example (the tmux plugin's binding):
  bind-key N run-shell -b 'termsupervisor focus --next --display'`;

/** How long asking tmux which pane it shows may take (a wedged server must not hold a key binding). */
const TMUX_ASK_MS = 2000;

/** The next pane after `current` among those that need the person, in urgency order; null when none does. */
export function nextPane(panes: PaneView[], current: string | null): PaneView | null {
  const due = panes.filter((p) => p.alive && p.needsYou).sort(comparePanes);
  if (!due.length) return null;
  const at = current === null ? -1 : due.findIndex((p) => p.where?.pane === current && (p.attach === 'tmux' || p.attach === 'ssh'));
  if (at < 0) return due[0]!;
  return due.length > 1 ? due[(at + 1) % due.length]! : null;
}

export async function focusNextCommand(argv: string[], out: NodeJS.WritableStream = process.stdout, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['help', 'next', 'display', 'json'] });
  if (a.options.has('help')) return void out.write(FOCUS_NEXT_USAGE + '\n'), 0;
  if (a.positional.length) throw new UsageError(`focus --next takes no pane\n\n${FOCUS_NEXT_USAGE}`);
  const display = a.options.has('display') && !!env['TMUX'];
  const say = (line: string) => (display ? tmuxDisplay(line, env) : void out.write(line + '\n'));
  const target = daemonTarget(a.options.get('daemon'));
  const panes = await daemonJson<PaneView[]>(target, '/api/panes');
  const current = env['TMUX'] ? await tmuxCurrentPane(env) : null;
  const next = nextPane(panes, current);
  if (!next) {
    const here = current !== null && panes.some((p) => p.alive && p.needsYou && p.where?.pane === current);
    await say(here ? 'termsupervisor: no other pane needs you' : 'termsupervisor: no pane needs you');
    return 0;
  }
  const r = await paneAction(target, 'cli', next.id, 'focus');
  if (a.options.has('json')) out.write(printableJson(r.body, 2) + '\n');
  const name = `${printable(next.name)} (${next.state === 'WAITING_APPROVAL' ? 'waiting' : next.stalled ? 'stalled' : next.state.toLowerCase()})`;
  if (r.ok && r.focused !== false) {
    if (!a.options.has('json')) await say(`termsupervisor: ${name}${r.how ? `: ${printable(r.how)}` : ''}`);
    return 0;
  }
  await say(`termsupervisor: cannot show ${name}: ${printableLines(r.ok ? (r.how ?? 'no reason given') : r.error)}`);
  return r.ok ? 3 : r.status === 401 || r.status === 403 || r.status >= 500 ? 1 : 3;
}

/** The pane the tmux this runs in shows ($TMUX's session: its active window's active pane), or null. */
function tmuxCurrentPane(env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('tmux', ['display-message', '-p', '#{pane_id}'], { env, timeout: TMUX_ASK_MS }, (err, stdout) => {
      const pane = err ? '' : stdout.trim();
      resolve(pane.startsWith('%') ? pane : null);
    });
  });
}

function tmuxDisplay(line: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve) => {
    // -l: the line is shown as it is, never read as a format (a pane's name may hold `#`).
    execFile('tmux', ['display-message', '-l', line], { env, timeout: TMUX_ASK_MS }, () => resolve());
  });
}
