// zsh with an oh-my-zsh "robbyrussell"-style prompt (arrow, folder, git branch) and the time as a right prompt:
// the cursor never sits at the end of its row at the prompt. Commands: output, a silent wait, a failure.
export default {
  name: 'shell-prompt-zsh-robbyrussell',
  scenario: 'zsh 5.9 without shell integration, robbyrussell-style prompt and a right prompt: ls, sleep 3, ls of a missing file (exit 2), echo',
  shell: 'zsh',
  prompt: '%(?:%F{green}%B➜ %b:%F{red}%B➜ %b)%f %F{cyan}%c%f %F{blue}git:(%F{red}main%F{blue})%f %F{yellow}✗%f ',
  rprompt: '%F{8}[%D{%H:%M:%S}]%f',
  cols: 100,
  rows: 30,
  setup: ['touch alpha.txt beta.txt'],
  steps: [
    { wait: 2 },
    { type: 'ls', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'sleep 3', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'ls nosuch.txt', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'echo all good', enter: true },
    { wait: 'command_end' },
  ],
  tail: 3,
};
