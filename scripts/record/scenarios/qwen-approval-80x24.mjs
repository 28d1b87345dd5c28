// Qwen Code 0.24 at 80x24: a prompt, a command approved with Enter, the answer (the menu and input box in a small
// terminal).
import approval from './qwen-approval.mjs';
export default {
  ...approval,
  name: 'qwen-approval-80x24',
  cols: 80,
  rows: 24,
  scenario: `80x24. ${approval.scenario}`,
};
