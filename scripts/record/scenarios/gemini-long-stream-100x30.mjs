// Gemini CLI 0.61 without hooks at 100x30: a long answer (more lines than the screen) streamed over ~7 s.
const LONG = Array.from({ length: 40 }, (_, i) => `${i + 1}. Step ${i + 1} of the plan: check the inputs, write the change, run the tests.`).join('\n');
export default {
  name: 'gemini-long-stream-100x30',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  hooks: false,
  cols: 100,
  rows: 30,
  scenario: 'No hooks, 100x30. Prompt; backend thinks ~0.8 s and streams a 40-line answer in 35 chunks 200 ms apart (~7 s); 6 s rest.',
  replies: [{ text: LONG, thinkMs: 800, chunks: 35, chunkMs: 200 }],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'write a long plan', enter: true },
    { wait: 'turn_end' },
  ],
  tail: 6,
};
