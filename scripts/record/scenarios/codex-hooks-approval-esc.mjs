// Codex 0.169 with notify installed: the model asks to run a command outside the sandbox; the person presses Esc
// at the approval question. Codex drops the command and ends the turn (issue 12 item 4).
export default {
  name: 'codex-hooks-approval-esc',
  agent: 'codex',
  source: 'codex 0.169.0',
  scenario: 'Hooks installed (notify). Prompt; backend asks for `ls -la` with sandbox_permissions=require_escalated (approval_policy on-request) -> approval question; driver waits ~4 s and presses Esc; no further request reaches the backend; 6 s rest.',
  replies: [{ call: 'ls -la', escalate: true, justification: 'List the files?', thinkMs: 1200 }],
  steps: [
    { wait: 'screen', text: 'Ask Codex to do anything' },
    { wait: 1.5 },
    { type: 'list the files', enter: true },
    { wait: 'approval' },
    { wait: 4 },
    { press: 'Esc', dismiss: true },
  ],
  tail: 6,
};
