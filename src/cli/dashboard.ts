// `termsupervisor dashboard`: prints a fresh one-time link to the running daemon's dashboard (the link `make run`
// printed works once; this makes another). Needs the token, so only the daemon's own user can do it.
import { parseArgs, UsageError } from './args.js';
import { DAEMON_OPTION_HELP, daemonJson, daemonTarget } from './daemon-client.js';

export const DASHBOARD_USAGE = `usage: termsupervisor dashboard [--daemon URL]

Prints a new one-time link that opens the running daemon's dashboard with the right to acknowledge panes.
${DAEMON_OPTION_HELP}
example:
  xdg-open "$(termsupervisor dashboard)"`;

export async function dashboardCommand(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['help'] });
  if (a.options.has('help')) return void process.stdout.write(DASHBOARD_USAGE + '\n'), 0;
  const target = daemonTarget(a.options.get('daemon'));
  if (!target.token) throw new UsageError('no token found in the XDG config dir: start the daemon once as this user');
  const { code } = await daemonJson<{ code: string }>(target, '/api/auth/code', { method: 'POST' });
  process.stdout.write(`${target.url}/auth?code=${code}\n`);
  return 0;
}
