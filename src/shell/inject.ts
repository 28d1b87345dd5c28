// Shell integration for the shells `run` starts, injected the way VS Code does it for its terminals: the shell is
// pointed at a start-up file of ours that first reads what the shell would have read (the person's own rc files,
// untouched) and then adds the OSC 133 marks of snippets.ts. bash gets `--init-file`, zsh a ZDOTDIR whose files
// source the person's own, fish an init command. A shell started in a way we cannot mirror faithfully (bash
// --norc or --posix, zsh -f, an rc file of the person's choosing) is started as it is.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir } from '../config/paths.js';
import { programName } from '../analysis/program-kind.js';
import { MARK_NONCE_ENV, snippet, type Shell } from './snippets.js';

/** The start-up files hold nothing secret, but they are ours: only this user reads them. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
/** The person's ZDOTDIR, handed to our .zshenv (unset there at once). */
export const USER_ZDOTDIR_ENV = 'TERMSUPERVISOR_USER_ZDOTDIR';
/** Set when a login bash was asked for: our init file then reads the login files, as bash -l would. */
export const BASH_LOGIN_ENV = 'TERMSUPERVISOR_BASH_LOGIN';
/** Bytes of randomness in a session's mark nonce: nobody guesses it, a `cat` of another session's marks misses. */
const NONCE_BYTES = 16;

export interface Injection {
  shell: Shell;
  /** What to start instead of the person's argv. */
  argv: string[];
  /** Variables to add to the shell's environment; a null value removes the variable. */
  env: Record<string, string | null>;
  /** The nonce this session's marks carry (handed over in MARK_NONCE_ENV, which the shell unsets at once): marks
   * without it are forged (src/analysis/mark-gate.ts). */
  nonce: string;
}

/** Arguments we know how to keep (anything else: the shell is started as it is, without integration). */
const KEEPS: Record<Shell, readonly string[]> = {
  bash: ['-i', '-l', '--login', '--noprofile'],
  zsh: ['-i', '-l', '--login', '-d', '--no-globalrcs'],
  fish: ['-i', '--interactive', '-l', '--login', '-N', '--no-config'],
};

/** Where the start-up files go: the runtime dir (gone at logout), else the state dir. */
export function integrationDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_RUNTIME_DIR'] ? join(env['XDG_RUNTIME_DIR'], 'termsupervisor') : stateDir(env);
  return join(base, 'shell-integration');
}

/**
 * The argv and environment that start `argv` (an interactive bash, zsh or fish: a session, see program-kind.ts)
 * with shell integration, writing the start-up files they need under `dir`; null for any other command.
 */
export function injectShellIntegration(argv: readonly string[], env: NodeJS.ProcessEnv, dir = integrationDir(env)): Injection | null {
  const [arg0, ...args] = argv;
  if (!arg0) return null;
  const shell = programName(arg0);
  if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') return null;
  if (!args.every((a) => KEEPS[shell].includes(a))) return null;
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const nonce = randomBytes(NONCE_BYTES).toString('hex');
  const signed = { [MARK_NONCE_ENV]: nonce };
  switch (shell) {
    case 'bash': {
      const file = writeOwn(join(dir, 'bash'), 'init.bash', BASH_INIT + snippet('bash'));
      const login = args.some((a) => a === '-l' || a === '--login');
      const noProfile = args.includes('--noprofile');
      // bash takes long options before short ones; -l goes (our file reads the login files instead).
      const rest = args.filter((a) => a !== '-l' && a !== '--login' && a !== '--noprofile');
      return {
        shell,
        argv: [arg0, '--init-file', file, ...(noProfile ? ['--noprofile'] : []), ...rest],
        env: { [BASH_LOGIN_ENV]: login && !noProfile ? '1' : null, ...signed },
        nonce,
      };
    }
    case 'zsh': {
      const zdot = join(dir, 'zsh');
      for (const [name, text] of Object.entries(zshFiles())) writeOwn(zdot, name, text);
      return { shell, argv: [arg0, ...args], env: { ZDOTDIR: zdot, [USER_ZDOTDIR_ENV]: env['ZDOTDIR'] ?? null, ...signed }, nonce };
    }
    case 'fish': {
      const file = writeOwn(join(dir, 'fish'), 'init.fish', FISH_INIT + snippet('fish'));
      return { shell, argv: [arg0, ...args, '--init-command', `source ${fishQuote(file)}`], env: signed, nonce };
    }
  }
}

