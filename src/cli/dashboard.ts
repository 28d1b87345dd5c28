// `termsupervisor dashboard`: prints a fresh one-time link to the running daemon's dashboard (the link `make run`
// printed works once; this makes another). Needs the token, so only the daemon's own user can do it.
import { parseArgs } from './args.js';
import { daemonRequest, daemonUrl } from './daemon-client.js';

export const DASHBOARD_USAGE = `usage: termsupervisor dashboard [--daemon URL]

Prints a new one-time link that opens the running daemon's dashboard with the right to acknowledge panes.
  --daemon  the daemon's address (default: $TERMSUPERVISOR_DAEMON, else the running daemon's runtime file)
example:
  xdg-open "$(termsupervisor dashboard)"`;

export async function dashboardCommand(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['help'] });
  if (a.options.has('help')) return void process.stdout.write(DASHBOARD_USAGE + '\n'), 0;
  const url = daemonUrl(a.options.get('daemon'));
  const { code } = await daemonRequest<{ code: string }>(url, 'POST', '/api/auth/code');
  process.stdout.write(`${url}/auth?code=${code}\n`);
  return 0;
}
