// Qwen Code 0.24: one prompt, a short answer streamed in about a second.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-quick-answer',
  scenario: 'Prompt; the backend answers in 3 chunks over ~1.1 s; 6 s rest.',
  replies: [{ text: 'The capital of France is Paris.', thinkMs: 700, chunks: 3, chunkMs: 200 }],
  steps: [READY, { wait: 1.5 }, { type: 'capital of france?', enter: true }, { wait: 'turn_end' }],
  tail: 6,
};
