// Gemini CLI 0.61 with termsupervisor's hooks installed at 80x24: one turn, two shell commands in a row, each
// allowed once.
import { approveTwice } from './steps.mjs';

export default {
  name: 'gemini-hooks-two-approvals-80x24',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  cols: 80,
  rows: 24,
  scenario: 'Hooks installed, 80x24. Prompt; backend asks for run_shell_command `touch a.txt` -> confirmation; driver waits ~2 s and presses Enter on "1. Allow once"; the command runs; backend at once asks for `mkdir -p out` -> a second confirmation; driver waits ~2 s and presses Enter; backend answers over ~0.6 s; 6 s rest.',
  replies: [
    { call: 'touch a.txt', thinkMs: 1000 },
    { call: 'mkdir -p out', thinkMs: 600 },
    { text: 'Created a.txt and the out folder.', thinkMs: 600, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    ...approveTwice('make a.txt and out'),
  ],
  tail: 6,
};
