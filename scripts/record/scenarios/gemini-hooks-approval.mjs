// Gemini CLI 0.61 with termsupervisor's hooks installed: the model asks to run a shell command, the person allows it
// once (Enter); the command runs, the model answers.
export default {
  name: 'gemini-hooks-approval',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  scenario: 'Hooks installed. Prompt; backend asks for run_shell_command `echo hi > hello.txt` -> the CLI asks for confirmation; driver waits ~3 s and presses Enter on "1. Allow once"; the command runs; backend gets its output and answers over ~1 s; 6 s rest.',
  replies: [
    { call: 'echo hi > hello.txt', thinkMs: 1200 },
    { text: 'I wrote hi to hello.txt.', thinkMs: 800, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'write hello.txt', enter: true },
    { wait: 'approval' },
    { wait: 3 },
    { answer: 'Enter' },
    { wait: 'turn_end' },
  ],
  tail: 6,
};
