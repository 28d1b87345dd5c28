// Scenarios for agent CLIs that take an OpenAI-compatible Chat Completions endpoint (opencode and its fork Kilo Code
// CLI), recorded against scripts/record/agents/chat-backend.mjs into tests/fixtures/recordings/<agent>-<what>/ (both
// have a profile now: the suite scores them with the other recordings).
//   node scripts/record/agents/record-chat.mjs opencode [--hooks] [what...]
const INPUT_BOX = 'Fake Model'; // the input box's model line: the driver types once it is drawn (pacing only)

/** Rejecting the command: opencode takes Enter on "Reject" as the answer; Kilo then asks "Tell Kilo what to do
 * differently" (enter confirm, esc cancel) and the answer is the Enter that confirms it (empty). */
const DENY = {
  opencode: [{ answer: ['Right', 'Right', 'Enter'], deny: true }],
  kilo: [{ answer: ['Right', 'Right', 'Enter'], neutral: true }, { wait: 2 }, { answer: 'Enter', deny: true }],
};

const ready = [{ wait: 'screen', text: INPUT_BOX, timeout: 40 }, { wait: 1.5 }];

/** @param {string} agent  opencode | kilo;  @param {string} source  "opencode 1.18.33" */
export function chatScenarios(agent, source) {
  const base = { agent, source, hooks: false, folder: 'recordings' };
  const list = [
    {
      what: 'idle',
      scenario: 'The CLI starts and shows its input box; nothing is typed for 10 s.',
      replies: [],
      steps: [...ready, { wait: 10 }],
      tail: 0,
    },
    {
      what: 'quick',
      scenario: 'One prompt; the backend answers in 0.8 s with a short text in 3 chunks; 5 s rest.',
      replies: [{ text: 'Hello! This is a quick answer from the fake model.', thinkMs: 800 }],
      steps: [...ready, { type: 'say hello', enter: true }, { wait: 'turn_end' }],
      tail: 5,
    },
    {
      what: 'thinking',
      scenario: 'One prompt; the backend streams reasoning_content deltas slowly for 8 s (long thinking), then the answer; 5 s rest.',
      replies: [{ reasoning: 'Let me think about this carefully. First I consider the question, then the context, then what the person most likely wants, and finally how to say it briefly.', reasoningMs: 8000, text: 'After some thought: the answer is 42.', thinkMs: 500, chunks: 4, chunkMs: 250 }],
      steps: [...ready, { type: 'think hard about it', enter: true }, { wait: 'turn_end', timeout: 40 }],
      tail: 5,
    },
    {
      what: 'approval',
      scenario: 'One prompt; the backend asks for the shell command `ls -la` (permission bash: ask) -> approval question; the driver waits 3 s and presses Enter ("Allow once"); the command runs; the backend answers; 5 s rest.',
      replies: [{ call: 'ls -la', thinkMs: 1000 }, { text: 'There are no files yet.', thinkMs: 600 }],
      steps: [...ready, { type: 'list the files', enter: true }, { wait: 'approval' }, { wait: 3 }, { answer: 'Enter' }, { wait: 'turn_end' }],
      tail: 5,
    },
    {
      what: 'approval-deny',
      scenario:
        agent === 'kilo'
          ? 'One prompt; the backend asks for `rm -rf build` -> approval question; the driver waits 3 s and picks "Reject" (Right, Right, Enter), which opens "Tell Kilo what to do differently"; 2 s later Enter confirms with no text; 6 s rest.'
          : 'One prompt; the backend asks for `rm -rf build` -> approval question; the driver waits 3 s and picks "Reject" (Right, Right, Enter); the CLI drops the command and ends the turn; 6 s rest.',
      replies: [{ call: 'rm -rf build', thinkMs: 1000 }, { text: 'Understood, I will not delete it.', thinkMs: 600 }],
      steps: [...ready, { type: 'clean the build folder', enter: true }, { wait: 'approval' }, { wait: 3 }, ...DENY[agent], { wait: 6 }],
      tail: 0,
    },
    {
      what: 'api-error',
      scenario: 'One prompt; the backend answers HTTP 400 (not retried): the turn ends with the error on screen; 6 s rest.',
      replies: [{ status: 400, message: 'Invalid request: the model rejected the prompt (scripted)', thinkMs: 800 }],
      // the CLI does not retry a 400: no request comes after it (agent-truth.mjs makes it the turn's failure)
      steps: [...ready, { type: 'say hello', enter: true }, { wait: 'request', n: 1 }, { wait: 'quiet', seconds: 6 }],
      tail: 0,
    },
    {
      what: 'api-retry',
      scenario: 'One prompt; the backend answers HTTP 429, then HTTP 500 (the CLI retries each after a back-off, saying so), then the answer; 5 s rest.',
      replies: [{ status: 429, message: 'Rate limit reached (scripted)', thinkMs: 500 }, { status: 500, message: 'Internal server error (scripted)', thinkMs: 300 }, { text: 'Answer after the retries.', thinkMs: 500 }],
      steps: [...ready, { type: 'say hello', enter: true }, { wait: 'turn_end', timeout: 40 }],
      tail: 5,
    },
    threeTurns(ready),
    {
      what: 'interrupt',
      scenario: 'One prompt; the backend streams reasoning slowly (20 s); 4 s after the request the driver presses Esc twice (the first arms "esc again to interrupt", the second interrupts); 6 s rest.',
      replies: [{ reasoning: 'Thinking step by step about a long and winding problem that takes a good while to work through, considering every angle there is and then some more angles after those, slowly.', reasoningMs: 20000, text: 'Never shown.', thinkMs: 300 }],
      steps: [...ready, { type: 'think for a long time', enter: true }, { wait: 'request', n: 1 }, { wait: 4 }, { press: ['Esc', 'Esc'], interrupt: true }, { wait: 6 }],
      tail: 0,
    },
    {
      what: 'approval-80x24',
      cols: 80,
      rows: 24,
      scenario: 'At 80x24: one prompt; the backend asks for `ls -la` -> approval question; Enter after 3 s; the command runs; the answer; 5 s rest.',
      replies: [{ call: 'ls -la', thinkMs: 1000 }, { text: 'There are no files yet.', thinkMs: 600 }],
      steps: [...ready, { type: 'list the files', enter: true }, { wait: 'approval' }, { wait: 3 }, { answer: 'Enter' }, { wait: 'turn_end' }],
      tail: 5,
    },
  ];
  return list.map(({ what, ...sc }) => ({ ...base, name: `${agent}-${what}`, ...sc }));
}

