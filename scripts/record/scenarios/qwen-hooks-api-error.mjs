// Qwen Code 0.24 with termsupervisor's hooks installed: the backend refuses the request with HTTP 400 (an invalid
// request, which no client retries): the error block, StopFailure, the turn over (FAILED).
import { QWEN_HOOKS, READY } from './qwen-base.mjs';
export default {
  ...QWEN_HOOKS,
  name: 'qwen-hooks-api-error',
  scenario: 'Hooks installed. Prompt; the backend answers HTTP 400 (after 300 ms); the CLI shows the error; the driver waits until no request came for 10 s.',
  replies: [{ status: 400, times: 100, thinkMs: 300 }],
  steps: [READY, { wait: 1.5 }, { type: 'refactor utils.ts', enter: true }, { wait: 'request', n: 1 }, { wait: 'quiet', seconds: 10, timeout: 200 }],
  tail: 0,
};
