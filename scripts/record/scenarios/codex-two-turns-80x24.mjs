// Codex 0.169 without hooks at 80x24: two quick turns back to back (the second prompt typed ~1 s after the first
// answer finished streaming).
export default {
  name: 'codex-two-turns-80x24',
  agent: 'codex',
  source: 'codex 0.169.0',
  hooks: false,
  cols: 80,
  rows: 24,
  scenario: 'No hooks, 80x24. Prompt; backend answers over ~0.6 s; ~1 s later the driver types a second prompt and Enter; backend answers over ~0.6 s; 6 s rest.',
  replies: [
    { text: 'Two plus two is four.', thinkMs: 600, chunks: 3, chunkMs: 200 },
    { text: 'And three plus three is six.', thinkMs: 600, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Ask Codex to do anything' },
    { wait: 1.5 },
    { type: 'what is 2+2', enter: true },
    { wait: 'turn_end' },
    { wait: 1 },
    { type: 'and 3+3', enter: true },
    { wait: 'turn_end', n: 2 },
  ],
  tail: 6,
};
