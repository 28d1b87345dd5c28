// Gemini CLI 0.61 without hooks: the queued-message session of gemini-hooks-queued.mjs (the title flashing
// "◇ Ready" between the two turns; issue 12 item 7, as first seen: a DONE for 1.2 s, RUNNING back 0.6 s after the
// spinner), hooks not installed.
import withHooks from './gemini-hooks-queued.mjs';

export default {
  ...withHooks,
  name: 'gemini-queued',
  hooks: false,
  scenario: withHooks.scenario.replace('Hooks installed.', 'No hooks.'),
};
