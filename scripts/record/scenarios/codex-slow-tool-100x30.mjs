// Codex 0.169 without hooks at 100x30: the model runs a command inside the sandbox (no approval asked) that itself
// takes ~4 s printing nothing until its end; then the answer.
export default {
  name: 'codex-slow-tool-100x30',
  agent: 'codex',
  source: 'codex 0.169.0',
  hooks: false,
  cols: 100,
  rows: 30,
  scenario: 'No hooks, 100x30. Prompt; backend asks for `sleep 4 && echo ready` inside the sandbox (no escalation: no question); the command runs ~4 s; backend gets its output and answers over ~1 s; 6 s rest.',
  replies: [
    { call: 'sleep 4 && echo ready', thinkMs: 800 },
    { text: 'The service is ready now.', thinkMs: 600, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Ask Codex to do anything' },
    { wait: 1.5 },
    { type: 'wait for the service', enter: true },
    { wait: 'turn_end' },
  ],
  tail: 6,
};
