// Hooks that say nothing about the pane's own conversation, whatever their event: they are dropped before the hook
// table reads them. Pure.
import type { Config } from '../config/config.js';
import type { InBandSignal } from '../screen/types.js';

type HookSignal = Extract<InBandSignal, { kind: 'hook' }>;

/** Why this hook is not about the pane's conversation (a suppression reason), or null when it is. */
export function hookNotAboutPane(cfg: Config, s: HookSignal): string | null {
  // Codex fires notify for its own side requests too (a task title asked on a thread of its own while the turn
  // runs): that request's end is not the turn's.
  if (s.agent === 'codex' && s.input && cfg.patterns.codex.side_request_input.some((re) => re.test(s.input!))) return 'codex_side_request';
  return null;
}
