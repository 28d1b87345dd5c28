// Qwen Code 0.24 at 100x30: the person denies a command with Esc and at once types a new prompt, which is answered.
import { QWEN, READY } from './qwen-base.mjs';
export default {
  ...QWEN,
  name: 'qwen-deny-then-prompt',
  cols: 100,
  rows: 30,
  scenario: 'At 100x30: prompt; backend asks for run_shell_command `rm -rf dist` -> Qwen asks; driver presses Esc after ~2 s; 0.5 s later types a second prompt, answered after 0.8 s; 5 s rest.',
  replies: [{ call: 'rm -rf dist', thinkMs: 1000 }, { text: 'Here is a summary instead.', thinkMs: 800, chunks: 3, chunkMs: 200 }],
  steps: [READY, { wait: 1.5 }, { type: 'clean dist', enter: true }, { wait: 'approval' }, { wait: 2 }, { press: 'Esc', dismiss: true }, { wait: 0.5 }, { type: 'summarise instead', enter: true }, { wait: 'turn_end' }],
  tail: 5,
};
