// Tier 3 for an agent's TUI we have no profile for, read by what every such TUI shares rather than any one agent's
// words: a question put to the person (a choice list with a selection marker, choice buttons, y/n keys, a status
// saying it waits, a dialog's key hints), an interrupt hint in a status row near the input box, frames of its own (a spinner, a
// timer, streamed text; the title animating too), and, once those stop, the turn's end: an error as its last
// message (FAILED) or done. A TUI is the alternate screen, or a main screen with rows below the cursor (an input box
// with a footer under it); a line-oriented program's cursor sits below its output, and classifyShell reads it. Pure.
import type { ScreenSnapshot } from '../../screen/types.js';
import { lastMatch, testRow, trimBottom, type Hit } from '../text.js';
import { verdict, type ProfileContext } from './context.js';
import { menuRow, newSince } from './screen-parts.js';
import type { Classification } from '../types.js';

/** A status row with an interrupt hint sits this many non-blank rows above the cursor at most (the input box's
 * rows, a footer when the cursor is parked below it, the status row itself), or below it. */
const STATUS_ROWS_ABOVE_CURSOR = 6;
/** On a line-oriented screen, a question is read this many rows above the cursor at most. */
const LINE_QUESTION_ROWS = 12;
/** A turn's last message (read for an error) is this many non-empty rows above the input area at most. */
const LAST_MESSAGE_ROWS = 6;
/** An input row holding typed text: a prompt glyph (in a box border or not), then the text. */
export const TYPED_INPUT = /^\s*(?:[│┃|▌]\s*)?[>❯›»→▶✨$]\s*\S/u;
/** Numbered options need one sibling to be a list; options that open with a choice word need this many. */
const WORD_MENU_SIBLINGS = 2;
/** Borders, prompt glyphs and blanks around an echoed prompt's text. */
const ECHO_FRAME = /^[\s│┃|▌>❯›»→▶✨$]+|[\s│┃|▌]+$/gu;
/** A shorter piece of a row ("No", "1.") is too common to tell as the prompt's. */
export const MIN_ECHO_CHARS = 6;
/** A row inside (or opening, or closing) a dialog's box. */
const BOXED = /^\s*[│┃|╭╰┌└]/u;
/** A row of rules, borders and blanks only (an input box's frame): no message. */
const DECORATION = /^[\s─━═╌╍┄┅▀▄▁▔│┃|╭╮╰╯┌┐└┘╹╻]*$/u;

/** The screen is an agent's TUI rather than a line-oriented program's output. `inPlace`: the program has been seen
 * redrawing rows above its cursor (tui-facts.ts): an Ink-style TUI that parks its cursor on an empty row below its
 * footer is one too, though nothing shows below the cursor. */
export function tuiLike(snap: ScreenSnapshot, inPlace = false): boolean {
  if (snap.altScreen || inPlace) return true;
  for (let y = snap.cursorY + 1; y < snap.lines.length; y++) if (snap.lines[y]!.trim()) return true;
  return false;
}

