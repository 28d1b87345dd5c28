// Codex 0.169 with notify installed: the model asks to run a command outside the sandbox, the person approves it
// (Enter on "1. Yes, proceed"); the command runs, the model answers. The title request's notify lands ~0.1 s in.
export default {
  name: 'codex-hooks-approval',
  agent: 'codex',
  source: 'codex 0.169.0',
  scenario: 'Hooks installed (notify). Prompt; backend asks for `ls -la` with sandbox_permissions=require_escalated (approval_policy on-request) -> approval question; driver waits ~3 s and presses Enter; the command runs; backend gets its output and answers over ~1 s; 6 s rest.',
  replies: [
    { call: 'ls -la', escalate: true, justification: 'List the files?', thinkMs: 1200 },
    { text: 'There are no files yet.', thinkMs: 800, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Ask Codex to do anything' },
    { wait: 1.5 },
    { type: 'list the files', enter: true },
    { wait: 'approval' },
    { wait: 3 },
    { answer: 'Enter' },
    { wait: 'turn_end' },
  ],
  tail: 6,
};
