// Codex 0.169 with termsupervisor's notify hook: one prompt, a short answer. Codex also asks the model for a task
// title on a thread of its own, and notify fires for that request too, while the turn still runs.
export default {
  name: 'codex-hooks-title',
  agent: 'codex',
  source: 'codex 0.169.0',
  scenario: 'Hooks installed (notify). Prompt; backend thinks 2.5 s, streams a short answer over ~1 s; Codex\'s own title request (thread_source thread_title) is answered at once and its notify lands while the turn runs; 6 s rest.',
  replies: [{ text: 'Hello! I am a fake model answering from a local backend for this recording.', thinkMs: 2500, chunks: 5, chunkMs: 200 }],
  steps: [
    { wait: 'screen', text: 'Ask Codex to do anything' },
    { wait: 1.5 },
    { type: 'say hello', enter: true },
    { wait: 'turn_end' },
  ],
  tail: 6,
};
