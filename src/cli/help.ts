// The top-level help's parts for the setup commands and the examples. Each command's own help stays in its file
// (its *_USAGE, printed by `<command> --help` and `help <command>`); this holds only what `termsupervisor --help`
// adds around the list in main.ts.

/** The setup commands' lines in the command list. */
export const SETUP_COMMANDS = `  service install|uninstall|status [--dry-run] [--port N]
                      run the daemon as a login service (systemd user unit on Linux, launchd agent on macOS)
  shell-integration <bash|zsh|fish> [--install] [--rc FILE]
                      print (or add to your rc file) the OSC 133 prompt marks for Tier 1 shell panes
  logs [--follow] [--pane NAME|ID] [--kind K,...] [--file PATH]
                      the daemon's log and the run event log, one readable line per event`;

export const EXAMPLES = `examples:
  termsupervisor daemon                          # start the service in the foreground; prints the dashboard link
  termsupervisor service install                 # or keep it running as a login service
  termsupervisor run --name api -- claude        # wrap an agent: it shows on the dashboard
  termsupervisor hooks install all               # let the agents with hooks report their own turns
  termsupervisor shell-integration bash --install
  termsupervisor logs --follow --pane api
  termsupervisor help run                        # a command's options and examples (or: termsupervisor run --help)`;

/** Where a usage error points the person (unless its message already carries the usage). */
export function helpHint(cmd: string | undefined, message: string): string {
  if (/(^|\n)usage: /.test(message)) return message;
  return `${message}\n(see 'termsupervisor ${cmd && !cmd.startsWith('-') ? `help ${cmd}` : '--help'}')`;
}
