// The choices a waiting pane's question offers, read from its live edge, each with the keys that pick it in the
// program asking: an agent's numbered menu, a row of buttons, a line-mode [y/N] or (yes/no), bash `select`'s "#?"
// menu, "Press Enter". Shapes in config `patterns.questions`, keys per program in `actions.keys`. Pure.
import type { ActionsConfig, MenuKeys, QuestionPatterns } from '../config/config.js';

export interface QuestionOption {
  /** Unique within the question: '1', '2', 'y', 'n', 'enter'. */
  id: string;
  label: string;
  /** Printable keys, space-separated tokens ("2", "↓ ↓ Enter", "y Enter"): src/daemon/typed-keys.ts types them. */
  keys: string;
}

export interface Question {
  text: string;
  options: QuestionOption[];
}

export interface QuestionInput {
  /** The profile reading the pane (claude, codex, shell, generic, ...). */
  program: string;
  /** The live edge, top to bottom: the rows the analysis read, down to the cursor's row or the last row drawn. */
  rows: readonly string[];
  /** The cursor's row up to the cursor: a line-mode question ends there. */
  cursorLine: string;
  /** The pane's width: an option row that reaches its edge goes on below (a wrapped label). */
  cols: number;
}

/** Longest question text or label kept (characters): a button, not a paragraph. */
export const QUESTION_TEXT_MAX = 200;
/** Rows between two options that may still belong to the one above (a wrapped label, a description). */
const MAX_OPTION_ROWS = 3;
/** Rows above a menu searched for the question's own line ("Do you want to proceed?"). */
const QUESTION_ROWS_ABOVE = 6;
/** A digit picks options 1-9 only; a longer menu is answered with arrows. */
const MAX_DIGIT_OPTION = 9;
/** An option row ending within this many columns of the pane's edge was wrapped (a word that did not fit went
 * below); a shorter one is followed by a description, which is not part of the label. */
const WRAP_SLACK = 24;
/** Box-drawing borders and blanks around a dialog's row. */
const BORDERS = /^[\s│┃|╭╮╰╯]+|[\s│┃|╭╮╰╯]+$/g;

/** The question on the live edge, or null when none of the shapes is there. */
export function readQuestion(input: QuestionInput, pat: QuestionPatterns, actions: ActionsConfig): Question | null {
  const style = menuStyle(input.program, actions);
  const cursor = input.cursorLine.trimEnd();
  const last = lastNonBlank(input.rows);
  return (
    lineQuestion(cursor, pat) ??
    numberedMenu(input.rows, cursor, input.cols, pat, style) ??
    buttonRow(input.rows, pat) ??
    (last === cursor ? null : lineQuestion(last, pat))
  );
}

export function menuStyle(program: string, actions: ActionsConfig): MenuKeys {
  return (actions.keys[program] ?? actions.keys['default'])?.menu ?? 'arrows';
}

/** A question on one row: yes/no choices ending it, or press-to-continue. */
function lineQuestion(line: string, pat: QuestionPatterns): Question | null {
  if (!line.trim()) return null;
  const yn = pat.yes_no.exec(line);
  if (yn) {
    const options = yesNoOptions(yn[1]!);
    if (options.length >= 2) return { text: clean(line), options };
  }
  if (pat.press_enter.test(line)) return { text: clean(line), options: [{ id: 'enter', label: 'Continue', keys: 'Enter' }] };
  return null;
}

const WORD = /^[A-Za-z]+$/;
const LABELS: Record<string, string> = { y: 'Yes', yes: 'Yes', n: 'No', no: 'No' };

/** "y/N" → Yes, No (default); "yes/no/[fingerprint]" → yes, no; "y,n,q,a,d,e,?" → y, n, q, a, d, e. Each is typed
 * as a line (the word, then Enter): these programs read a line. */
function yesNoOptions(alternatives: string): QuestionOption[] {
  const words = alternatives.split(/[/,|]/).map((w) => w.trim()).filter((w) => WORD.test(w));
  // One capital among single letters marks the default ("[y/N]"); words are written as they are typed.
  const capitals = words.filter((w) => w.length === 1 && w === w.toUpperCase());
  const out: QuestionOption[] = [];
  for (const w of words) {
    const id = w.toLowerCase();
    if (out.some((o) => o.id === id)) continue;
    const label = LABELS[id] ?? w;
    const isDefault = capitals.length === 1 && capitals[0] === w;
    out.push({ id, label: isDefault ? `${label} (default)` : label, keys: `${id} Enter` });
  }
  return out;
}

interface MenuRow {
  row: number;
  n: number;
  selected: boolean;
  label: string;
}

