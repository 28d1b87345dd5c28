// Codex 0.169 with notify installed at 100x30: one turn, two commands outside the sandbox in a row, both approved.
import { approveTwice } from './steps.mjs';

export default {
  name: 'codex-hooks-two-approvals-100x30',
  agent: 'codex',
  source: 'codex 0.169.0',
  cols: 100,
  rows: 30,
  scenario: 'Hooks installed (notify), 100x30. Prompt; backend asks for `touch a.txt` with sandbox_permissions=require_escalated -> approval question; driver waits ~2 s and presses Enter; the command runs; backend at once asks for `mkdir -p out` (escalated) -> a second question; driver waits ~2 s and presses Enter; backend answers over ~1 s; 6 s rest.',
  replies: [
    { call: 'touch a.txt', escalate: true, justification: 'Create a.txt?', thinkMs: 1000 },
    { call: 'mkdir -p out', escalate: true, justification: 'Create the out folder?', thinkMs: 600 },
    { text: 'Created a.txt and the out folder.', thinkMs: 600, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Ask Codex to do anything' },
    { wait: 1.5 },
    ...approveTwice('make a.txt and out'),
  ],
  tail: 6,
};
