// Gemini CLI 0.61 without hooks: the model asks to run a shell command; the person presses Esc at the confirmation
// 1.5 s after it shows. Gemini cancels the tool call and the turn ends (issue 12 item 4: DONE, never WAITING).
export default {
  name: 'gemini-approval-esc',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  hooks: false,
  scenario: 'No hooks. Prompt; backend asks for run_shell_command `echo hi > hello.txt` -> the CLI asks for confirmation; driver waits ~1.5 s and presses Esc; no further request reaches the backend; 6 s rest.',
  replies: [{ call: 'echo hi > hello.txt', thinkMs: 1200 }],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'write hello.txt', enter: true },
    { wait: 'approval' },
    { wait: 1.5 },
    { press: 'Esc', dismiss: true },
  ],
  tail: 6,
};
