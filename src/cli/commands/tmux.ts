// `termsupervisor tmux snippet`: the lines of the tmux plugin (tmux/termsupervisor.conf, the file the plugin
// sources), to paste into ~/.tmux.conf instead of loading the plugin. Printed from that file, so the two never differ;
// @termsupervisor_bin is set first to the command that printed them (unless it is already set).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../args.js';

/** The plugin's lines, in the package (tmux/ next to dist/). */
export const SNIPPET_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tmux', 'termsupervisor.conf');
/** The plugin file TPM or `run-shell` loads. */
export const PLUGIN_PATH = join(dirname(SNIPPET_PATH), 'termsupervisor.tmux');
const BIN_PATH = join(dirname(SNIPPET_PATH), '..', 'bin', 'termsupervisor');

export const TMUX_USAGE = `usage: termsupervisor tmux snippet | plugin-path

The panes' states in tmux itself (docs/tmux.md): the daemon sets @termsupervisor_* options as states change; these
lines show them in the status line and the window list, and bind prefix N (next pane that needs you) and prefix T
(top in a popup).
  snippet       print the lines to paste into ~/.tmux.conf (the same ones the plugin loads)
  plugin-path   print the plugin file's path, for one line in ~/.tmux.conf: run-shell <path>
The daemon's side turns off with config tmux.presence: false.
examples:
  termsupervisor tmux snippet >> ~/.tmux.conf && tmux source-file ~/.tmux.conf
  echo "run-shell $(termsupervisor tmux plugin-path)" >> ~/.tmux.conf`;

export function tmuxCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): number {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === 'help' || argv.includes('--help')) return void out.write(TMUX_USAGE + '\n'), 0;
  if (sub?.startsWith('-')) throw new UsageError(`unknown option ${sub}\n\n${TMUX_USAGE}`);
  if (rest.length) throw new UsageError(`tmux ${sub} takes no arguments\n\n${TMUX_USAGE}`);
  if (sub === 'snippet') return void out.write(snippet()), 0;
  if (sub === 'plugin-path') return void out.write(PLUGIN_PATH + '\n'), 0;
  throw new UsageError(`${sub === undefined ? 'tmux needs a subcommand' : `unknown tmux subcommand ${JSON.stringify(sub)}`}\n\n${TMUX_USAGE}`);
}

/** The plugin's lines, with this checkout's or package's command as @termsupervisor_bin unless one is set. */
export function snippet(): string {
  const lines = readFileSync(SNIPPET_PATH, 'utf8');
  const quoted = `"${BIN_PATH.replace(/[\\"$]/g, '\\$&')}"`;
  return `# termsupervisor: the command (its path here; leave the line out if termsupervisor is on tmux's PATH)\n%if "#{==:#{@termsupervisor_bin},}"\nset -g @termsupervisor_bin ${quoted}\n%endif\n${lines}`;
}
