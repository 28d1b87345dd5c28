// `termsupervisor shell-integration bash|zsh|fish [--install] [--rc FILE]`: prints (or installs) the snippet that
// makes the shell mark its prompts and commands with OSC 133, so shell panes get Tier 1 RUNNING/DONE/FAILED.
import { resolve } from 'node:path';
import { parseArgs, UsageError } from './args.js';
import { defaultRcFile, installInRc } from '../shell/rc-install.js';
import { isShell, SHELLS, snippet } from '../shell/snippets.js';

export const SHELL_INTEGRATION_USAGE = `usage: termsupervisor shell-integration <bash|zsh|fish> [--install] [--rc FILE]

Prints the lines that make your shell mark each prompt and command for termsupervisor (OSC 133: A prompt start,
B prompt end, C command executed, D;<exit status> command finished), so a shell pane's RUNNING, DONE and FAILED
come from the shell itself (Tier 1) rather than from reading the screen. They do nothing in a non-interactive
shell, keep your own PROMPT_COMMAND / precmd / preexec hooks working, and are safe to source twice.
(bash: C needs bash 4.4 or newer; fish 4 marks its prompt by itself, so the fish lines stand aside there.)
  --install  add them to your rc file instead of printing them: once (between marker comments; a newer version
             replaces the old block), after saving the file as <file>.termsupervisor-backup-<time>
  --rc FILE  the rc file for --install (default: ~/.bashrc, \${ZDOTDIR:-~}/.zshrc, ~/.config/fish/config.fish)
Open a new shell (or source the rc file) afterwards.
examples:
  termsupervisor shell-integration bash >> ~/.bashrc
  termsupervisor shell-integration zsh --install
  termsupervisor shell-integration fish --install --rc ~/.config/fish/conf.d/termsupervisor.fish`;

export async function shellIntegrationCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const a = parseArgs(argv, { values: ['rc'], flags: ['help', 'install'] });
  if (a.options.has('help')) return void out.write(SHELL_INTEGRATION_USAGE + '\n'), 0;
  const [shell, ...extra] = a.positional;
  if (!isShell(shell)) throw new UsageError(`shell-integration needs a shell: ${SHELLS.join(', ')}${shell ? ` (got ${JSON.stringify(shell)})` : ''}\n\n${SHELL_INTEGRATION_USAGE}`);
  if (extra.length || a.rest.length) throw new UsageError(`shell-integration: unexpected argument ${JSON.stringify(extra[0] ?? a.rest[0])}`);
  const rc = a.options.get('rc');
  if (rc === '' || rc === true) throw new UsageError('--rc needs a file');
  if (rc !== undefined && !a.options.has('install')) throw new UsageError('--rc goes with --install');
  if (!a.options.has('install')) return void out.write(snippet(shell)), 0;

  const r = installInRc(shell, rc !== undefined ? resolve(rc) : defaultRcFile(shell));
  if (r.status === 'refused') {
    process.stderr.write(`termsupervisor: ${r.file} left alone: ${r.reason}\n`);
    return 1;
  }
  if (r.status === 'unchanged') out.write(`${shell}: already installed in ${r.file}\n`);
  else out.write(`${shell}: ${r.status} the shell integration in ${r.file}${r.backup ? `; the previous version is ${r.backup}` : ''}\nOpen a new shell (or: source ${r.file}) for it to take effect.\n`);
  return 0;
}
