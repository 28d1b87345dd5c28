// Gemini CLI 0.61 with termsupervisor's hooks installed: the model repeats one sentence until the CLI's loop
// detection halts the request and asks whether to keep loop detection on; the person keeps it (Enter on option 1).
// The CLI then leaves an info line "A potential loop was detected. … The request has been halted." in the history.
const SENTENCE = 'I will read the configuration file once more to be completely sure of it. ';
export default {
  name: 'gemini-hooks-loop-detected',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  scenario: 'Hooks installed (BeforeAgent, AfterAgent, Notification, SessionStart, SessionEnd). Prompt; the backend answers one sentence 40 times over (one chunk, after 0.8 s); the loop detection of the CLI sends the model a recovery note by itself; the backend answers the same again; the CLI halts the request and asks "A potential loop was detected" (keep / disable loop detection); the driver waits ~3 s and presses Enter on "Keep loop detection enabled": the request stays halted, the turn is over; the CLI leaves an info line saying so; 8 s rest.',
  replies: [
    { text: SENTENCE.repeat(40), loop: 'recover', thinkMs: 800, chunks: 1 },
    { text: SENTENCE.repeat(40), loop: 'ask', thinkMs: 800, chunks: 1 },
  ],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'check the config', enter: true },
    { wait: 'approval' },
    { wait: 'screen', text: 'Keep loop detection enabled' },
    { wait: 3 },
    { answer: 'Enter', deny: true },
    { wait: 8 },
  ],
  tail: 0,
};
