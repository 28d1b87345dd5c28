// Codex CLI: alternate screen; the composer row (`› …`) stays visible while a turn runs, so its placeholder is no
// idle marker. The live edge is everything below the last submitted prompt echo (the `› ` row above the composer).
import type { ScreenSnapshot } from '../../screen/types.js';
import { lastIndex, lastMatch, trimBottom } from '../text.js';
import { verdict, type ProfileContext } from './context.js';
import type { Classification } from '../types.js';

export function classifyCodex(snap: ScreenSnapshot, ctx: ProfileContext): Classification {
  const p = ctx.cfg.patterns.codex;
  const lines = trimBottom(snap.lines);
  const composer = lastIndex(lines, p.input);
  const echo = composer > 0 ? lastIndex(lines, p.input, composer) : -1;
  const edge = lines.slice(echo + 1);
  const v = (kind: Classification['verdict'], rule: string, line: string, explicit = false) =>
    verdict('codex', kind, rule, line, edge, explicit);

  const waiting = lastMatch(edge, p.waiting);
  if (waiting) return v('waiting', 'approval_menu', waiting.line, true);
  if (p.waiting_title.test(snap.title)) return v('waiting', 'title_action_required', snap.title, true);
  const working = lastMatch(edge, p.working);
  if (working) return v('working', 'working_marker', working.line);
  if (ctx.titleAnimating && p.working_title.test(snap.title)) return v('working', 'title_spinner', snap.title);
  const interrupted = lastMatch(edge, p.interrupted);
  const failed = lastMatch(edge, p.failed);
  const done = lastMatch(edge, p.done);
  // The bottom-most of these is the latest word on the turn.
  const last = [interrupted && { h: interrupted, k: 'interrupted' }, failed && { h: failed, k: 'error' }, done && { h: done, k: 'done_marker' }]
    .filter((x): x is { h: { index: number; line: string }; k: string } => !!x)
    .sort((a, b) => b.h.index - a.h.index)[0];
  if (last) return v(last.k === 'error' ? 'failed' : 'ready', last.k, last.h.line, true);
  if (composer >= 0) return v('ready', 'composer', lines[composer]!);
  return v('unknown', 'no_marker', '');
}
