// Qwen Code 0.24 at 100x30: one turn in which the model asks for two shell commands in a row; the person allows each
// once (Enter on "1. Yes, allow once"); then the answer. Made after the profiles were tuned, to check they generalise.
import { QWEN, READY } from './qwen-base.mjs';
import { approveTwice } from './steps.mjs';
export default {
  ...QWEN,
  name: 'qwen-two-approvals',
  cols: 100,
  rows: 30,
  scenario: 'At 100x30: prompt; backend asks for run_shell_command `echo one > a.txt` -> Qwen asks; Enter after ~2 s; the command runs; backend asks for `echo two > b.txt` -> Qwen asks again; Enter after ~2 s; backend answers; 5 s rest.',
  replies: [
    { call: 'echo one > a.txt', thinkMs: 1000 },
    { call: 'echo two > b.txt', thinkMs: 800 },
    { text: 'I wrote a.txt and b.txt.', thinkMs: 700, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    READY,
    { wait: 1.5 },
    ...approveTwice('write two files'),
  ],
  tail: 5,
};
