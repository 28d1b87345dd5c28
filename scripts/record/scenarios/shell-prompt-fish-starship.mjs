// fish with a starship-like two-line prompt (folder, branch, duration of the last command, then "❯ ") at 80x24.
export default {
  name: 'shell-prompt-fish-starship',
  scenario: 'fish 3.6 without shell integration, starship-like two-line prompt at 80x24: a command list, sleep 2, false, echo',
  shell: 'fish',
  prompt: "set -l s $status; printf '\\n%s%s%s on %s main%s\\n' (set_color cyan) (prompt_pwd) (set_color normal) (set_color magenta) (set_color normal); if test $s -eq 0; set_color green; else; set_color red; end; printf '❯ '; set_color normal",
  cols: 80,
  rows: 24,
  steps: [
    { wait: 2 },
    { type: 'for i in 1 2 3; echo step $i; end', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'sleep 2', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'false', enter: true, silent_failure: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'echo done with it', enter: true },
    { wait: 'command_end' },
  ],
  tail: 3,
};
