// Gemini CLI 0.61 with termsupervisor's hooks installed: the model asks to run a shell command; the person presses Esc at the confirmation
// 1.5 s after it shows. Gemini cancels the tool call and the turn ends (issue 12 item 4: DONE, never WAITING, however soon after the Notification hook).
export default {
  name: 'gemini-hooks-approval-esc-quick',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  
  scenario: 'Hooks installed. Prompt; backend asks for run_shell_command `echo hi > hello.txt` -> the CLI asks for confirmation; driver waits ~1.5 s and presses Esc; no further request reaches the backend; 6 s rest.',
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
