// Claude Code: alternate screen, an input box between two ─ rules, a spinner row above it while a turn runs.
// The live edge is everything below the last submitted prompt echo (`❯ text`): older turns' "done" lines, errors
// and spinners stay in scrollback above it and are never read.
import type { ScreenSnapshot } from '../../screen/types.js';
import { lastIndex, lastMatch, testRow, trimBottom } from '../text.js';
import { verdict, type ProfileContext } from './context.js';
import { liveStatusRow, menuRow } from './screen-parts.js';
import type { Classification } from '../types.js';

/** A prompt being typed may wrap over this many rows inside the input box. */
const MAX_INPUT_ROWS = 12;

export function classifyClaude(snap: ScreenSnapshot, ctx: ProfileContext): Classification {
  const p = ctx.cfg.patterns.claude;
  const lines = trimBottom(snap.lines);
  const box = findInputBox(lines, p.box_rule, p.box_input, p.menu_cursor, p.menu_option);
  const echo = lastIndex(lines, p.prompt_echo, box >= 0 ? box : lines.length);
  const edge = lines.slice(echo + 1, box >= 0 ? box : lines.length);
  const footer = box >= 0 ? lines.slice(box + 2).filter((l) => !testRow(p.box_rule, l)) : [];
  const v = (kind: Classification['verdict'], rule: string, line: string, explicit = false) =>
    verdict('claude', kind, rule, line, edge, explicit);

  // Every dialog replaces the input box: with the box on screen, menu words in the live edge are quoted text.
  // Below a slash command the person typed, a menu's shape is a panel they opened; only question words count.
  const panel = echo >= 0 && testRow(p.panel_echo, lines[echo]!);
  const waiting =
    box < 0 ? (lastMatch(edge, p.waiting) ?? (panel ? null : (lastMatch(edge, p.menu_footer) ?? menuRow(edge, p.menu_cursor, p.menu_option)))) : null;
  if (waiting) return v('waiting', 'approval_menu', waiting.line, true);
  const working = lastMatch(footer, p.footer_working) ?? liveStatusRow(edge, p.working, p.later_message, p.done);
  if (working) return v('working', 'working_marker', working.line);
  if (ctx.titleAnimating && p.working_title.test(snap.title)) return v('working', 'title_spinner', snap.title);
  const failed = lastMatch(edge, p.failed);
  if (failed) return v('failed', 'api_error', failed.line, true);
  const interrupted = lastMatch(edge, p.interrupted);
  if (interrupted) return v('ready', 'interrupted', interrupted.line, true);
  const done = lastMatch(edge, p.done);
  if (done) return v('ready', 'done_marker', done.line, true);
  if (box >= 0) return v('ready', 'input_box', lines[box + 1] ?? '');
  return v('unknown', 'no_marker', '');
}

/** Index of the top rule of the input box (rule, `❯` row, maybe more typed rows, rule), from the bottom; -1 if absent.
 * A menu drawn between two rules ("❯ 1. Yes" over "  2. No") is no input box. */
function findInputBox(lines: readonly string[], rule: RegExp, input: RegExp, menuCursor: RegExp, menuOption: RegExp): number {
  for (let i = lines.length - 3; i >= 0; i--) {
    if (!testRow(rule, lines[i]!, i) || !testRow(input, lines[i + 1]!, i + 1)) continue;
    if (testRow(menuCursor, lines[i + 1]!, i + 1) && testRow(menuOption, lines[i + 2]!, i + 2)) continue;
    for (let j = i + 2; j < Math.min(lines.length, i + 2 + MAX_INPUT_ROWS); j++) if (testRow(rule, lines[j]!, j)) return i;
  }
  return -1;
}
