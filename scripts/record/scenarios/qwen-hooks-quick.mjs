// Qwen Code 0.24 with termsupervisor's hooks installed: one prompt, a short answer (UserPromptSubmit … Stop).
import { QWEN_HOOKS, READY } from './qwen-base.mjs';
export default {
  ...QWEN_HOOKS,
  name: 'qwen-hooks-quick',
  scenario: 'Hooks installed. Prompt; the backend answers in 3 chunks over ~1.1 s; 6 s rest.',
  replies: [{ text: 'The capital of France is Paris.', thinkMs: 700, chunks: 3, chunkMs: 200 }],
  steps: [READY, { wait: 1.5 }, { type: 'capital of france?', enter: true }, { wait: 'turn_end' }],
  tail: 6,
};
