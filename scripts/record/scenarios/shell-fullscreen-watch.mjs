// A full-screen program redrawing by itself is working: `watch -n 1 date` until Ctrl-C.
export default {
  name: 'shell-fullscreen-watch',
  scenario: 'bash without shell integration: `watch -n 1 date` for 12 s, stopped with Ctrl-C (exit 130)',
  cols: 100,
  rows: 30,
  steps: [
    { wait: 2 },
    { type: 'watch -n 1 date', enter: true },
    { wait: 12 },
    { press: 'C-c' },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'echo after', enter: true },
    { wait: 'command_end' },
  ],
  tail: 3,
};
