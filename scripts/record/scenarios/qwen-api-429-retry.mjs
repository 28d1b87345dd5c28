// Qwen Code 0.24 with its default retry settings: the first 6 requests of the turn get HTTP 429, the CLI retries by
// itself (spinner on, nothing new on screen for seconds), the 7th is answered. RUNNING until the answer: a quiet
// screen while it waits to retry is not the end of the turn.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-api-429-retry',
  scenario: 'Prompt; the backend answers the first 6 requests with HTTP 429 (after 100 ms), the 7th with a short answer; 6 s rest.',
  replies: [{ status: 429, times: 6, thinkMs: 100 }, { text: 'Done: utils.ts now exports one helper per file.', thinkMs: 800, chunks: 3, chunkMs: 200 }],
  steps: [READY, { wait: 1.5 }, { type: 'refactor utils.ts', enter: true }, { wait: 'turn_end', timeout: 200 }],
  tail: 6,
};
