// Qwen Code 0.24: three turns in a row, the person reading a few seconds between them.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-multi-turn',
  scenario: 'Three prompts, each answered by the backend in ~1-3 s; the driver types the next one 3-4 s after each turn ends; 6 s rest.',
  replies: [
    { text: 'Hello! How can I help you today?', thinkMs: 600, chunks: 2, chunkMs: 200 },
    { text: 'A closure is a function that keeps access to the variables of the scope it was created in, even after that scope has returned.', thinkMs: 1500, chunks: 6, chunkMs: 250 },
    { text: 'You are welcome.', thinkMs: 500, chunks: 1 },
  ],
  steps: [
    READY,
    { wait: 1.5 },
    { type: 'hello', enter: true },
    { wait: 'turn_end', n: 1 },
    { wait: 3 },
    { type: 'what is a closure?', enter: true },
    { wait: 'turn_end', n: 2 },
    { wait: 4 },
    { type: 'thanks', enter: true },
    { wait: 'turn_end', n: 3 },
  ],
  tail: 6,
};
