// Qwen Code 0.24: the model thinks for ~14 s (reasoning_content streamed slowly, no answer text yet), then answers.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-long-thinking',
  scenario: 'Prompt; 2 s to first byte, then 8 reasoning_content chunks 1.6 s apart (~11 s of thinking), then the answer in 3 chunks; 6 s rest.',
  replies: [
    {
      thinkMs: 2000,
      reasoning: 'Let me think about this carefully. The list has five numbers. Sorting them first makes the median easy. After sorting the middle one is the answer. I should double check the order once more before I answer.',
      reasoningChunks: 8,
      reasoningChunkMs: 1600,
      text: 'The median of 3, 9, 1, 7, 5 is 5.',
      chunks: 3,
      chunkMs: 200,
    },
  ],
  steps: [READY, { wait: 1.5 }, { type: 'median of 3 9 1 7 5?', enter: true }, { wait: 'turn_end' }],
  tail: 6,
};
