// `termsupervisor name PANE NAME`: names a pane on the board, in `status` and in notifications. A tmux pane keeps
// its name in tmux (the pane option @termsupervisor_name), so it outlives the daemon; `name PANE ''` gives a tmux
// pane back its tmux name (its window's, when you named the window: `work:api`).
import type { PaneView } from '../../web/api-types.js';
import { parseArgs, UsageError } from '../args.js';
import { DAEMON_OPTION_HELP, DaemonUnavailable, daemonFetch, daemonJson, daemonTarget } from '../daemon-client.js';
import { printable, printableLines } from '../printable.js';
import { resolvePane } from '../wait.js';

export const NAME_USAGE = `usage: termsupervisor name PANE NAME [--daemon URL]

Names a pane: the board, \`status\`, \`top\` and notifications call it NAME. tmux panes keep the name in tmux itself
(pane option @termsupervisor_name); NAME '' gives a tmux pane back its tmux name. Without a name, a tmux pane is
called by its window's name when you named the window (tmux rename-window, new-window -n): work:api, work:api.1.
${DAEMON_OPTION_HELP}
PANE is a pane id from \`termsupervisor status\`, or a pane's name when only one live pane has it.
Exit status: 0 named, 1 no daemon answers, 2 usage or no such pane (or a name refused), 3 the pane is closed.
example:
  termsupervisor name work:1.0 reviewer`;

export async function nameCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['help'] });
  if (a.options.has('help')) return void out.write(NAME_USAGE + '\n'), 0;
  if (a.positional.length !== 2) throw new UsageError(`name needs a pane and a name\n\n${NAME_USAGE}`);
  const target = daemonTarget(a.options.get('daemon'));
  const say = (s: string) => process.stderr.write(`termsupervisor name: ${printableLines(s)}\n`);
  const found = resolvePane(a.positional[0]!, await daemonJson<PaneView[]>(target, '/api/panes'));
  if (typeof found === 'string') return say(found), 2;
  const res = await daemonFetch(target, `/api/panes/${encodeURIComponent(found.id)}/name`, { method: 'POST', body: { name: a.positional[1]! } });
  const body = (await res.json().catch(() => ({}))) as Partial<PaneView> & { error?: string };
  if (res.status === 401 || res.status === 403) throw new DaemonUnavailable(`the daemon refused: HTTP ${res.status}: ${body.error ?? ''}`);
  if (!res.ok) return say(`${printable(found.name)} [${printable(found.id)}]: ${body.error ?? `HTTP ${res.status}`}`), res.status === 409 ? 3 : res.status >= 500 ? 1 : 2;
  out.write(`${printable(found.id)} is named ${printable(body.name ?? a.positional[1]!)}${a.positional[1] ? '' : ' (its tmux name)'}\n`);
  return 0;
}
