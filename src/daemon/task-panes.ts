// What a supervised task sees of its pane and how it types: the registry's views and screens, the detector's
// verdict on the screen now, and keys through the pane's own source (run link, tmux, iTerm2 bridge).
import { setTimeout as sleep } from 'node:timers/promises';
import type { PaneAccess } from '../tasks/task-runner.js';
import type { PaneRegistry } from './pane-registry.js';

/** `typed` hears what a task typed into which pane (kept in the pane's action history, origin `task`). */
export function taskPanes(registry: PaneRegistry, enterDelayS: number, typed: (id: string, text: string) => void = () => {}): PaneAccess {
  return {
    view: (id) => registry.pane(id),
    screen: (id) => registry.rawScreen(id),
    verdict: (id) => registry.livePane(id)?.monitor.analyzer.classification?.verdict ?? null,
    async type(id, text, enter) {
      if (text && !registry.sendText(id, text)) return false;
      if (!enter) {
        if (text) typed(id, text);
        return true;
      }
      // Text and its Enter in one burst reads as a paste to a TUI (the Enter becomes a newline in the box).
      await sleep(enterDelayS * 1000);
      const sent = registry.sendText(id, '\r');
      if (text || sent) typed(id, sent ? `${text}\r` : text);
      return sent;
    },
  };
}
