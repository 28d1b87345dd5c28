// One frame of `top` from the model: a title, the panes in urgency order (state, how long, name, program, the
// question or last line), the selected pane's detail and choices, a notice line and the keys (or the input line).
// Every row is exactly the terminal's width, so the diff writer can put a row in place without clearing. Pure.
import { commandName } from '../command-name.js';
import type { PaneView } from '../../web/api-types.js';
import { anyRemote, unreachableText } from '../../web/hosts.js';
import { duration, STALL_ICON, STATE_ICON } from '../../web/state-words.js';
import { STATE_COLOR, type Paint } from '../colors.js';
import { printable } from '../printable.js';
import { optionsLine } from '../question-pick.js';
import { cells, fit, fitRight, tail } from './cells.js';
import { selectedPane, visible, type TopModel } from './model.js';

export interface Frame {
  rows: string[];
  /** Where the terminal's cursor shows (an input line), or null: hidden. */
  cursor: { row: number; col: number } | null;
}

/** Rows above the list (title, column heads) and below it (two of detail, notice, keys). */
const HEAD_ROWS = 2;
const FOOT_ROWS = 4;
/** Name and program columns: at least this wide, at most the cap (longer ones are cut). */
const NAME_MIN = 4;
const NAME_MAX = 24;
const PROGRAM_MIN = 7;
const PROGRAM_MAX = 12;
/** Below this width the program column is left out to keep room for the question. */
const NARROW = 70;
const STATE_W = 18; // icon, space, the longest state name (WAITING_APPROVAL)
const TIME_W = 8;

export const LIST_KEYS = '↑↓/jk move  ⏎ jump  a ack  1-9/y/n answer  r reply  i interrupt  / filter  q quit';

/** How many pane rows fit on a terminal of `rows` lines. */
export function listRows(rows: number): number {
  return Math.max(1, rows - HEAD_ROWS - FOOT_ROWS);
}

export function render(m: TopModel, size: { cols: number; rows: number }, now: number, paint: Paint, daemon: string): Frame {
  const W = Math.max(1, size.cols);
  const shown = visible(m);
  const sel = selectedPane(m);
  const n = listRows(size.rows);
  const at = sel ? shown.indexOf(sel) : 0;
  const first = at < n ? 0 : at - n + 1; // the selected row stays in view

  const needs = shown.filter((p) => p.alive && p.needsYou).length;
  const live = [...m.panes.values()].filter((p) => p.alive).length;
  const title = [` termsupervisor top`, printable(daemon), `${live} live pane${live === 1 ? '' : 's'}`, `${needs} need${needs === 1 ? 's' : ''} you`, m.filter ? `filter: ${printable(m.filter)} (${shown.length})` : ''].filter(Boolean).join(' · ');
  const out: string[] = [`\x1b[7;1m${fit(title, W)}\x1b[0m`];

  const cols = columns(shown, W);
  out.push(paint('dim', fit(headRow(cols), W)));
  for (let i = 0; i < n; i++) {
    const p = shown[first + i];
    if (!p) out.push(' '.repeat(W));
    else out.push(paneRow(p, cols, W, now, paint, p.id === sel?.id));
  }
  if (!shown.length) out[HEAD_ROWS] = fit(m.panes.size ? `  no pane matches "${printable(m.filter)}" (Esc clears the filter)` : `  no panes: start one with \`${commandName()} run -- <command>\`, or open a tmux pane`, W);

  const [d1, d2] = detail(sel, now);
  out.push(fit(d1, W), paint('dim', fit(d2, W)));
  const notice = !m.connected ? { text: 'lost the daemon: reconnecting…', tone: 'error' as const } : m.notice;
  out.push(notice ? paint(notice.tone === 'error' ? 'failed' : 'running', fit(printable(notice.text), W)) : ' '.repeat(W));
  let [keys, cursorCol] = footer(m);
  if (cursorCol !== null && cursorCol > W - 1) {
    // a long input scrolls: its end (where the person types) stays in view
    keys = tail(keys, W - 1);
    cursorCol = W - 1;
  }
  out.push(cursorCol === null ? paint('dim', fit(keys, W)) : fit(keys, W));

  const rows = out.slice(0, Math.max(1, size.rows));
  while (rows.length < size.rows) rows.push(' '.repeat(W));
  const cursor = cursorCol === null || rows.length < out.length ? null : { row: out.length - 1, col: cursorCol };
  return { rows, cursor };
}

/** The host column's widest (a remote's or peer's name), and the word for this machine's panes in it. */
const HOST_MAX = 16;
const THIS_HOST = 'local';

interface Columns {
  /** 0: left out (every pane is this machine's). */
  host: number;
  name: number;
  program: number; // 0: left out
  what: number;
}

function columns(shown: PaneView[], W: number): Columns {
  const name = Math.min(NAME_MAX, Math.max(NAME_MIN, ...shown.map((p) => cells(printable(p.name)))));
  const program = W < NARROW ? 0 : Math.min(PROGRAM_MAX, Math.max(PROGRAM_MIN, ...shown.map((p) => cells(printable(p.program)))));
  const host = anyRemote(shown) ? Math.min(HOST_MAX, Math.max(4, ...shown.map((p) => cells(printable(p.host ?? THIS_HOST))))) : 0;
  const used = 1 + STATE_W + 1 + TIME_W + 2 + (host ? host + 2 : 0) + name + 2 + (program ? program + 2 : 0);
  return { host, name, program, what: Math.max(0, W - used) };
}