export function classifyGenericTui(snap: ScreenSnapshot, ctx: ProfileContext): Classification | null {
  const tui = tuiLike(snap, ctx.inPlace === true);
  const g = ctx.cfg.patterns.generic;
  const lines = trimBottom(snap.lines);
  // A line-oriented screen's live edge is below the row the prompt was submitted on, where it is still on screen; a
  // TUI redraws its conversation (rows move under a remembered row), so all of it is read, the newest rows first.
  const top = !tui && ctx.anchorRow !== undefined && ctx.anchorRow - snap.baseY >= 0 ? ctx.anchorRow - snap.baseY : 0;
  const cursorRow = snap.lines[snap.cursorY] ?? '';
  // What the person typed (the cursor at its end) is no question to them; a menu's selected row may hold the cursor.
  const typed = snap.cursorX >= cursorRow.trimEnd().length && TYPED_INPUT.test(cursorRow);
  // A line-oriented screen (an agent that hid its input box to ask, a prompt library's list) asks just above the
  // cursor, or not at all.
  const from = tui ? top : Math.max(top, snap.cursorY - LINE_QUESTION_ROWS);
  // (A line-oriented screen's cursor row is the shell reading's: a question there, typed or asked.)
  // The echo of the person's own prompt is their words, whatever they wrote ("add a [y/N] confirmation").
  const live = lines.map((l, y) => (y < from || (y === snap.cursorY && (typed || !tui)) || echoOf(l, ctx.prompt) ? '' : l));
  const row = cursorRow.trim();
  const v = (kind: Classification['verdict'], rule: string, line: string, explicit = false) =>
    verdict('generic', kind, rule, line, live.filter((l) => l.trim() !== ''), explicit);

  // On a line-oriented screen a question is live only while nothing but its options and its dialog's box follow it:
  // an answered "[y/n]" stays in the scrollback above what the program printed next.
  const last = (hit: Hit | null): Hit | null =>
    hit && (tui || lines.slice(hit.index + 1, snap.cursorY).every((r) => DECORATION.test(r) || BOXED.test(r) || testRow(g.menu_option, r))) ? hit : null;
  const asking = ctx.answered ? newSince(live, ctx.answered) : live;
  const menu = last(menuRow(asking, g.menu_cursor, g.menu_option, { numbered: g.menu_numbered, siblings: WORD_MENU_SIBLINGS }));
  if (menu) return v('waiting', 'choice_list', menu.line, true);
  const question = last(lastMatch(asking, g.question));
  if (question) return v('waiting', 'question_shape', question.line, true);
  if (!tui) return null;
  const status = lastMatch(lines.slice(statusFrom(lines, snap.cursorY)), g.interrupt);
  if (status) return v('working', 'interrupt_hint', status.line);
  if (ctx.fullscreen === 'animating') return v('working', 'fullscreen_animating', row);
  if (ctx.titleSpinning) return v('working', 'title_spinner', snap.title);
  if (ctx.fullscreen === 'resting') {
    const above = newSince(live.slice(0, messageBottom(lines, snap.cursorY)), ctx.atEnter).filter((l) => !DECORATION.test(l) && !testRow(g.tui_input, l));
    const lastRows = above.slice(-LAST_MESSAGE_ROWS);
    const error = lastMatch(lastRows, g.error_block);
    // An error with a retry announced below it is being retried (a turn interrupted then leaves it standing).
    if (error && !lastMatch(lastRows.slice(error.index + 1), g.retrying)) return v('failed', 'error_block', error.line, true);
    return v('resting', 'own_frames_stopped', row);
  }
  return v('unknown', 'tui_settling', row);
}

/** The top border of an input box (or the rule above an input row). */
const INPUT_TOP = /^\s*(?:[╭┌┏]\s*[─━]|[─━]{8,})/u;

/** Where the transcript ends: at the cursor, unless the program parks a hidden cursor at the top (a full-screen TUI
 * drawing its own input box): then at its input box's top border, else at the last row. */
function messageBottom(lines: readonly string[], cursorY: number): number {
  if (cursorY > 0) return cursorY;
  for (let y = lines.length - 1; y > 0; y--) if (INPUT_TOP.test(lines[y]!)) return y;
  return lines.length;
}

/** The first row of the status region: STATUS_ROWS_ABOVE_CURSOR non-blank rows above the cursor (blank rows between
 * a footer and a parked cursor do not count). */
function statusFrom(lines: readonly string[], cursorY: number): number {
  let y = Math.min(cursorY, lines.length);
  for (let seen = 0; y > 0 && seen < STATUS_ROWS_ABOVE_CURSOR; ) if (lines[--y]!.trim() !== '') seen++;
  return y;
}

/** The row shows (part of) the line the person submitted: their prompt's echo, wrapped or not. */
function echoOf(row: string, prompt: string | undefined): boolean {
  if (!prompt) return false;
  const text = row.replace(ECHO_FRAME, '');
  return text.length >= MIN_ECHO_CHARS && prompt.includes(text);
}
