// Qwen Code 0.24 started and left alone: the banner, the input box, nothing asked of the model.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-idle-start',
  scenario: 'Start Qwen Code; the driver waits for the input box and types nothing; 10 s rest. IDLE throughout.',
  replies: [],
  steps: [READY, { wait: 10 }],
  tail: 0,
};
