// Command lines for a tmux control client, built from argument lists.

/** Text for a tmux command line, double-quoted: tmux expands `$` and backslash escapes there, so both are escaped,
 * and line breaks and tabs are written as the escapes tmux turns back into the keys. */
export function tmuxQuote(text: string): string {
  return '"' + text.replace(/[\\"$]/g, '\\$&').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t') + '"';
}

/** A tmux command line for a control client: the command's name, then each argument double-quoted. */
export function commandLine(argv: string[]): string {
  return [argv[0]!, ...argv.slice(1).map(tmuxQuote)].join(' ');
}