function headRow(c: Columns): string {
  return ' ' + fit('STATE', STATE_W) + ' ' + fitRight('TIME', TIME_W) + '  ' + (c.host ? fit('HOST', c.host) + '  ' : '') + fit('NAME', c.name) + '  ' + (c.program ? fit('PROGRAM', c.program) + '  ' : '') + 'WHAT';
}

/** "How long": the turn's runtime (from its start; frozen at its end for DONE/FAILED), idle time for IDLE. */
export function howLong(p: PaneView, now: number): string {
  if (!p.alive) return '';
  if (p.state === 'IDLE') return duration(now - p.since);
  if (p.state === 'DONE' || p.state === 'FAILED') return duration(p.since - p.startedAt);
  return duration(now - p.startedAt);
}

/** The question, else the live edge's last line (else the deciding line), with what else the person must know. */
export function what(p: PaneView, now: number): string {
  const lastLine = [...p.edge].reverse().find((l) => l.trim()) ?? p.line;
  let text = p.state === 'WAITING_APPROVAL' ? `asks: ${p.question?.text ?? p.line}` : lastLine.trim();
  if (p.alive && (p.state === 'DONE' || p.state === 'FAILED')) text = `${p.state === 'DONE' ? 'finished' : 'failed'} ${duration(now - p.since)} ago · ${text}`;
  const marks = [!p.alive ? 'closed' : '', p.alive && p.unreachable ? 'host unreachable (stale)' : '', p.stalled ? `${STALL_ICON} stalled` : '', p.analysisError ? 'analysis error' : ''].filter(Boolean);
  return printable([...marks, text].filter(Boolean).join(' · '));
}

function paneRow(p: PaneView, c: Columns, W: number, now: number, paint: Paint, selected: boolean): string {
  const state = fit(`${STATE_ICON[p.state]} ${p.state}`, STATE_W);
  const rest = ' ' + fitRight(howLong(p, now), TIME_W) + '  ' + (c.host ? fit(printable(p.host ?? THIS_HOST), c.host) + '  ' : '') + fit(printable(p.name), c.name) + '  ' + (c.program ? fit(printable(p.program), c.program) + '  ' : '') + fit(what(p, now), c.what);
  const row = fit((selected ? '▶' : ' ') + state + rest, W);
  if (selected) return `\x1b[7m${row}\x1b[0m`;
  if (!p.alive) return paint('dim', row);
  const body = fit(rest, W - 1 - STATE_W);
  return ' ' + paint(STATE_COLOR[p.state], state, p.needsYou) + body;
}

/** The selected pane: who and where, then what it takes. */
function detail(p: PaneView | null, now: number): [string, string] {
  if (!p) return ['', ''];
  const w = p.where;
  const where = w?.session !== undefined ? `tmux ${w.session}:${w.window ?? ''} ${w.pane ?? ''}` : w?.tty ? `${w.tty}${w.pid ? ` pid ${w.pid}` : ''}${w.host ? ` on ${w.host}` : ''}` : w?.sessionId ? `iTerm2 ${w.sessionId}` : '';
  const why = p.rule ? `${p.rule}${p.line ? ` "${p.line.trim()}"` : ''}` : '';
  const down = p.alive && p.unreachable ? unreachableText(p.unreachable, (ms) => new Date(ms).toTimeString().slice(0, 8)) : '';
  const head = printable([`${p.name}`, p.program, p.id, where, down, why].filter(Boolean).join(' · '));
  let keys: string;
  if (!p.alive) keys = `closed ${duration(now - p.since)} ago`;
  else if (p.state === 'WAITING_APPROVAL') keys = p.question ? `answer: ${optionsLine(p.question)}   (digit / y / n · i interrupt · ⏎ jump)` : 'asks something top cannot read as choices: ⏎ jump to it · i interrupt';
  else if (p.state === 'DONE' || p.state === 'IDLE') keys = 'r reply · a ack · ⏎ jump';
  else if (p.state === 'FAILED') keys = 'a ack · ⏎ jump';
  else keys = 'i interrupt · ⏎ jump';
  return [' ' + head, ' ' + printable(keys)];
}

/** The last row: the keys, or the input being typed, which ends where the cursor goes. */
function footer(m: TopModel): [string, number | null] {
  const mode = m.mode;
  if (mode.kind === 'filter') {
    const s = `filter (⏎ keep · Esc undo) /${printable(m.filter)}`;
    return [s, cells(s)];
  }
  if (mode.kind === 'reply') {
    const name = printable(m.panes.get(mode.paneId)?.name ?? mode.paneId);
    const prompt = `reply to ${name}> `;
    const text = printable(mode.text);
    return [`${prompt}${text}`, cells(prompt) + cells(text)];
  }
  if (mode.kind === 'confirm-interrupt') {
    const name = printable(m.panes.get(mode.paneId)?.name ?? mode.paneId);
    const s = `interrupt ${name}? y/n `;
    return [s, cells(s)];
  }
  return [' ' + LIST_KEYS, null];
}
