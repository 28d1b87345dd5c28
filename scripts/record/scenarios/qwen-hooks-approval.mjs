// Qwen Code 0.24 with termsupervisor's hooks installed: the model asks to run a shell command (PreToolUse,
// PermissionRequest, Notification permission_prompt), the person allows it once (Enter); the command runs, the model
// answers (Stop).
import { QWEN_HOOKS, READY } from './qwen-base.mjs';
export default {
  ...QWEN_HOOKS,
  name: 'qwen-hooks-approval',
  scenario: 'Hooks installed. Prompt; backend asks for run_shell_command `echo hi > hello.txt` -> Qwen asks "Allow execution of: \'echo\'?"; driver waits ~3 s and presses Enter; the command runs; backend answers over ~1 s; 6 s rest.',
  replies: [
    { call: 'echo hi > hello.txt', thinkMs: 1200 },
    { text: 'I wrote hi to hello.txt.', thinkMs: 800, chunks: 3, chunkMs: 200 },
  ],
  steps: [READY, { wait: 1.5 }, { type: 'write hello.txt', enter: true }, { wait: 'approval' }, { wait: 3 }, { answer: 'Enter' }, { wait: 'turn_end' }],
  tail: 6,
};
