// `false` and `true` with no output: the exit code is not on screen (DONE is acceptable for `false`).
export default {
  name: 'shell-fail-false',
  scenario: 'bash without shell integration: `true`, then `false` (exit 1, no output)',
  steps: [
    { wait: 2 },
    { type: 'true', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'false', enter: true, silent_failure: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
