// Qwen Code 0.24 with termsupervisor's hooks installed: the model asks to run a shell command; the person denies it
// with Esc. The turn ends there (DONE) with no Stop hook: the screen says so, and Notification idle_prompt follows.
import { QWEN_HOOKS, READY } from './qwen-base.mjs';
export default {
  ...QWEN_HOOKS,
  name: 'qwen-hooks-approval-esc',
  scenario: 'Hooks installed. Prompt; backend asks for run_shell_command `rm -rf build` -> Qwen asks; driver waits ~3 s and presses Esc; 8 s rest.',
  replies: [{ call: 'rm -rf build', thinkMs: 1200 }],
  steps: [READY, { wait: 1.5 }, { type: 'clean the build dir', enter: true }, { wait: 'approval' }, { wait: 3 }, { press: 'Esc', dismiss: true }],
  tail: 8,
};