/** The lowest numbered menu on the edge, options 1..n in order: picked by the program's keys. A menu with no
 * selection marker is a question only with its own prompt at the cursor (bash `select`'s "#?"), else it is a list. */
function numberedMenu(rows: readonly string[], cursor: string, cols: number, pat: QuestionPatterns, style: MenuKeys): Question | null {
  const found = menuRows(rows, cols, pat);
  if (!found) return null;
  const selected = found.find((o) => o.selected);
  const prompted = pat.menu_prompt.test(cursor);
  if (!selected && !prompted) return null;
  const from = selected?.n ?? 1;
  const count = found.length;
  const options = found.map((o) => ({ id: String(o.n), label: cut(o.label), keys: menuKeys(style, o.n, from, count) }));
  const text = questionAbove(rows, found[0]!.row, pat) ?? clean(cursor);
  return { text, options };
}

/** Walks up from the lowest option row to option 1; null unless the numbers run 1..n. Rows between two options
 * (a rule, a blank, a description, a wrapped label) may be at most MAX_OPTION_ROWS. */
function menuRows(rows: readonly string[], cols: number, pat: QuestionPatterns): MenuRow[] | null {
  let i = rows.length - 1;
  let m: RegExpExecArray | null = null;
  for (; i >= 0; i--) if ((m = pat.numbered_option.exec(rows[i]!))) break;
  if (!m) return null;
  const out: MenuRow[] = [];
  let extra: string[] = [];
  let gap = 0;
  for (; i >= 0; i--) {
    const row = rows[i]!;
    const o = pat.numbered_option.exec(row);
    const expected = out.length ? out[0]!.n - 1 : Number(o?.[2]);
    if (o && Number(o[2]) === expected) {
      const wrapped = row.replace(/[\s│┃|]+$/, '').length >= cols - WRAP_SLACK;
      const label = wrapped ? [o[3]!, ...extra].join(' ') : o[3]!;
      out.unshift({ row: i, n: expected, selected: Boolean(o[1]), label });
      extra = [];
      gap = 0;
      if (expected === 1) break;
      continue;
    }
    if (++gap > MAX_OPTION_ROWS) return null;
    // A row below an option: the rest of its label if it was wrapped (joined once that option is found).
    if (pat.menu_break.test(row)) extra = [];
    else extra.unshift(clean(row));
  }
  return out.length >= 2 && out[0]!.n === 1 ? out : null;
}

/** The keys that pick option `n` of `count` when option `from` is selected. */
function menuKeys(style: MenuKeys, n: number, from: number, count: number): string {
  if ((style === 'digit' || style === 'digit_enter') && count <= MAX_DIGIT_OPTION) return style === 'digit' ? String(n) : `${n} Enter`;
  const moves = n >= from ? Array<string>(n - from).fill('↓') : Array<string>(from - n).fill('↑');
  return [...moves, 'Enter'].join(' ');
}

/** A row of buttons ("Allow once   Allow always   Reject"): → from the first, then Enter. */
function buttonRow(rows: readonly string[], pat: QuestionPatterns): Question | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = pat.buttons.exec(rows[i]!);
    if (!m) continue;
    // Buttons are words with a capital ("Allow once"); key hints after them ("ctrl+f fullscreen", "⇆ select") are not.
    const labels = m[1]!.trim().split(/\s{2,}/);
    const end = labels.findIndex((l) => !/^\p{Lu}/u.test(l));
    if (end >= 0) labels.length = end;
    if (labels.length < 2) return null;
    const options = labels.map((label, k) => ({ id: String(k + 1), label: cut(label), keys: [...Array<string>(k).fill('→'), 'Enter'].join(' ') }));
    return { text: questionAbove(rows, i, pat) ?? '', options };
  }
  return null;
}

/** The question's own line above a menu: the nearest row ending in "?" within reach, else the nearest text row. */
function questionAbove(rows: readonly string[], top: number, pat: QuestionPatterns): string | null {
  let nearest: string | null = null;
  for (let i = top - 1; i >= 0 && i >= top - QUESTION_ROWS_ABOVE; i--) {
    const row = clean(rows[i]!);
    if (!row || pat.menu_break.test(rows[i]!)) continue;
    if (/\?\s*$/.test(row)) return row;
    nearest ??= row;
  }
  return nearest;
}

function lastNonBlank(rows: readonly string[]): string {
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i]!.trim()) return rows[i]!.trimEnd();
  return '';
}

function clean(row: string): string {
  return cut(row.replace(BORDERS, '').replace(/\s+/g, ' '));
}

function cut(s: string): string {
  return s.length > QUESTION_TEXT_MAX ? `${s.slice(0, QUESTION_TEXT_MAX - 1)}…` : s;
}
