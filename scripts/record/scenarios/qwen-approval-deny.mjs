// Qwen Code 0.24: the model asks to run a shell command; the person denies it with Esc ("4. No, suggest changes
// (esc)"). The tool call is cancelled and the turn ends (DONE), no further request reaches the backend.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-approval-deny',
  scenario: 'Prompt; backend asks for run_shell_command `rm -rf build` -> Qwen asks; driver waits ~3 s and presses Esc; 8 s rest.',
  replies: [{ call: 'rm -rf build', thinkMs: 1200 }],
  steps: [READY, { wait: 1.5 }, { type: 'clean the build dir', enter: true }, { wait: 'approval' }, { wait: 3 }, { press: 'Esc', dismiss: true }],
  tail: 8,
};
