// Gemini CLI 0.61 with termsupervisor's hooks installed: a turn that fails with HTTP 400 (its error stays on screen),
// then a turn that succeeds: the second turn's end is DONE, the first turn's error above it notwithstanding.
export default {
  name: 'gemini-hooks-api-error-then-ok',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  scenario: 'Hooks installed (BeforeAgent, AfterAgent, Notification, SessionStart, SessionEnd). Prompt; the backend answers HTTP 400 INVALID_ARGUMENT (after 500 ms): the CLI shows the error; 5 s later a second prompt, which the backend answers over ~1 s (the first error still on screen above it); 6 s rest.',
  replies: [
    { status: 400, times: 1, thinkMs: 500, message: 'Request contains an invalid argument.' },
    { text: 'Here is the refactored utils.ts, with the helpers split in two.', thinkMs: 800, chunks: 3, chunkMs: 250 },
  ],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'refactor utils.ts', enter: true },
    { wait: 'quiet', seconds: 5, timeout: 60 },
    { type: 'try again', enter: true },
    { wait: 'turn_end' },
  ],
  tail: 6,
};
