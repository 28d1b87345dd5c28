// Scenarios for Grok CLI (@vibe-kit/grok-cli, an Ink app on the openai SDK's Chat Completions client, streamed, with
// function tools), recorded against scripts/record/agents/chat-backend.mjs into tests/fixtures/unseen/grok-<what>/:
// there is no profile for it: tests/corpus/unseen-agents.test.ts and generic-tier.test.ts score them as an agent never seen.
//   node scripts/record/agents/record-chat.mjs grok [what...]
// What it does, read from its source (dist/): reasoning_content deltas are not shown (the spinner row runs until the
// answer's text); a bash tool call asks "Do you want to proceed with this operation?" (1. Yes, 2. Yes, and don't ask
// again this session, 3. No, 4. No, with feedback; Enter picks, Up/Down move, Esc rejects); a rejected command goes
// back to the model as the tool's error and the CLI asks the model again (a request follows: the turn runs on); the
// openai SDK retries a 5xx twice after a back-off of ~0.5 s and ~1 s (no retry-after header), a 400 never; a failed
// request ends the turn with "Sorry, I encountered an error: Grok API error: ..." as the answer's text.
import { threeTurns } from './chat-agents.mjs';

const INPUT_BOX = 'auto-edit: off'; // the status row under the input box: the driver types once it is drawn (pacing only)

const ready = [{ wait: 'screen', text: INPUT_BOX, timeout: 40 }, { wait: 1.5 }];

/** @param {string} source  "grok-cli 0.0.34" */
export function grokScenarios(source) {
  const base = { agent: 'grok', source, hooks: false, folder: 'unseen' };
  const approval = {
    replies: [{ call: 'ls -la', thinkMs: 1000 }, { text: 'There are no files yet.', thinkMs: 600 }],
    steps: [...ready, { type: 'list the files', enter: true }, { wait: 'approval' }, { wait: 3 }, { answer: 'Enter' }, { wait: 'turn_end' }],
    tail: 5,
  };
  const list = [
    {
      what: 'idle',
      scenario: 'The CLI starts (its GROK banner, tips, the input box); nothing is typed for 10 s.',
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
      scenario:
        'One prompt; the backend streams reasoning_content deltas slowly for 8 s (long thinking), then the answer; 5 s rest. Grok CLI does not show reasoning: the screen has only its spinner row ("(Ns · ↑ N tokens · esc to interrupt)") until the answer.',
      replies: [{ reasoning: 'Let me think about this carefully. First I consider the question, then the context, then what the person most likely wants, and finally how to say it briefly.', reasoningMs: 8000, text: 'After some thought: the answer is 42.', thinkMs: 500, chunks: 4, chunkMs: 250 }],
      steps: [...ready, { type: 'think hard about it', enter: true }, { wait: 'turn_end', timeout: 40 }],
      tail: 5,
    },
    {
      what: 'approval',
      scenario: 'One prompt; the backend asks for the bash command `ls -la` -> "Do you want to proceed with this operation?"; the driver waits 3 s and presses Enter ("1. Yes"); the command runs; the backend answers; 5 s rest.',
      ...approval,
    },
    {
      what: 'approval-deny',
      scenario:
        'One prompt; the backend asks for `rm -rf build` -> approval question; the driver waits 3 s and picks "3. No" (Down, Down, Enter). Grok CLI hides its spinner at once but sends the refusal to the model as the tool\'s error and asks it again (a request follows the key): the turn runs on until that answer finished streaming (truth: the Enter is approval_dismissed, mapped to RUNNING); 6 s rest.',
      replies: [{ call: 'rm -rf build', thinkMs: 1000 }, { text: 'Understood, I will not delete it.', thinkMs: 600 }],
      steps: [...ready, { type: 'clean the build folder', enter: true }, { wait: 'approval' }, { wait: 3 }, { answer: ['Down', 'Down'], neutral: true }, { answer: 'Enter', deny: true }, { wait: 'turn_end' }, { wait: 6 }],
      tail: 0,
    },
    {
      what: 'api-500',
      scenario:
        'One prompt; the backend answers HTTP 500 to every request. The openai SDK inside Grok CLI retries twice after a short back-off (3 requests in all), then the CLI gives up and shows "Sorry, I encountered an error: Grok API error: 500 ..." as the answer (truth: turn_failed at the last error reply, no request after it); 8 s with no request, then the tail.',
      replies: [{ status: 500, message: 'Internal server error (scripted)', thinkMs: 300, times: 10 }],
      steps: [...ready, { type: 'say hello', enter: true }, { wait: 'request', n: 1 }, { wait: 'quiet', seconds: 8, timeout: 60 }],
      tail: 0,
    },
    {
      what: 'api-400',
      scenario: 'One prompt; the backend answers HTTP 400 (not retried): the CLI shows "Sorry, I encountered an error: Grok API error: 400 ..." as the answer, the turn is over (FAILED); 6 s rest.',
      replies: [{ status: 400, message: 'Invalid request: the model rejected the prompt (scripted)', thinkMs: 800 }],
      steps: [...ready, { type: 'say hello', enter: true }, { wait: 'request', n: 1 }, { wait: 'quiet', seconds: 6 }],
      tail: 0,
    },
    threeTurns(ready),
    {
      what: 'approval-80x24',
      cols: 80,
      rows: 24,
      scenario: 'At 80x24: one prompt; the backend asks for `ls -la` -> approval question; Enter ("1. Yes") after 3 s; the command runs; the answer; 5 s rest.',
      ...approval,
    },
  ];
  return list.map(({ what, ...sc }) => ({ ...base, name: `grok-${what}`, ...sc }));
}