/** The same sessions with termsupervisor's plugin installed (`hooks install opencode|kilo`): each plugin call is an
 * "h" event in the cast, in tests/fixtures/recordings/<agent>-hooks-<what>/. */
export const HOOK_WHATS = ['quick', 'approval', 'approval-deny', 'api-error', 'interrupt', 'api-retry'];

export function chatHookScenarios(agent, source) {
  return chatScenarios(agent, source)
    .filter((sc) => HOOK_WHATS.includes(sc.name.slice(agent.length + 1)))
    .map((sc) => ({ ...sc, name: `${agent}-hooks-${sc.name.slice(agent.length + 1)}`, hooks: true, folder: 'recordings' }));
}

/** Three prompts, each typed 3 s after the previous answer finished (shared by the chat agents' scenario lists). */
export function threeTurns(ready) {
  return {
    what: 'turns',
    scenario: 'Three prompts, each typed 3 s after the previous answer finished; answers of 0.6-2 s; 5 s rest.',
    replies: [
      { text: 'First answer.', thinkMs: 600 },
      { text: 'Second answer, a little longer than the first one, streamed in pieces.', thinkMs: 1200, chunks: 5, chunkMs: 200 },
      { text: 'Third and last answer.', thinkMs: 800 },
    ],
    steps: [
      ...ready,
      { type: 'first question', enter: true },
      { wait: 'turn_end', n: 1 },
      { wait: 3 },
      { type: 'second question', enter: true },
      { wait: 'turn_end', n: 2 },
      { wait: 3 },
      { type: 'third question', enter: true },
      { wait: 'turn_end', n: 3 },
    ],
    tail: 5,
  };
}
