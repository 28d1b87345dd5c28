// The scenarios scripts/record/claude/record.mjs records: what the fake backend answers to each of the conversation's
// requests, what the driver types and when, and the truth's segments built from the clocks' events.
// drive({s, backend, ev, sleep, hooks}) returns segments(duration) -> [{start, end, state}]. A scenario with a
// `plainName` is also recorded without hooks (--no-hooks), under that name.

/** Resolves with the backend's mark of `kind` (for request `index`, if given) once it has happened. */
async function backendMark(backend, kind, index, timeoutS = 60) {
  const until = Date.now() + timeoutS * 1000;
  for (;;) {
    const m = backend.marks.find((x) => x.kind === kind && (index === undefined || x.index === index));
    if (m) return m;
    if (Date.now() > until) throw new Error(`the backend never saw ${kind} ${index ?? ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Types a prompt and submits it; returns the time of Enter. */
async function submit(s, text, sleep) {
  await s.type(text);
  await sleep(300);
  return s.press('\r');
}

const APPROVAL_TOOL = { tool: 'Bash', input: { command: 'touch hello.txt && echo created', description: 'Create hello.txt' } };

/** The first hook call of `event` once the shim has kept it. */
async function hookCall(hooks, event, after = 0, timeoutS = 30) {
  const until = Date.now() + timeoutS * 1000;
  for (;;) {
    const h = hooks().find((x) => x.event === event && x.t >= after);
    if (h) return h;
    if (Date.now() > until) throw new Error(`no ${event} hook call`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function seg(list, duration) {
  const out = [];
  for (let i = 0; i < list.length; i++) out.push({ start: list[i][0], end: i + 1 < list.length ? list[i + 1][0] : duration, state: list[i][1] });
  return out;
}

const APPROVAL_REPLIES = [
  { blocks: [{ text: 'I will create the file.', seconds: 0.6 }, APPROVAL_TOOL] },
  { blocks: [{ text: 'Created hello.txt for you.', seconds: 1.0 }] },
];

/** Prompt, then the backend's tool_use and the approval menu on screen: returns [prompt time, tool_use time]. */
async function toApproval({ s, backend, ev, sleep }) {
  const t0 = await submit(s, 'create hello.txt', sleep);
  ev(t0, 'prompt_submitted');
  const ask = await backendMark(backend, 'tool_use_sent', 0);
  ev(ask.t, 'approval_requested', { tool: 'Bash', command: APPROVAL_TOOL.input.command });
  await s.waitFor(/Do you want to proceed\?/, { what: 'the approval menu' });
  return [t0, ask.t];
}

/** The approval approved with Enter on `1. Yes` at `when()`, then the final answer and a rest. */
async function approveAt({ s, backend, ev, sleep }, t0, ask, when) {
  await when();
  const t1 = s.press('\r');
  ev(t1, 'approval_given');
  const ran = await backendMark(backend, 'main_request', 1);
  ev(ran.t, 'tool_result_received', { detail: ran.last });
  const fin = await backendMark(backend, 'final_answer_sent', 1);
  ev(fin.t, 'turn_complete');
  await sleep(7000);
  return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [ask, 'WAITING_APPROVAL'], [t1, 'RUNNING'], [fin.t, 'DONE']], d);
}

/** The approval dismissed with `key` after ~3 s: the turn ends there (interrupted). (Ctrl-C does not dismiss
 * Claude Code 2.1.331's approval menu: nothing changes on screen, so it has no scenario.) */
function dismissWith(key, label) {
  return async (ctx) => {
    const { s, ev, sleep } = ctx;
    const [t0, ask] = await toApproval(ctx);
    await sleep(3000);
    const t1 = s.press(key);
    ev(t1, 'approval_dismissed', { key: label });
    ev(t1, 'turn_interrupted');
    await s.waitFor(/Interrupted · What should Claude do instead\?/, { what: 'the interrupted line' });
    await sleep(7000);
    return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [ask, 'WAITING_APPROVAL'], [t1, 'DONE']], d);
  };
}

/** A prompt every request of which the backend refuses with HTTP `status`: FAILED at the last error the backend sent
 * (the CLI's own retries are requests after an error), once no request came for 8 s. */
function failingTurn(status) {
  return async ({ s, backend, ev, sleep }) => {
    const t0 = await submit(s, 'refactor utils.ts', sleep);
    ev(t0, 'prompt_submitted');
    await backendMark(backend, 'api_error', 0, 120);
    for (;;) {
      const errs = backend.marks.filter((m) => m.kind === 'api_error');
      const last = errs[errs.length - 1];
      const newer = backend.marks.some((m) => m.kind === 'main_request' && m.t > last.t);
      if (!newer && s.clock() - last.t >= 8) break;
      await sleep(200);
    }
    const errs = backend.marks.filter((m) => m.kind === 'api_error');
    const fail = errs[errs.length - 1];
    ev(fail.t, 'turn_failed', { status, errors: errs.length, source: 'backend: the last HTTP error reply was sent' });
    await sleep(2000);
    return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [fail.t, 'FAILED']], d);
  };
}

const LONG_ANSWER = Array.from({ length: 36 }, (_, i) => `${i + 1}. Step ${i + 1} of the plan: check the inputs, write the change, run the tests.`).join('\n');

export const SCENARIOS = {
  approve: {
    text: 'The backend asks for Bash `touch hello.txt && echo created` (approval in manual mode); the driver waits ~3 s at the menu and presses Enter on `1. Yes`; the tool runs; the backend streams the final text; rest.',
    replies: APPROVAL_REPLIES,
    async drive(ctx) {
      const [t0, ask] = await toApproval(ctx);
      return approveAt(ctx, t0, ask, () => ctx.sleep(3000));
    },
  },
  'approve-notified': {
    text: "As claude-hooks-approve, but the person approves (Enter on `1. Yes`) just after Claude Code's `permission_prompt` Notification hook ran (~6 s after the menu appeared): the reminder lands as the menu is answered.",
    replies: APPROVAL_REPLIES,
    async drive(ctx) {
      const [t0, ask] = await toApproval(ctx);
      return approveAt(ctx, t0, ask, async () => {
        const n = await hookCall(ctx.hooks, 'Notification', ask);
        await ctx.sleep(Math.max(0, (n.t + 0.1 - ctx.s.clock()) * 1000));
      });
    },
  },
  esc: {
    plainName: 'claude-approval-esc',
    text: 'The backend asks for Bash `touch hello.txt && echo created`; the driver waits ~3 s at the approval menu and presses Esc: the CLI shows `⎿ Interrupted · What should Claude do instead?` above its input box. Truth after Esc: DONE (an interrupted turn); no Stop hook fires.',
    replies: APPROVAL_REPLIES,
    drive: dismissWith('\x1b', 'Esc'),
  },
  queued: {
    plainName: 'claude-queued-message',
    text: 'A first prompt thinks for ~6 s (slow thinking stream) and answers; 2 s into it the driver types a second message and Enter: the CLI queues it (`⎿ Queued`) and sends it by itself when the first turn ends; the backend answers it; rest. One unbroken stretch of work: no finish between the two.',
    replies: [
      { blocks: [{ thinking: 'Let me think about this carefully. '.repeat(20), seconds: 6 }, { text: 'Here is the first answer, in a few words.', seconds: 1.0 }] },
      { blocks: [{ text: 'And here is the answer to the second question.', seconds: 1.5 }] },
    ],
    async drive({ s, backend, ev, sleep }) {
      const t0 = await submit(s, 'first question', sleep);
      ev(t0, 'prompt_submitted');
      await sleep(2000);
      const tq = await submit(s, 'second question', sleep);
      ev(tq, 'message_queued');
      const f0 = await backendMark(backend, 'final_answer_sent', 0);
      ev(f0.t, 'queued_turn_follows', { note: 'first answer streamed; the CLI sends the queued message at once' });
      const r1 = await backendMark(backend, 'main_request', 1);
      ev(r1.t, 'queued_message_sent', { detail: r1.last });
      const fin = await backendMark(backend, 'final_answer_sent', 1);
      ev(fin.t, 'turn_complete');
      await sleep(7000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [fin.t, 'DONE']], d);
    },
  },
  'queued-midturn': {
    text: 'A first prompt: the backend streams slowly (~5 s), then calls a read-only tool (`ls`, no approval asked); 1.5 s in, the driver types a second message and Enter (queued). The CLI takes the queued message into the same turn (it rides along with the tool result) and the backend answers both at once: one turn, one finish.',
    replies: [
      { blocks: [{ thinking: 'I should look at the folder first. '.repeat(12), seconds: 4 }, { text: 'Let me list the files.', seconds: 0.8 }, { tool: 'Bash', input: { command: 'ls', description: 'List files' } }] },
      { blocks: [{ text: 'The folder is empty, and here is the answer to your second question too.', seconds: 1.5 }] },
      { blocks: [{ text: 'Nothing more to add.', seconds: 0.5 }] },
    ],
    async drive({ s, backend, ev, sleep }) {
      const t0 = await submit(s, 'what is in this folder', sleep);
      ev(t0, 'prompt_submitted');
      await sleep(1500);
      const tq = await submit(s, 'and why', sleep);
      ev(tq, 'message_queued');
      const r1 = await backendMark(backend, 'main_request', 1);
      ev(r1.t, 'tool_result_received', { detail: r1.last });
      const fin = await backendMark(backend, 'final_answer_sent', 1);
      // A third request would be the queued message sent as a turn of its own: then the turn ends with its answer.
      await sleep(3000);
      const r2 = backend.marks.find((m) => m.kind === 'final_answer_sent' && m.index === 2);
      const end = r2 ?? fin;
      ev(end.t, 'turn_complete', { requests: backend.marks.filter((m) => m.kind === 'main_request').length });
      await sleep(5000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [end.t, 'DONE']], d);
    },
  },
  exit: {
    plainName: 'claude-exit-command',
    text: 'The CLI runs from a shell (`bash -c "claude …; exec bash"`, as in a tmux pane). A quick answer, ~8 s at rest, then `/exit` and Enter: the CLI ends its session (SessionEnd) and exits; the shell prompt comes back; rest. At rest from the answer on: /exit is no turn.',
    thenShell: true,
    replies: [{ blocks: [{ text: 'Hello! How can I help you today?', seconds: 1.2 }] }],
    async drive({ s, backend, ev, sleep }) {
      const t0 = await submit(s, 'hello', sleep);
      ev(t0, 'prompt_submitted');
      const fin = await backendMark(backend, 'final_answer_sent', 0);
      ev(fin.t, 'turn_complete');
      await sleep(8000);
      const tx = await submit(s, '/exit', sleep);
      ev(tx, 'exit_command');
      await s.waitFor(/^\$ ?$/, { what: 'the shell prompt after /exit', timeoutS: 10 });
      await sleep(6000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [fin.t, 'DONE'], [tx, 'IDLE']], d);
    },
  },
  quick: {
    text: 'One prompt; the backend streams a short text answer over ~2 s; rest at the prompt.',
    replies: [{ blocks: [{ text: 'The capital of France is Paris. It has been the capital for centuries.', seconds: 2.0 }] }],
    async drive({ s, backend, ev, sleep }) {
      const t0 = await submit(s, 'what is the capital of France', sleep);
      ev(t0, 'prompt_submitted');
      const fin = await backendMark(backend, 'final_answer_sent', 0);
      ev(fin.t, 'turn_complete');
      await sleep(8000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [fin.t, 'DONE']], d);
    },
  },
  'api-error': {
    text: 'One prompt; the backend answers every conversation request with HTTP 400 (invalid_request_error, after 0.5 s); the CLI retries it without a word on screen (six requests in all), then shows `● API Error: 400 …` and the turn is over; the driver waits until no request came for 8 s. Truth: FAILED at the last error the backend sent (no Stop hook fires).',
    replies: Array.from({ length: 20 }, () => ({ status: 400, message: 'messages.0.content: scripted invalid request', delayMs: 500 })),
    drive: failingTurn(400),
  },
  'api-error-500': {
    env: { CLAUDE_CODE_MAX_RETRIES: '3' },
    text: 'With `CLAUDE_CODE_MAX_RETRIES=3`. One prompt; the backend answers every conversation request with HTTP 500 (api_error, after 0.3 s); the CLI retries, showing its retry status row, until it gives up and shows the error; the driver waits until no request came for 8 s. Truth: FAILED at the last error the backend sent (no Stop hook fires).',
    replies: Array.from({ length: 40 }, () => ({ status: 500, message: 'Internal server error', delayMs: 300 })),
    drive: failingTurn(500),
  },
  'two-approvals': {
    plainName: 'claude-two-approvals-100x30',
    plainOnly: true,
    cols: 100,
    rows: 30,
    text: 'At 100x30. One turn with two Bash approvals in a row: the backend asks for `touch a.txt`, the driver approves it with Enter after ~2 s; the tool runs; the backend asks for `mkdir -p out` at once, the driver approves it after ~2 s; the tool runs; the backend streams the final text; rest.',
    replies: [
      { blocks: [{ text: 'First I will create a.txt.', seconds: 0.6 }, { tool: 'Bash', input: { command: 'touch a.txt', description: 'Create a.txt' } }] },
      { blocks: [{ text: 'Now the out folder.', seconds: 0.4 }, { tool: 'Bash', input: { command: 'mkdir -p out', description: 'Create the out folder' } }] },
      { blocks: [{ text: 'Created a.txt and the out folder.', seconds: 1.0 }] },
    ],
    async drive({ s, backend, ev, sleep }) {
      const t0 = await submit(s, 'create a.txt and an out folder', sleep);
      ev(t0, 'prompt_submitted');
      const ask0 = await backendMark(backend, 'tool_use_sent', 0);
      ev(ask0.t, 'approval_requested', { tool: 'Bash', command: 'touch a.txt' });
      await s.waitFor(/Do you want to proceed\?/, { what: 'the first approval menu' });
      await sleep(2000);
      const t1 = s.press('\r');
      ev(t1, 'approval_given');
      const ask1 = await backendMark(backend, 'tool_use_sent', 1);
      ev(ask1.t, 'approval_requested', { tool: 'Bash', command: 'mkdir -p out' });
      await s.waitFor(/Do you want to proceed\?/, { what: 'the second approval menu' });
      await sleep(2000);
      const t2 = s.press('\r');
      ev(t2, 'approval_given');
      const fin = await backendMark(backend, 'final_answer_sent', 2);
      ev(fin.t, 'turn_complete');
      await sleep(7000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [ask0.t, 'WAITING_APPROVAL'], [t1, 'RUNNING'], [ask1.t, 'WAITING_APPROVAL'], [t2, 'RUNNING'], [fin.t, 'DONE']], d);
    },
  },
  'long-stream': {
    plainName: 'claude-long-stream-80x24',
    plainOnly: true,
    cols: 80,
    rows: 24,
    text: 'At 80x24. One prompt; the backend streams a long answer (36 numbered lines, more than the screen holds) evenly over ~7 s; rest at the prompt.',
    replies: [{ blocks: [{ text: LONG_ANSWER, seconds: 7 }] }],
    async drive({ s, backend, ev, sleep }) {
      const t0 = await submit(s, 'write a long plan', sleep);
      ev(t0, 'prompt_submitted');
      const fin = await backendMark(backend, 'final_answer_sent', 0);
      ev(fin.t, 'turn_complete');
      await sleep(7000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [fin.t, 'DONE']], d);
    },
  },
  'deny-then-prompt': {
    plainName: 'claude-deny-then-prompt-100x30',
    plainOnly: true,
    cols: 100,
    rows: 30,
    text: 'At 100x30. The backend asks for Bash `touch hello.txt && echo created`; the driver waits ~2 s and presses Esc (the turn ends: interrupted); ~0.5 s after the CLI shows it, the driver types a second prompt and Enter; the backend answers it over ~1.5 s; rest.',
    replies: [
      APPROVAL_REPLIES[0],
      { blocks: [{ text: 'Sure, I will not touch any files. The folder stays as it is.', seconds: 1.5 }] },
    ],
    async drive(ctx) {
      const { s, backend, ev, sleep } = ctx;
      const [t0, ask] = await toApproval(ctx);
      await sleep(2000);
      const t1 = s.press('\x1b');
      ev(t1, 'approval_dismissed', { key: 'Esc' });
      ev(t1, 'turn_interrupted');
      await s.waitFor(/Interrupted/, { what: 'the interrupted line' });
      await sleep(500);
      const t2 = await submit(s, 'never mind, leave the files', sleep);
      ev(t2, 'prompt_submitted');
      const fin = await backendMark(backend, 'final_answer_sent', 1);
      ev(fin.t, 'turn_complete');
      await sleep(7000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [ask, 'WAITING_APPROVAL'], [t1, 'DONE'], [t2, 'RUNNING'], [fin.t, 'DONE']], d);
    },
  },
  'slow-tool': {
    plainName: 'claude-slow-tool-80x24',
    plainOnly: true,
    cols: 80,
    rows: 24,
    args: ['--allowedTools', 'Bash(sleep 4 && echo ready)'],
    text: 'At 80x24, `--allowedTools "Bash(sleep 4 && echo ready)"`: the backend asks for that Bash command (allowed: no approval asked); it runs ~4 s printing nothing until its end; the backend gets its output and streams the final text; rest.',
    replies: [
      { blocks: [{ text: 'Let me wait for the service.', seconds: 0.5 }, { tool: 'Bash', input: { command: 'sleep 4 && echo ready', description: 'Wait for the service' } }] },
      { blocks: [{ text: 'The service is ready.', seconds: 1.0 }] },
    ],
    async drive({ s, backend, ev, sleep }) {
      const t0 = await submit(s, 'wait for the service', sleep);
      ev(t0, 'prompt_submitted');
      const call = await backendMark(backend, 'tool_use_sent', 0);
      ev(call.t, 'tool_call_sent', { command: 'sleep 4 && echo ready', note: 'allowed by --allowedTools: no question' });
      const ran = await backendMark(backend, 'main_request', 1, 30);
      ev(ran.t, 'tool_result_received', { detail: ran.last });
      const fin = await backendMark(backend, 'final_answer_sent', 1);
      ev(fin.t, 'turn_complete');
      await sleep(7000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [fin.t, 'DONE']], d);
    },
  },
  'numbered-answer': {
    plainName: 'claude-numbered-answer-100x30',
    plainOnly: true,
    cols: 100,
    rows: 30,
    text: 'At 100x30. One prompt; the backend thinks ~2 s, streams a line of text, then a numbered list of 12 short options (an answer, not a question) over ~4 s; rest at the prompt.',
    replies: [{ blocks: [{ thinking: 'The person wants options. '.repeat(10), seconds: 2 }, { text: 'Here are the options you could take:\n\n' + Array.from({ length: 12 }, (_, i) => `${i + 1}. Option ${i + 1}: keep it simple`).join('\n'), seconds: 4 }] }],
    async drive({ s, backend, ev, sleep }) {
      const t0 = await submit(s, 'list some options', sleep);
      ev(t0, 'prompt_submitted');
      const fin = await backendMark(backend, 'final_answer_sent', 0);
      ev(fin.t, 'turn_complete');
      await sleep(7000);
      return (d) => seg([[0, 'IDLE'], [t0, 'RUNNING'], [fin.t, 'DONE']], d);
    },
  },
};
