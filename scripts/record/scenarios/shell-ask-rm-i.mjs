// rm -i asks before removing: `rm: remove regular file 'old.log'? ` with the cursor after it.
export default {
  name: 'shell-ask-rm-i',
  scenario: "bash without shell integration: `ls`, then `rm -i old.log` (question answered y after 3 s), `ls` again",
  setup: ['printf "log line\\n" > old.log', 'touch notes.txt'],
  steps: [
    { wait: 2 },
    { type: 'ls', enter: true },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'rm -i old.log', enter: true },
    { wait: 'blocked', means: 'question' },
    { wait: 3 },
    { answer: 'y' },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'ls', enter: true },
    { wait: 'command_end' },
  ],
  tail: 3,
};
