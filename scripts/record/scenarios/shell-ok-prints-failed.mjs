// Successful commands whose output merely mentions failure: a notes file with the word "failed", success
// summaries ("0 failed", "no failures"). All exit 0: DONE, never FAILED.
export default {
  name: 'shell-ok-prints-failed',
  scenario: 'bash without shell integration: `cat notes.txt` (mentions a failed deploy), `echo "Tests: 0 failed, 12 passed"`, `echo "no failures"`, all exit 0',
  setup: [`printf 'monday: deploy failed, rolled back\\ntuesday: fixed the failed migration\\nwednesday: all green\\n' > notes.txt`],
  steps: [
    { wait: 2 },
    { type: 'cat notes.txt', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'echo "Tests: 0 failed, 12 passed"', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'echo "lint: no failures"', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
