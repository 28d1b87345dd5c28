// A statement that raises in Python's REPL (Traceback, ZeroDivisionError): FAILED, then a good one: DONE.
// Recorded in a PTY and, with --tmux --name shell-fail-python-repl-tmux, in a tmux pane (no keys seen there).
export default {
  name: 'shell-fail-python-repl',
  scenario: "python3 REPL started from bash: `x = 6 * 7`, `x / 0` (ZeroDivisionError traceback), `print(x)`",
  steps: [
    { wait: 2 },
    { type: 'python3', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'x = 6 * 7', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'x / 0', enter: true },
    { wait: 'command_end' },
    { wait: 5 },
    { type: 'print(x)', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
