// What `top` shows and what a key does, as plain data: the panes from the live feed, urgency order, the filter,
// the selection (it follows a pane, not a row, so a re-sort never moves the person's cursor to another pane), the
// input line, and the action a key asks for. Pure: the main loop performs the actions and feeds the answers back.
import type { PaneView, QuestionOption, WsMessage } from '../../web/api-types.js';
import { anyRemote, compareHosts } from '../../web/hosts.js';
import { pickOption } from '../question-pick.js';
import type { Key } from './keys.js';

export type Mode =
  | { kind: 'list' }
  | { kind: 'filter'; before: string }
  | { kind: 'reply'; paneId: string; rev: number; text: string }
  | { kind: 'confirm-interrupt'; paneId: string; rev: number };

export interface Notice {
  text: string;
  tone: 'info' | 'error';
}

export interface TopModel {
  panes: Map<string, PaneView>;
  /** The selected pane's id (null: nothing to select). */
  selected: string | null;
  filter: string;
  mode: Mode;
  notice: Notice | null;
  /** The live feed is up. */
  connected: boolean;
}

/** What a key asks the main loop to do. `rev` is the screen revision the person acted on. */
export type Effect =
  | { kind: 'answer'; pane: PaneView; option: QuestionOption; rev: number }
  | { kind: 'reply'; pane: PaneView; text: string; rev: number }
  | { kind: 'interrupt'; pane: PaneView; rev: number }
  | { kind: 'ack'; pane: PaneView }
  | { kind: 'focus'; pane: PaneView }
  | { kind: 'quit' };

export function emptyModel(): TopModel {
  return { panes: new Map(), selected: null, filter: '', mode: { kind: 'list' }, notice: null, connected: false };
}

/** Urgency order: the person's attention first (issue 15's board order), closed panes last. */
export function urgency(p: PaneView): number {
  if (!p.alive) return 6;
  if (p.state === 'WAITING_APPROVAL') return 0;
  if (p.state === 'FAILED') return 1;
  if (p.stalled) return 2;
  if (p.state === 'DONE') return 3;
  if (p.state === 'RUNNING' || p.state === 'LONG_RUNNING') return 4;
  return 5;
}

