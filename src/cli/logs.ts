// `termsupervisor logs [--follow]`: what `make loghook` shows (src/cli/loghook.ts does the reading and the
// formatting), from the installed command. Prints what is there and exits, unless --follow.
import { loghook } from './loghook.js';

export const LOGS_USAGE = `usage: termsupervisor logs [--follow|-f] [--pane NAME|ID] [--kind K,...] [--file PATH]...

Prints the logs as readable lines, one per event: the run event log ($XDG_STATE_HOME/termsupervisor/events.jsonl),
the daemon's log (daemon.log there, size-rotated) and, under 'termsupervisor service', the daemon's own output
(service.log there), merged in time order; a transition of a \`run\` pane that both its wrapper and the daemon logged is
shown once. An idle pane's periodic re-read (generic.idle_reemit) is left out unless --kind asks for signals.
Exit status 1 when there is no log yet, or --pane names a pane no line has.
  --follow, -f  the latest 20 lines, then keep following (across rotation) until Ctrl-C; waits for a log that
                does not exist yet
  --pane        only the lines of the pane with this name or id
  --kind        only these kinds: transition, signal, suppressed, hook, pane, notify, daemon, http
  --file        read this file instead of the defaults (repeatable)
examples:
  termsupervisor logs
  termsupervisor logs --follow --pane api --kind transition,notify`;

export async function logsCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) return void process.stdout.write(LOGS_USAGE + '\n'), 0;
  const follow = argv.some((a) => a === '--follow' || a === '-f');
  // loghook follows unless told --no-follow/--once; here not following is the default, so those change nothing.
  const rest = argv.filter((a) => a !== '--follow' && a !== '-f' && a !== '--no-follow' && a !== '--once');
  const bad = rest.find((a) => /^-[^-]/.test(a));
  if (bad) {
    process.stderr.write(`termsupervisor logs: unknown option ${bad}\n${LOGS_USAGE}\n`);
    return 2;
  }
  return loghook(follow ? rest : [...rest, '--no-follow'], { name: 'termsupervisor logs', usage: LOGS_USAGE });
}
