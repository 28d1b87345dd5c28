// Qwen Code 0.24 with its default retry settings: every request gets HTTP 500. It retries (the OpenAI client 3 times
// per attempt, Qwen's own backoff 7 attempts over ~75 s) with its spinner on, then gives up and shows
// `✕ [API Error: 500 …] (Press Ctrl+Y to retry)`. FAILED from the last error reply, not before.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-api-500',
  scenario: 'Prompt; the backend answers every request with HTTP 500 (after 100 ms); the CLI retries by itself for ~80 s and gives up; the driver waits until no request came for 45 s.',
  replies: [{ status: 500, times: 100, thinkMs: 100 }],
  steps: [READY, { wait: 1.5 }, { type: 'refactor utils.ts', enter: true }, { wait: 'request', n: 1 }, { wait: 'quiet', seconds: 45, timeout: 400 }],
  tail: 0,
};