/** Urgency, then newest state first, then id (a stable order when two panes changed in the same millisecond). */
export function comparePanes(a: PaneView, b: PaneView): number {
  return urgency(a) - urgency(b) || b.since - a.since || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The filter matches a pane's name, program, state, id or host (any case). */
export function matches(p: PaneView, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  if (!f) return true;
  return [p.name, p.program, p.state, p.id, p.host ?? ''].some((s) => s.toLowerCase().includes(f)) || (p.stalled && 'stalled'.includes(f));
}

/** The rows of the list, in order: grouped by host when any pane runs elsewhere (this machine's first), each
 * group in urgency order. */
export function visible(m: TopModel): PaneView[] {
  const rows = [...m.panes.values()].filter((p) => matches(p, m.filter));
  return rows.sort(anyRemote(rows) ? (a, b) => compareHosts(a, b) || comparePanes(a, b) : comparePanes);
}

export function selectedPane(m: TopModel): PaneView | null {
  return (m.selected !== null && visible(m).find((p) => p.id === m.selected)) || null;
}

/** Keeps a selection on a shown pane: the same pane if still shown, else the first row. */
export function settle(m: TopModel): TopModel {
  const rows = visible(m);
  if (m.selected !== null && rows.some((p) => p.id === m.selected)) return m;
  return { ...m, selected: rows[0]?.id ?? null };
}

/** A message from /ws applied to the panes. */
export function applyFeed(m: TopModel, msg: WsMessage): TopModel {
  if (msg.type === 'hello') return settle({ ...m, panes: new Map(msg.panes.map((p) => [p.id, p])) });
  if (msg.type === 'pane') return settle(withPane(m, msg.pane));
  if (msg.type === 'pane_removed') {
    const panes = new Map(m.panes);
    panes.delete(msg.id);
    return settle({ ...m, panes });
  }
  return m;
}

/** A fresh view of one pane (from the feed or an action's answer). */
export function withPane(m: TopModel, p: PaneView): TopModel {
  const panes = new Map(m.panes);
  panes.set(p.id, p);
  return { ...m, panes };
}

export function notify(m: TopModel, text: string, tone: Notice['tone'] = 'info'): TopModel {
  return { ...m, notice: { text, tone } };
}

function move(m: TopModel, delta: number | 'first' | 'last'): TopModel {
  const rows = visible(m);
  if (!rows.length) return m;
  const at = Math.max(0, rows.findIndex((p) => p.id === m.selected));
  const to = delta === 'first' ? 0 : delta === 'last' ? rows.length - 1 : Math.min(rows.length - 1, Math.max(0, at + delta));
  return { ...m, selected: rows[to]!.id };
}

/** Panes at rest take a reply (as tasks type: only then). */
const AT_REST = new Set(['DONE', 'FAILED', 'IDLE']);
const INTERRUPTIBLE = new Set(['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL']);
/** Rows a page key moves. */
const PAGE = 10;

/** One key: the next model, and the action it asks for (if any). `pageRows` is how many list rows are shown. */
export function onKey(m: TopModel, key: Key, pageRows = PAGE): { model: TopModel; effect?: Effect } {
  const mode = m.mode;
  if (mode.kind === 'filter') return { model: filterKey(m, mode, key) };
  if (mode.kind === 'reply') return replyKey(m, mode, key);
  if (mode.kind === 'confirm-interrupt') {
    const pane = m.panes.get(mode.paneId);
    const back = { ...m, mode: { kind: 'list' } as Mode };
    if (key.name === 'char' && key.ch.toLowerCase() === 'y' && pane) return { model: notify(back, `interrupting ${pane.name}…`), effect: { kind: 'interrupt', pane, rev: mode.rev } };
    return { model: notify(back, 'interrupt cancelled') };
  }
  const m0 = { ...m, notice: null };
  const p = selectedPane(m);
  switch (key.name) {
    case 'up':
      return { model: move(m0, -1) };
    case 'down':
      return { model: move(m0, 1) };
    case 'pageup':
      return { model: move(m0, -Math.max(1, pageRows)) };
    case 'pagedown':
      return { model: move(m0, Math.max(1, pageRows)) };
    case 'home':
      return { model: move(m0, 'first') };
    case 'end':
      return { model: move(m0, 'last') };
    case 'ctrl-c':
      return { model: m0, effect: { kind: 'quit' } };
    case 'escape':
      return { model: m.filter ? settle({ ...m0, filter: '' }) : m0 };
    case 'enter':
      return p ? { model: notify(m0, `jumping to ${p.name}…`), effect: { kind: 'focus', pane: p } } : { model: m0 };
    case 'char':
      break;
    default:
      return { model: m };
  }
  const ch = key.ch;
  if (ch === 'q') return { model: m0, effect: { kind: 'quit' } };
  if (ch === 'k') return { model: move(m0, -1) };
  if (ch === 'j') return { model: move(m0, 1) };
  if (ch === 'g') return { model: move(m0, 'first') };
  if (ch === 'G') return { model: move(m0, 'last') };
  if (ch === '/') return { model: { ...m0, mode: { kind: 'filter', before: m.filter } } };
  if (!p) return { model: notify(m0, 'no pane selected', 'error') };
  if (ch === 'a') return { model: notify(m0, `acknowledging ${p.name}…`), effect: { kind: 'ack', pane: p } };
  if (ch === 'r') {
    if (!p.alive || !AT_REST.has(p.state)) return { model: notify(m0, `${p.name} is ${p.alive ? p.state : 'closed'}: a reply goes in only at rest (DONE, FAILED or IDLE)`, 'error') };
    return { model: { ...m0, mode: { kind: 'reply', paneId: p.id, rev: p.rev ?? 0, text: '' } } };
  }
  if (ch === 'i') {
    if (!p.alive || !INTERRUPTIBLE.has(p.state)) return { model: notify(m0, `${p.name} is ${p.alive ? p.state : 'closed'}: nothing to interrupt`, 'error') };
    return { model: { ...m0, mode: { kind: 'confirm-interrupt', paneId: p.id, rev: p.rev ?? 0 } } };
  }
  if (/^[0-9yn]$/i.test(ch)) {
    if (p.state !== 'WAITING_APPROVAL' || !p.question) return { model: notify(m0, `${p.name} asks nothing to answer`, 'error') };
    const option = pickOption(p.question, ch);
    if (!option) return { model: notify(m0, `${p.name} offers no option ${ch}: ${p.question.options.map((o) => o.id).join(', ')}`, 'error') };
    return { model: notify(m0, `answering ${p.name}: ${option.label}…`), effect: { kind: 'answer', pane: p, option, rev: p.rev ?? 0 } };
  }
  return { model: m };
}

function filterKey(m: TopModel, mode: Extract<Mode, { kind: 'filter' }>, key: Key): TopModel {
  const list: Mode = { kind: 'list' };
  if (key.name === 'enter') return settle({ ...m, mode: list });
  if (key.name === 'escape' || key.name === 'ctrl-c') return settle({ ...m, mode: list, filter: mode.before });
  return settle({ ...m, filter: edit(m.filter, key) });
}

function replyKey(m: TopModel, mode: Extract<Mode, { kind: 'reply' }>, key: Key): { model: TopModel; effect?: Effect } {
  const list: Mode = { kind: 'list' };
  if (key.name === 'escape' || key.name === 'ctrl-c') return { model: notify({ ...m, mode: list }, 'reply cancelled') };
  if (key.name === 'enter') {
    const pane = m.panes.get(mode.paneId);
    if (!mode.text.trim()) return { model: notify({ ...m, mode: list }, 'nothing to send') };
    if (!pane) return { model: notify({ ...m, mode: list }, 'the pane went away', 'error') };
    return { model: notify({ ...m, mode: list }, `sending to ${pane.name}…`), effect: { kind: 'reply', pane, text: mode.text, rev: mode.rev } };
  }
  return { model: { ...m, mode: { ...mode, text: edit(mode.text, key) } } };
}

/** A one-line input's editing keys: typing, a paste (its line breaks become spaces), Backspace, Ctrl-U, Ctrl-W. */
function edit(text: string, key: Key): string {
  if (key.name === 'char') return text + key.ch;
  if (key.name === 'paste') return text + key.text.replace(/[\r\n]+/g, ' ');
  if (key.name === 'backspace') return [...text].slice(0, -1).join('');
  if (key.name === 'ctrl-u') return '';
  if (key.name === 'ctrl-w') return text.replace(/\S*\s*$/, '');
  return text;
}
