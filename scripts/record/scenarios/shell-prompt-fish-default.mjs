// fish with its own default prompt, autosuggestions (grey text after the cursor while typing a command seen
// before) and syntax colouring.
export default {
  name: 'shell-prompt-fish-default',
  scenario: 'fish 3.6 without shell integration, default prompt: echo, ls, echo again (autosuggested), sleep 3, a missing command',
  shell: 'fish',
  cols: 100,
  rows: 30,
  setup: ['touch notes.md'],
  steps: [
    { wait: 2 },
    { type: 'echo hello there', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'ls -l', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'echo hello again', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'sleep 3', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'nosuchtool --version', enter: true },
    { wait: 'command_end' },
  ],
  tail: 3,
};
