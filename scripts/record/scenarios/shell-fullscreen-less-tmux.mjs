// The pager at rest in a tmux pane: the session of shell-fullscreen-less.mjs, recorded as the daemon's tmux watcher
// sees it (its output, none of the keys that page it).
import direct from './shell-fullscreen-less.mjs';

export default {
  ...direct,
  transport: 'tmux',
  name: 'shell-fullscreen-less-tmux',
  scenario: `a tmux pane (no key events), ${direct.scenario}`,
};
