// Qwen Code 0.24: a long answer streams slowly; the person presses Esc ("esc to cancel") 5 s into the stream. The
// CLI aborts the request and the turn ends (DONE at the Esc, as the corpus's claude-interrupt).
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-interrupt',
  scenario: 'Prompt; the backend streams a long answer in 40 chunks 1 s apart; the driver presses Esc ~5 s after the request arrived; 8 s rest.',
  replies: [
    {
      thinkMs: 800,
      text: Array.from({ length: 40 }, (_, i) => `Step ${i + 1} of the migration plan checks one more table.`).join(' '),
      chunks: 40,
      chunkMs: 1000,
    },
  ],
  steps: [READY, { wait: 1.5 }, { type: 'plan the migration', enter: true }, { wait: 'request', n: 1 }, { wait: 5 }, { press: 'Esc', interrupt: true }],
  tail: 8,
};
