// Qwen Code 0.24: every request gets HTTP 429 (rate limit). The OpenAI client's own retries are off
// (model.generationConfig.maxRetries 0) so the recording stays near a minute; Qwen's backoff retries with the spinner
// on, then gives up and shows the error. FAILED from the last error reply, not before.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-api-429',
  settings: { model: { name: 'fake-model', generationConfig: { maxRetries: 0 } } },
  scenario: 'model.generationConfig.maxRetries 0. Prompt; the backend answers every request with HTTP 429 (after 100 ms); the CLI retries by itself and gives up; the driver waits until no request came for 45 s.',
  replies: [{ status: 429, times: 100, thinkMs: 100 }],
  steps: [READY, { wait: 1.5 }, { type: 'refactor utils.ts', enter: true }, { wait: 'request', n: 1 }, { wait: 'quiet', seconds: 45, timeout: 400 }],
  tail: 0,
};
