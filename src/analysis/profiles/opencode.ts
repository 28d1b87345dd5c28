// opencode and its fork Kilo Code CLI: alternate screen, the conversation above an input box drawn in a ┃ column
// and closed by a ╹▀▀▀ edge, one status row below it (the moving ■/⬝ bar and "esc interrupt" while a turn runs).
// Each turn ends in a footer line `▣  Build · Model`, which gets its duration (`· 3.6s`) or `· interrupted` once the
// turn is over. A permission dialog replaces the input box. The live edge is the current turn: the rows below the
// previous turn's footer, down to the input box (or the dialog). Older turns are never read.
import type { ScreenSnapshot } from '../../screen/types.js';
import type { Config, OpencodePatterns } from '../../config/config.js';
import { lastIndex, lastMatch, testRow, trimBottom } from '../text.js';
import { verdict, type ProfileContext } from './context.js';
import type { Classification } from '../types.js';

export type OpencodeFamily = 'opencode' | 'kilo';

/** A row with nothing on it but a block's bar: the padding above and below a ┃ block's text. */
const BLANK_ROW = /^\s*┃?\s*$/u;

export function classifyOpencode(snap: ScreenSnapshot, ctx: ProfileContext, program: OpencodeFamily = 'opencode'): Classification {
  const p = patternsFor(ctx.cfg, program);
  const lines = trimBottom(snap.lines);
  const box = lastIndex(lines, p.box_bottom);
  let boxTop = box;
  while (boxTop > 0 && testRow(p.box_side, lines[boxTop - 1]!)) boxTop--;
  // Without the input box on screen a dialog has replaced it: the turn is read down to the bottom.
  const conversation = box >= 0 ? lines.slice(0, boxTop) : lines;
  const footer = lastIndex(conversation, p.turn_footer);
  const previous = footer > 0 ? lastIndex(conversation, p.turn_footer, footer) : -1;
  const edge = conversation.slice(previous + 1);
  const v = (kind: Classification['verdict'], rule: string, line: string, explicit = false) => verdict(program, kind, rule, line, edge, explicit);

  if (box < 0) {
    // Below the turn's footer: the dialog. An answer quoting its words sits above the footer.
    const waiting = lastMatch(conversation.slice(footer + 1), p.waiting);
    if (waiting) return v('waiting', 'permission_dialog', waiting.line, true);
    return v('unknown', 'no_input_box', '');
  }
  const status = lines.slice(box + 1);
  const working = lastMatch(status, p.working);
  if (working) return v('working', 'status_row', working.line);
  // No turn on screen yet: the start screen, or the first prompt just submitted (opencode takes a second or two to
  // open the session before it draws the turn). Neither says a turn is over.
  if (footer < 0) return v('unknown', 'no_turn_yet', '');
  const line = conversation[footer]!;
  if (testRow(p.footer_interrupted, line)) return v('ready', 'interrupted', line, true);
  if (testRow(p.footer_duration, line)) return v('ready', 'done_marker', line, true);
  // A footer without a duration and nothing running: the turn stopped short. An error block (a ┃ bar of text)
  // right above it is the failure; otherwise the person rejected a command and the turn is over.
  const above = conversation.slice(previous + 1, footer).filter((l) => !BLANK_ROW.test(l));
  const last = above[above.length - 1];
  if (last !== undefined && testRow(p.block_row, last)) return v('failed', 'error_block', last);
  return v('ready', 'turn_stopped', line);
}

/** Kilo's lists add to opencode's: its screens are opencode's with a few other words. */
const merged = new WeakMap<Config, OpencodePatterns>();

function patternsFor(cfg: Config, program: OpencodeFamily): OpencodePatterns {
  const base = cfg.patterns.opencode;
  if (program === 'opencode') return base;
  let p = merged.get(cfg);
  if (!p) {
    const k = cfg.patterns.kilo;
    p = { ...base, working: [...base.working, ...k.working], waiting: [...base.waiting, ...k.waiting] };
    merged.set(cfg, p);
  }
  return p;
}
