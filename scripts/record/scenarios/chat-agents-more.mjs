// More sessions of opencode and Kilo Code CLI, made after their profiles and the generic tier were tuned, to check
// that these generalise: other sizes (100x30, 80x24) and other shapes of turn (two approvals in one turn, a long
// streamed answer, a reject then at once a new prompt, two turns back to back, reasoning then an approval).
//   node scripts/record/agents/record-chat.mjs opencode --more [what...]
const INPUT_BOX = 'Fake Model'; // the input box's model line: the driver types once it is drawn (pacing only)
const ready = [{ wait: 'screen', text: INPUT_BOX, timeout: 40 }, { wait: 1.5 }];

/** As chat-agents.mjs: Kilo asks "Tell Kilo what to do differently" after Reject; its Enter (empty) is the answer. */
const DENY = {
  opencode: [{ answer: ['Right', 'Right', 'Enter'], deny: true }],
  kilo: [{ answer: ['Right', 'Right', 'Enter'], neutral: true }, { wait: 2 }, { answer: 'Enter', deny: true }],
};

/** A long answer: numbered lines of prose, enough to scroll a 30-row screen. */
const LONG_TEXT = Array.from({ length: 24 }, (_, i) => `${i + 1}. Step ${i + 1} of the plan: check the inputs, write the change, and run the tests again. \n`).join('');

/** @param {string} agent  opencode | kilo;  @param {string} source  "opencode 1.18.33" */
export function moreChatScenarios(agent, source) {
  const base = { agent, source, hooks: false, folder: 'recordings', cols: 100, rows: 30 };
  const list = [
    {
      what: 'two-approvals',
      scenario: 'At 100x30: one prompt; the backend asks for `ls -la`, approved with Enter after 2 s; then at once for `cat README.md`, approved with Enter after 2 s; then the answer; 5 s rest.',
      files: { 'README.md': 'hello\n' },
      replies: [{ call: 'ls -la', thinkMs: 900 }, { call: 'cat README.md', thinkMs: 700 }, { text: 'The folder holds README.md, which says hello.', thinkMs: 600 }],
      steps: [
        ...ready,
        { type: 'look at the readme', enter: true },
        { wait: 'approval', n: 1 },
        { wait: 2 },
        { answer: 'Enter' },
        { wait: 'approval', n: 2 },
        { wait: 2 },
        { answer: 'Enter' },
        { wait: 'turn_end' },
      ],
      tail: 5,
    },
    {
      what: 'long-answer',
      scenario: 'At 100x30: one prompt; after 0.8 s the backend streams a 24-line answer in 30 pieces 0.22 s apart (~6.5 s of text); 5 s rest.',
      replies: [{ text: LONG_TEXT, thinkMs: 800, chunks: 30, chunkMs: 220 }],
      steps: [...ready, { type: 'write a long plan', enter: true }, { wait: 'turn_end', timeout: 40 }],
      tail: 5,
    },
    {
      what: 'deny-then-prompt',
      scenario:
        'At 100x30: one prompt; the backend asks for `rm -rf dist`; rejected after 2 s (Right, Right, Enter' +
        (agent === 'kilo' ? ', then Enter on "Tell Kilo what to do differently"' : '') +
        '); 0.5 s later a second prompt is typed and answered in 0.8 s; 5 s rest.',
      replies: [{ call: 'rm -rf dist', thinkMs: 900 }, { text: 'Fine, here is a summary instead.', thinkMs: 800 }],
      steps: [...ready, { type: 'clean dist', enter: true }, { wait: 'approval' }, { wait: 2 }, ...DENY[agent], { wait: 0.5 }, { type: 'summarise instead', enter: true }, { wait: 'turn_end' }],
      tail: 5,
    },
    {
      what: 'back-to-back',
      scenario: 'At 100x30: two prompts, the second typed 0.3 s after the first answer finished streaming; answers of 0.7 and 1 s; 5 s rest.',
      replies: [
        { text: 'First, quickly.', thinkMs: 700 },
        { text: 'Second, also quickly, in a few pieces.', thinkMs: 1000, chunks: 4, chunkMs: 150 },
      ],
      steps: [...ready, { type: 'one', enter: true }, { wait: 'turn_end', n: 1 }, { wait: 0.3 }, { type: 'two', enter: true }, { wait: 'turn_end', n: 2 }],
      tail: 5,
    },
    {
      what: 'thinking-approval',
      cols: 80,
      rows: 24,
      scenario: 'At 80x24: one prompt; the backend streams reasoning for 5 s, then asks for `ls -la`; approved with Enter after 2.5 s; the answer; 5 s rest.',
      replies: [
        { reasoning: 'I should look at the files before answering, so I will list the folder first and then read what is there.', reasoningMs: 5000, call: 'ls -la', thinkMs: 600 },
        { text: 'The folder is empty.', thinkMs: 600 },
      ],
      steps: [...ready, { type: 'what is here', enter: true }, { wait: 'approval', timeout: 40 }, { wait: 2.5 }, { answer: 'Enter' }, { wait: 'turn_end' }],
      tail: 5,
    },
  ];
  return list.map(({ what, ...sc }) => ({ ...base, name: `${agent}-${what}`, ...sc }));
}
