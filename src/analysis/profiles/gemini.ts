// Gemini CLI: main screen, the bottom ~11 rows redrawn every frame; an input box between ▄ and ▀ rules stays
// visible while running. The window title is the CLI's own state report (Working / Action Required / Ready).
// The live edge is everything below the last submitted prompt box, up to the live input box.
// Its forks (Qwen Code) share the box, the dialogs and the order of reading; classifyGeminiFamily reads them with
// their own patterns.
import type { GeminiPatterns, ProgramId } from '../../config/config.js';
import type { ScreenSnapshot } from '../../screen/types.js';
import { lastMatch, testRow, trimBottom } from '../text.js';
import { verdict, type ProfileContext } from './context.js';
import { menuRow, newSince } from './screen-parts.js';
import type { Classification } from '../types.js';

/** Rows below the live input box (workspace/sandbox/model footer); a box further up is a prompt echo. */
const LIVE_BOX_MAX_FOOTER_ROWS = 6;
/** A prompt may wrap over this many rows inside its box. */
const MAX_INPUT_ROWS = 12;

/** A Gemini CLI-like screen's patterns; `prompt_echo`: a fork echoes a submitted prompt outside any box. */
export interface GeminiFamilyPatterns extends GeminiPatterns {
  prompt_echo?: RegExp;
}

export function classifyGemini(snap: ScreenSnapshot, ctx: ProfileContext): Classification {
  return classifyGeminiFamily('gemini', ctx.cfg.patterns.gemini, snap, ctx);
}

export function classifyGeminiFamily(program: ProgramId, p: GeminiFamilyPatterns, snap: ScreenSnapshot, ctx: ProfileContext): Classification {
  const lines = trimBottom(snap.lines);
  // Input boxes: a ▄ rule, a " > " row (a long prompt wraps over more rows), a ▀ rule.
  const boxes: Array<{ input: number; bottom: number }> = [];
  for (let i = 1; i < lines.length - 1; i++) {
    if (!testRow(p.box_top, lines[i - 1]!) || !testRow(p.input, lines[i]!)) continue;
    for (let j = i + 1; j < Math.min(lines.length, i + 1 + MAX_INPUT_ROWS); j++) {
      if (testRow(p.box_bottom, lines[j]!)) {
        boxes.push({ input: i, bottom: j });
        break;
      }
    }
  }
  // The live input box sits just above the footer; while a menu replaces it, the lowest box is the prompt echo
  // (on a short screen too: a turn's status or a menu below a box make it an echo, the footer never does).
  let live = lines.length;
  let echo = -1;
  const lowest = boxes[boxes.length - 1];
  const below = lowest ? lines.slice(lowest.bottom + 1) : [];
  const turnBelow = lowest !== undefined && (lastMatch(below, p.waiting) ?? lastMatch(below, p.working) ?? menuRow(below, p.menu_cursor, p.menu_option)) !== null;
  if (lowest !== undefined && lines.length - lowest.bottom <= LIVE_BOX_MAX_FOOTER_ROWS && !turnBelow) {
    live = lowest.input;
    if (boxes.length > 1) echo = boxes[boxes.length - 2]!.bottom;
  } else if (lowest !== undefined) {
    echo = lowest.bottom;
  }
  // The echo's input row: a slash command there opened the dialog below it (see panel_echo).
  const echoBox = boxes.find((b) => b.bottom === echo);
  let panel = echoBox !== undefined && lines.slice(echoBox.input, echoBox.bottom).some((l) => testRow(p.panel_echo, l));
  // An unboxed echo further down (a fork's) is the later prompt: the edge starts below it.
  const unboxed = p.prompt_echo ? lastEchoRow(lines, p.prompt_echo, echo + 1, live < lines.length ? live - 1 : lines.length) : -1;
  if (unboxed > echo) {
    echo = unboxed;
    panel = testRow(p.panel_echo, lines[unboxed]!);
  }
  // Up to the row above the live box's top rule; without a live box, to the bottom.
  const edge = lines.slice(echo + 1, live < lines.length ? Math.max(echo + 1, live - 1) : lines.length);
  const v = (kind: Classification['verdict'], rule: string, line: string, explicit = false) =>
    verdict(program, kind, rule, line, edge, explicit);

  const waiting = lastMatch(edge, p.waiting) ?? (panel ? null : menuRow(edge, p.menu_cursor, p.menu_option));
  // A menu wins over the title: the daily-quota menu waits for the person while the title still says Working.
  if (waiting) return v('waiting', 'approval_menu', waiting.line, true);
  if (p.waiting_title.test(snap.title.trim())) return v('waiting', 'title_action_required', snap.title, true);
  // (an error already on screen when the person pressed Enter is an earlier turn's: Gemini CLI 0.61's prompt echo
  // is not always found, and the edge then reaches back over earlier turns)
  const failed = lastMatch(newSince(edge, ctx.atEnter), p.failed);
  const interrupted = lastMatch(edge, p.interrupted);
  const failure = failed && (!interrupted || failed.index > interrupted.index) ? failed : null;
  const working = lastMatch(edge, p.working);
  // The CLI runs its AfterAgent hooks under a spinner of their own below the error that ended the turn: the error
  // goes with the verdict, for the hook's turn end to read.
  if (working) return withFailure(v('working', 'working_marker', working.line), failure !== null && failure.index < working.index ? failure.line : null);
  if (p.working_title.test(snap.title.trim())) return v('working', 'title_working', snap.title);
  if (failure) return v('failed', 'api_error', failure.line, true);
  if (interrupted) return v('ready', 'cancelled', interrupted.line, true);
  const done = lastMatch(edge, p.done);
  if (done) return v('ready', 'done_marker', done.line, true);
  if (p.ready_title.test(snap.title.trim())) return v('ready', 'title_ready', snap.title, true);
  // Only the live input box says ready: an echo alone (a dialog replaced the input box) says nothing.
  if (live < lines.length) return v('ready', 'input_box', lines[live]!);
  return v('unknown', 'no_marker', '');
}

function withFailure(cls: Classification, failure: string | null): Classification {
  if (failure !== null) cls.failure = failure.trim();
  return cls;
}

/** The last row in [from, to) that echoes a submitted prompt, or -1. */
function lastEchoRow(lines: readonly string[], echo: RegExp, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (testRow(echo, lines[i]!)) return i;
  return -1;
}
