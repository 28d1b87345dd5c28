// Qwen Code 0.24 in its default approval mode: the model asks to run a shell command, the person allows it once
// (Enter on "1. Yes, allow once"); the command runs, the model answers.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-approval',
  scenario: 'Prompt; backend asks for run_shell_command `echo hi > hello.txt` -> Qwen asks "Allow execution of: \'echo\'?"; driver waits ~3 s and presses Enter; the command runs; backend gets its output and answers over ~1 s; 6 s rest.',
  replies: [
    { call: 'echo hi > hello.txt', thinkMs: 1200 },
    { text: 'I wrote hi to hello.txt.', thinkMs: 800, chunks: 3, chunkMs: 200 },
  ],
  steps: [READY, { wait: 1.5 }, { type: 'write hello.txt', enter: true }, { wait: 'approval' }, { wait: 3 }, { answer: 'Enter' }, { wait: 'turn_end' }],
  tail: 6,
};
