// `termsupervisor doctor`: is everything in place? One line per check (ok / warn / fail / n/a) with a one-line fix
// under each warning and failure; --json for scripts. Exit 1 when any check fails.
import { parseArgs, UsageError } from './args.js';
import { colorMode, painter, type PaletteName } from './colors.js';
import { runChecks, type Check, type CheckStatus } from './doctor-checks.js';
import { VERSION } from './version.js';
import { printable, printableJson } from './printable.js';

export const DOCTOR_USAGE = `usage: termsupervisor doctor [--json] [--no-color] [--daemon URL] [--config PATH] [--db PATH]

Checks the set-up and says how to fix what is wrong: the daemon (runtime file, port), the token, tmux (3.2+),
the iTerm2 bridge (macOS), each agent's hooks, shell integration per live pane, the daemon's notification
channels and whether they deliver (without a daemon: this machine's notifier), the history database (opened
read-only) and the config. Works without a running daemon.
  --json     {"version","ok","checks":[{"id","status","detail","fix"}]}
  --daemon   the daemon to check (default: $TERMSUPERVISOR_DAEMON, else the running daemon's runtime file)
  --config   the config file to validate (default: $XDG_CONFIG_HOME/termsupervisor/config.json if present)
  --db       the history database (default: the running daemon's, else $XDG_STATE_HOME/termsupervisor/history.sqlite)
Exit status: 0 when no check fails (warnings allowed), 1 otherwise.
examples:
  termsupervisor doctor
  termsupervisor doctor --json | jq '.checks[] | select(.status == "fail")'`;

const LOOK: Record<CheckStatus, { label: string; color: PaletteName }> = {
  ok: { label: 'ok', color: 'done' },
  warn: { label: 'warn', color: 'waiting' },
  fail: { label: 'FAIL', color: 'failed' },
  'n/a': { label: 'n/a', color: 'dim' },
};

export async function doctorCommand(argv: string[], out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon', 'config', 'db'], flags: ['help', 'json', 'no-color'] });
  if (a.options.has('help')) return void out.write(DOCTOR_USAGE + '\n'), 0;
  const value = (k: string) => {
    const v = a.options.get(k);
    if (v === true) throw new UsageError(`--${k} needs a value`);
    return v;
  };
  const checks = await runChecks({ daemon: value('daemon'), config: value('config'), db: value('db') });
  const ok = !checks.some((c) => c.status === 'fail');
  if (a.options.has('json')) out.write(printableJson({ version: VERSION, ok, checks }, 2) + '\n');
  else out.write(render(checks, painter(colorMode(out, a.options.has('no-color')))) + '\n');
  return ok ? 0 : 1;
}

function render(checks: Check[], paint: ReturnType<typeof painter>): string {
  const idW = Math.max(...checks.map((c) => c.id.length));
  const lines = [`termsupervisor doctor ${VERSION}`];
  for (const c of checks) {
    const look = LOOK[c.status];
    // Checks name panes (shell.<pane>) and quote what they found: shown, never obeyed.
    lines.push(`  ${paint(look.color, look.label.padEnd(4), c.status === 'fail')}  ${printable(c.id).padEnd(idW)}  ${printable(c.detail)}`);
    if (c.fix) lines.push(`  ${' '.repeat(4 + 2 + idW)}  ${paint('dim', `fix: ${printable(c.fix)}`)}`);
  }
  const count = (s: CheckStatus) => checks.filter((c) => c.status === s).length;
  const [fails, warns] = [count('fail'), count('warn')];
  lines.push(fails ? paint('failed', `${fails} failed, ${warns} warning${warns === 1 ? '' : 's'}: fix the FAIL lines first`, true) : warns ? `no failures, ${warns} warning${warns === 1 ? '' : 's'}` : paint('done', 'all good'));
  return lines.join('\n');
}
