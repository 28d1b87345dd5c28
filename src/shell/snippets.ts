// The shell integration snippets `termsupervisor shell-integration` prints: OSC 133 marks around each prompt and
// command (A prompt start, B prompt end, C command executed, D;<status> command finished), which the detector takes
// as Tier 1 signals (src/screen/osc-parse.ts). Each one: does nothing outside an interactive shell (or on a dumb
// terminal), keeps the person's own prompt hooks working, and changes nothing when sourced a second time.
// A shell `run` starts with integration is handed a nonce in MARK_NONCE_ENV (src/shell/inject.ts): the snippet
// keeps it in a shell variable, takes it out of the environment at once (so no program the shell runs inherits
// it), and puts it on every mark (`;nonce=…`), so that marks in a command's output (a `cat` of a file holding
// them) are known for forged (src/analysis/mark-gate.ts). Without it the marks are plain.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function isShell(s: string | undefined): s is Shell {
  return (SHELLS as readonly string[]).includes(s ?? '');
}

/** The lines that open and close our block in an rc file: `--install` finds (and replaces) it by them. */
export const BEGIN_MARK = '# >>> termsupervisor shell integration >>>';
export const END_MARK = '# <<< termsupervisor shell integration <<<';
/** The environment variable that hands the mark nonce to the shell `run` starts (unset by the shell at once). */
export const MARK_NONCE_ENV = 'TERMSUPERVISOR_MARK_NONCE';

/** bash and zsh alike: the nonce from the environment into a shell variable (the marks' option), out of the
 * environment. A second sourcing (the person's rc holds the block too) keeps what the first took. */
const TAKE_NONCE = String.raw`if [[ -n ${'$'}{${MARK_NONCE_ENV}-} ]]; then
  __termsupervisor_mark=";nonce=$${MARK_NONCE_ENV}"
  unset ${MARK_NONCE_ENV}
fi
`;

/** bash and zsh alike: D with the status of the command that ran (only if one ran), then A for the new prompt. */
const PRECMD = String.raw`  __termsupervisor_precmd() {
    local ret=$?
    if [[ -n ${'$'}{__termsupervisor_ran-} ]]; then
      __termsupervisor_ran=
      printf '\e]133;D;%s%s\a' "$ret" "${'$'}{__termsupervisor_mark-}"
    fi
    printf '\e]133;A%s\a' "${'$'}{__termsupervisor_mark-}"
    return "$ret"
  }
`;

// bash: PROMPT_COMMAND gets our hook first (so $? is still the command's status; it is handed back unchanged to
// the hooks after it) and a second one last (themes that rebuild PS1 each prompt would drop the B mark). C goes
// in PS0 (bash 4.4+), which bash prints after reading a command line and before running it, and never for an
// empty line; its arithmetic subscript marks, in this shell, that a command ran, so D follows only a real command.
// No DEBUG trap: it would fight the person's own. bash before 4.4 (macOS's /bin/bash 3.2) gets A and B only: with
// no C (no PS0) it never marks that a command ran, so it makes no D either (a D without a C is not believed anyway,
// src/analysis/mark-gate.ts); its commands' ends are read from the screen.
const BASH = String.raw`${TAKE_NONCE}if [[ $- == *i* && ${'$'}{TERM-} != dumb ]]; then
${PRECMD}  __termsupervisor_prompt_end() {
    local ret=$?
    [[ $PS1 == *'133;B'* ]] || PS1+='\[\e]133;B${'$'}{__termsupervisor_mark-}\a\]'
    return "$ret"
  }
  if [[ $(declare -p PROMPT_COMMAND 2>/dev/null) == 'declare -a'* ]]; then
    [[ " ${'$'}{PROMPT_COMMAND[*]} " == *' __termsupervisor_precmd '* ]] ||
      PROMPT_COMMAND=(__termsupervisor_precmd "${'$'}{PROMPT_COMMAND[@]}" __termsupervisor_prompt_end)
  else
    case ${'$'}{PROMPT_COMMAND-} in
      *__termsupervisor_precmd*) ;;
      *) PROMPT_COMMAND="__termsupervisor_precmd${'$'}{PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}"$'\n'__termsupervisor_prompt_end ;;
    esac
  fi
  if (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )); then
    case ${'$'}{PS0-} in
      *'133;C'*) ;;
      *) PS0="${'$'}{PS0-}"'${'$'}{__termsupervisor_ps0[__termsupervisor_ran=1]-}\e]133;C${'$'}{__termsupervisor_mark-}\a' ;;
    esac
  fi
fi`;

// zsh: add-zsh-hook adds each hook once; our precmd is then moved to the front so $? is the command's status.
// preexec runs only for a command line that is not empty, so D follows only a real command.
const ZSH = String.raw`${TAKE_NONCE}if [[ -o interactive && ${'$'}{TERM-} != dumb ]]; then
${PRECMD}  __termsupervisor_prompt_end() {
    [[ $PS1 == *'133;B'* ]] || PS1+=$'%{\e]133;B'"${'$'}{__termsupervisor_mark-}"$'\a%}'
  }
  __termsupervisor_preexec() {
    __termsupervisor_ran=1
    printf '\e]133;C%s\a' "${'$'}{__termsupervisor_mark-}"
  }
  autoload -Uz add-zsh-hook
  add-zsh-hook precmd __termsupervisor_precmd
  add-zsh-hook precmd __termsupervisor_prompt_end
  add-zsh-hook preexec __termsupervisor_preexec
  precmd_functions=(__termsupervisor_precmd ${'$'}{precmd_functions:#__termsupervisor_precmd})
fi`;

// fish: event handlers (defining a function again replaces it, so sourcing twice adds nothing). fish_postexec
// sees the command's $status and fires only for a command that ran. fish 4 marks its prompt with OSC 133 itself,
// so this stands aside there, unless `run` handed it a nonce (fish's own marks carry none). No B mark: it would
// mean wrapping the person's fish_prompt function.
const FISH = String.raw`if set -q ${MARK_NONCE_ENV}
    set -g __termsupervisor_mark ";nonce=$${MARK_NONCE_ENV}"
    set -e ${MARK_NONCE_ENV}
end
if status is-interactive; and test "$TERM" != dumb; and begin; set -q __termsupervisor_mark; or test (string split -f1 . -- $version) -lt 4; end
    function __termsupervisor_prompt --on-event fish_prompt
        printf '\e]133;A%s\a' "$__termsupervisor_mark"
    end
    function __termsupervisor_preexec --on-event fish_preexec
        printf '\e]133;C%s\a' "$__termsupervisor_mark"
    end
    function __termsupervisor_postexec --on-event fish_postexec
        printf '\e]133;D;%s%s\a' $status "$__termsupervisor_mark"
    end
end`;

const BODY: Record<Shell, string> = { bash: BASH, zsh: ZSH, fish: FISH };

/** The whole block for the rc file, between the marker lines. */
export function snippet(shell: Shell): string {
  return [
    BEGIN_MARK,
    `# OSC 133 prompt and command marks for termsupervisor (${shell}); 'termsupervisor shell-integration ${shell}' prints it.`,
    BODY[shell],
    END_MARK,
    '',
  ].join('\n');
}
