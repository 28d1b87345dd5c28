// nano at rest, text typed, then Ctrl-X and "n" (discard): at rest throughout, the command's end is DONE.
export default {
  name: 'shell-fullscreen-nano',
  scenario: 'bash without shell integration: `nano notes.txt`, text typed, Ctrl-X, n (do not save)',
  cols: 100,
  rows: 30,
  setup: ['printf "first line\\n" > notes.txt'],
  steps: [
    { wait: 2 },
    { type: 'nano notes.txt', enter: true },
    { wait: 'blocked', means: 'idle', note: 'nano waits on keys' },
    { wait: 4 },
    { type: 'some words', enter: true },
    { type: 'more words' },
    { wait: 'blocked', means: 'idle' },
    { wait: 4 },
    { press: 'C-x' },
    { wait: 'blocked', means: 'idle', note: 'nano asks whether to save, inside its own screen' },
    { wait: 2 },
    { press: 'n' },
    { wait: 'command_end' },
  ],
  tail: 3,
};
