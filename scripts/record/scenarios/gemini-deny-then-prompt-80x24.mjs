// Gemini CLI 0.61 without hooks at 80x24: the person presses Esc at the confirmation (the turn ends) and types a
// second prompt right away, which the model answers.
export default {
  name: 'gemini-deny-then-prompt-80x24',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  hooks: false,
  cols: 80,
  rows: 24,
  scenario: 'No hooks, 80x24. Prompt; backend asks for run_shell_command `echo hi > hello.txt` -> the CLI asks for confirmation; driver waits ~2 s and presses Esc (the turn ends); ~0.8 s later types a second prompt and Enter; backend answers over ~0.6 s; 6 s rest.',
  replies: [
    { call: 'echo hi > hello.txt', thinkMs: 1000 },
    { text: 'All right, I will leave the files alone.', thinkMs: 600, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'write hello.txt', enter: true },
    { wait: 'approval' },
    { wait: 2 },
    { press: 'Esc', dismiss: true },
    { wait: 0.8 },
    { type: 'leave the files', enter: true },
    { wait: 'turn_end' },
  ],
  tail: 6,
};
