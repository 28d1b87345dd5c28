// Gemini CLI 0.61 with termsupervisor's hooks installed: the backend refuses the request with HTTP 400 (an invalid
// request, which the CLI does not retry): it shows `✕ [API Error: …]`, and AfterAgent fires all the same.
export default {
  name: 'gemini-hooks-api-error-400',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  scenario: 'Hooks installed (BeforeAgent, AfterAgent, Notification, SessionStart, SessionEnd). Prompt; the backend answers HTTP 400 INVALID_ARGUMENT (after 500 ms) to every conversation request; the CLI shows the error; the driver waits until no request came for 10 s. Truth: FAILED at the last error the backend sent.',
  replies: [{ status: 400, times: 20, thinkMs: 500, message: 'Request contains an invalid argument.' }],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'refactor utils.ts', enter: true },
    { wait: 'request', n: 1 },
    { wait: 'quiet', seconds: 10, timeout: 120 },
  ],
  tail: 0,
};
