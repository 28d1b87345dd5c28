// Gemini CLI 0.61 with termsupervisor's hooks installed: one prompt, a short answer, then /quit (issue 12 item 9:
// /quit must not make a RUNNING -> DONE before SessionEnd's IDLE).
export default {
  name: 'gemini-hooks-quit',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  scenario: 'Hooks installed (BeforeAgent, AfterAgent, Notification, SessionStart, SessionEnd). Prompt; backend thinks 2 s, streams a short answer over ~1 s; 7 s later the driver types /quit and Enter; the CLI prints its session summary and exits.',
  replies: [{ text: 'Hello! I am a fake model answering from a local backend for this recording.', thinkMs: 2000, chunks: 5, chunkMs: 200 }],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'say hello', enter: true },
    { wait: 'turn_end' },
    { wait: 7 },
    { type: '/quit', enter: true, command: true, ends: true },
    { wait: 'exit', timeout: 10 },
  ],
  tail: 0.5,
};
