// Codex 0.169 without hooks: the queued-message session of codex-hooks-queued.mjs, notify not installed.
import withHooks from './codex-hooks-queued.mjs';

export default {
  ...withHooks,
  name: 'codex-queued',
  hooks: false,
  scenario: withHooks.scenario.replace('Hooks installed (notify).', 'No hooks.'),
};
