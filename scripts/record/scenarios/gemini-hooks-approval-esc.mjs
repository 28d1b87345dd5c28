// Gemini CLI 0.61 with termsupervisor's hooks installed: the model asks to run a shell command; the person presses
// Esc at the confirmation after `escAfterS` seconds. Gemini cancels the tool call and the turn ends (issue 12 item 4:
// DONE, never WAITING, however soon after the Notification hook). The -quick and hook-less scenarios vary it.

/** The session, with the pause before Esc and whether hooks are installed as parameters. */
export function approvalEsc({ name, escAfterS, hooks }) {
  return {
    name,
    agent: 'gemini',
    source: 'gemini-cli 0.61.0',
    ...(hooks ? {} : { hooks: false }),
    scenario: `${hooks ? 'Hooks installed.' : 'No hooks.'} Prompt; backend asks for run_shell_command \`echo hi > hello.txt\` -> the CLI asks for confirmation; driver waits ~${escAfterS} s and presses Esc; no further request reaches the backend; 6 s rest.`,
    replies: [{ call: 'echo hi > hello.txt', thinkMs: 1200 }],
    steps: [
      { wait: 'screen', text: 'Type your message' },
      { wait: 1.5 },
      { type: 'write hello.txt', enter: true },
      { wait: 'approval' },
      { wait: escAfterS },
      { press: 'Esc', dismiss: true },
    ],
    tail: 6,
  };
}

export default approvalEsc({ name: 'gemini-hooks-approval-esc', escAfterS: 4, hooks: true });
