// Qwen Code 0.24 at 100x30: a long answer (24 lines, more than the screen) streamed over ~6.5 s.
import { QWEN, READY } from './qwen-base.mjs';
const TEXT = Array.from({ length: 24 }, (_, i) => `${i + 1}. Step ${i + 1} of the plan: check the inputs, write the change, and run the tests again. \n`).join('');
export default {
  ...QWEN,
  name: 'qwen-long-answer',
  cols: 100,
  rows: 30,
  scenario: 'At 100x30: prompt; after 0.8 s the backend streams a 24-line answer in 30 pieces 0.22 s apart (~6.5 s of text); 5 s rest.',
  replies: [{ text: TEXT, thinkMs: 800, chunks: 30, chunkMs: 220 }],
  steps: [READY, { wait: 1.5 }, { type: 'write a long plan', enter: true }, { wait: 'turn_end', timeout: 40 }],
  tail: 5,
};
