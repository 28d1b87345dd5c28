// `termsupervisor dashboard`: prints a fresh one-time link to the running daemon's dashboard (the link `make run`
// printed works once; this makes another). Needs the token, so only the daemon's own user can do it.
import { readRuntimeFile } from '../daemon/runtime-file.js';
import { readToken } from '../daemon/token.js';
import { parseArgs, UsageError } from './args.js';

export const DASHBOARD_USAGE = `usage: termsupervisor dashboard [--daemon URL]

Prints a new one-time link that opens the running daemon's dashboard with the right to acknowledge panes.
  --daemon  the daemon's address (default: $TERMSUPERVISOR_DAEMON, else the running daemon's runtime file)
example:
  xdg-open "$(termsupervisor dashboard)"`;

export async function dashboardCommand(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['help'] });
  if (a.options.has('help')) return void process.stdout.write(DASHBOARD_USAGE + '\n'), 0;
  const flag = a.options.get('daemon');
  if (flag === true) throw new UsageError('--daemon needs a URL');
  const url = (flag ?? process.env['TERMSUPERVISOR_DAEMON'] ?? readRuntimeFile()?.url)?.replace(/\/+$/, '');
  if (!url) throw new UsageError('no running daemon found: start one with `termsupervisor daemon` (or keep one running: `termsupervisor service install`)');
  const token = readToken();
  if (!token) throw new UsageError('no token found in the XDG config dir: start the daemon once as this user');
  let res: Response;
  try {
    res = await fetch(`${url}/api/auth/code`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  } catch (e) {
    throw new UsageError(`cannot reach the daemon at ${url}: ${(e as Error).message}`);
  }
  if (!res.ok) throw new UsageError(`the daemon at ${url} refused: HTTP ${res.status} (a daemon of another user or config dir?)`);
  const { code } = (await res.json()) as { code: string };
  process.stdout.write(`${url}/auth?code=${code}\n`);
  return 0;
}