/** Written whole, then renamed into place: a shell starting meanwhile in another pane never reads half a file. */
function writeOwn(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const path = join(dir, name);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: FILE_MODE });
  renameSync(tmp, path);
  return path;
}

function fishQuote(s: string): string {
  return `'${s.replace(/[\\']/g, '\\$&')}'`;
}

const HEADER = (shell: string) =>
  `# Written by \`termsupervisor run\` for the ${shell} it starts: what ${shell} would have read at start-up (your own files, as they\n` +
  `# are: nothing in them is changed), then termsupervisor's shell integration. \`run --no-shell-integration\` starts\n` +
  `# ${shell} without it.\n`;

// bash reads /etc/bash.bashrc itself, then this file instead of ~/.bashrc. A login shell (-l) is started as an
// interactive one reading the login files here, in bash's own order.
const BASH_INIT = `${HEADER('bash')}if [ -n "\${${BASH_LOGIN_ENV}-}" ]; then
  unset ${BASH_LOGIN_ENV}
  if [ -r /etc/profile ]; then . /etc/profile; fi
  if [ -r ~/.bash_profile ]; then . ~/.bash_profile
  elif [ -r ~/.bash_login ]; then . ~/.bash_login
  elif [ -r ~/.profile ]; then . ~/.profile
  fi
else
  if [ -r ~/.bashrc ]; then . ~/.bashrc; fi
fi
`;

// fish reads its own config files as usual; this runs after them (--init-command).
const FISH_INIT = HEADER('fish');

/**
 * zsh finds its start-up files through ZDOTDIR, read anew before each one: ours point it back at the person's own
 * directory while theirs is read (at top level, so their `typeset`s stay global), note what their files made of
 * it, and come back for the next. After the last one (.zshrc, or .zlogin for a login shell) ZDOTDIR is the
 * person's again, so nothing started later in the pane ever reads ours.
 */
function zshFiles(): Record<string, string> {
  const toUser = `if [[ -n $__termsupervisor_user_zdotdir_set ]]; then ZDOTDIR=$__termsupervisor_user_zdotdir; else unset ZDOTDIR; fi\n`;
  const fromUser =
    `__termsupervisor_user_zdotdir=\${ZDOTDIR-}; __termsupervisor_user_zdotdir_set=\${ZDOTDIR+x}\n` + `ZDOTDIR=$__termsupervisor_zdotdir\n`;
  const restore = `${toUser}unset __termsupervisor_zdotdir __termsupervisor_user_zdotdir __termsupervisor_user_zdotdir_set\n`;
  const own = (file: string) => `${toUser}if [[ -r \${ZDOTDIR:-$HOME}/${file} ]]; then source \${ZDOTDIR:-$HOME}/${file}; fi\n${fromUser}`;
  return {
    '.zshenv':
      HEADER('zsh') +
      `__termsupervisor_zdotdir=$ZDOTDIR\n` +
      `__termsupervisor_user_zdotdir=\${${USER_ZDOTDIR_ENV}-}; __termsupervisor_user_zdotdir_set=\${${USER_ZDOTDIR_ENV}+x}\n` +
      `unset ${USER_ZDOTDIR_ENV}\n` +
      own('.zshenv') +
      // Neither .zshrc nor .zlogin will come: give ZDOTDIR back now.
      `if [[ ! -o interactive && ! -o login ]]; then\n${restore}fi\n`,
    '.zprofile': HEADER('zsh') + own('.zprofile'),
    '.zshrc': HEADER('zsh') + own('.zshrc') + snippet('zsh') + `if [[ ! -o login ]]; then\n${restore}fi\n`,
    '.zlogin': HEADER('zsh') + own('.zlogin') + restore,
  };
}
