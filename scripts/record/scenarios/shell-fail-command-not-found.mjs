// A mistyped command: `bash: nosuch: command not found` (exit 127), after a good one.
export default {
  name: 'shell-fail-command-not-found',
  scenario: 'bash without shell integration: `echo hello`, then `nosuch` (command not found, exit 127)',
  steps: [
    { wait: 2 },
    { type: 'echo hello', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'nosuch', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
