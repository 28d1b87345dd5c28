// One card per pane. A card keeps references to its parts and the last text it wrote to each, so an update
// touches only what changed (100 panes streaming must not rebuild 100 subtrees). It speaks plainly ("asks: …",
// "finished 2 m ago · exit 0", "running 4 m 30 s"); rule names are for the detail view.
import type { PaneView } from '../../src/web/api-types.js';
import { asks, howLong } from './card-words.js';
import { el } from './dom.js';
import { clock, EXIT_CODE_UNKNOWN, STALL_ICON, STATE_ICON, stateText } from './format.js';
import { questionKey, renderQuestion, setBusy, type Choice } from './question.js';
import { TASK_ICON, type TaskStatus } from './task-model.js';
import { drawable } from './glyphs.js';

export interface Card {
  li: HTMLLIElement;
  open: HTMLButtonElement;
  parts: Record<'icon' | 'state' | 'task' | 'host' | 'age' | 'asks' | 'answers' | 'said' | 'program' | 'attach' | 'command' | 'edge' | 'exit' | 'fault' | 'unreachable', HTMLElement>;
  last: Map<string, string>;
  /** The pane as this card last showed it: an answer carries the revision the person saw. */
  pane: PaneView;
  /** A pick on the question as `shown` drew it (that pane, that revision). */
  onPick?: (shown: PaneView, choice: Choice) => void;
}

export interface CardHooks {
  open(id: string): void;
  /** The person picked an option (null: Esc) on the question `p` shows; `say` reports the outcome on the card. */
  answer(p: PaneView, choice: Choice, say: (text: string, warn: boolean) => void): Promise<unknown>;
}

const EDGE_LINES = 5;
/** Marks the "analysis error" line (a warning sign: the pane is watched, its reading failed once or more). */
const FAULT_ICON = '⚠';

export function createCard(p: PaneView, hooks: CardHooks, task: TaskStatus | null = null): Card {
  const li = el('li', 'card');
  li.dataset.id = p.id;
  const top = el('div', 'card-top');
  const badge = el('span', 'badge');
  const icon = el('span', 'icon');
  icon.setAttribute('aria-hidden', 'true');
  const state = el('span', 'state');
  badge.append(icon, state);
  const stall = el('span', 'stall', `${STALL_ICON} stalled`);
  const closed = el('span', 'closed-tag', 'closed');
  // a supervised task drives this pane (running, or paused waiting on the person)
  const taskTag = el('span', 'task-tag');
  // the machine it runs on, for another host's pane (a peer daemon's, a remote tmux server's)
  const host = el('span', 'host-tag');
  const age = el('span', 'age');
  top.append(badge, stall, closed, taskTag, host, age);

  const h = el('h2', 'name');
  const open = el('button', 'open');
  open.type = 'button';
  open.addEventListener('click', () => hooks.open(p.id));
  h.append(open);

  const meta = el('div', 'meta');
  const program = el('span', 'program');
  const attach = el('span', 'attach');
  const command = el('code', 'command');
  meta.append(program, attach, command);

  const edge = el('pre', 'edge');
  edge.setAttribute('aria-label', 'live edge');
  // A DONE a shell's screen decided: whether the command succeeded is not known (no exit code came with it).
  const exit = el('p', 'exit-unknown');
  // The pane's own screen, analysis or state code threw: caught, the pane is still watched, its verdicts may lag.
  const fault = el('p', 'analysis-error');
  // Its host cannot be reached: the state shown is the last one known.
  const unreachable = el('p', 'unreachable');
  // WAITING_APPROVAL: the question in words (under the name), its options as buttons under the live edge they
  // answer, and what became of the click
  const asksLine = el('p', 'asks');
  const answers = el('div', 'answers');
  answers.setAttribute('role', 'group');
  const said = el('p', 'said');
  said.setAttribute('role', 'status');

  // a running card's light along its bottom edge (animated by transform only: style.css)
  const sweep = el('span', 'sweep');
  sweep.setAttribute('aria-hidden', 'true');
  li.append(top, h, unreachable, asksLine, meta, edge, answers, said, exit, fault, sweep);
  const card: Card = { li, open, parts: { icon, state, task: taskTag, host, age, asks: asksLine, answers, said, program, attach, command, edge, exit, fault, unreachable }, last: new Map(), pane: p };
  const say = (text: string, warn: boolean) => {
    said.textContent = text;
    said.classList.toggle('warn', warn);
  };
  answers.addEventListener('click', (e) => e.stopPropagation());
  card.onPick = (shown: PaneView, choice: Choice) => {
    if (shown.id !== card.pane.id) return; // drawn for another pane: never (a card is one pane's), said for clarity
    setBusy(answers, true);
    say('', false);
    void hooks.answer(shown, choice, say).finally(() => setBusy(answers, false));
  };
  updateCard(card, p, Date.now(), task);
  return card;
}

function text(c: Card, key: keyof Card['parts'], value: string): void {
  if (c.last.get(key) === value) return;
  c.last.set(key, value);
  c.parts[key].textContent = value;
}

function attr(c: Card, key: string, value: string, node: HTMLElement = c.li): void {
  if (c.last.get(`@${key}`) === value) return;
  c.last.set(`@${key}`, value);
  node.setAttribute(key, value);
}

export function updateCard(c: Card, p: PaneView, now: number, task: TaskStatus | null = null): void {
  attr(c, 'data-state', p.state);
  attr(c, 'data-stalled', String(p.stalled));
  attr(c, 'data-alive', String(p.alive));
  attr(c, 'data-needs', String(p.needsYou && p.alive));
  attr(c, 'data-rev', String(p.rev ?? '')); // the screen revision an answer from this card carries
  text(c, 'icon', STATE_ICON[p.state]);
  text(c, 'state', p.state);
  if (c.last.get('name') !== p.name) {
    c.last.set('name', p.name);
    c.open.textContent = p.name || p.id;
  }
  attr(c, 'aria-label', `${p.name || p.id}: ${stateText(p)}. Open details`, c.open);
  attr(c, 'data-task', task ?? '');
  text(c, 'task', task ? `${TASK_ICON[task]} task ${task.toLowerCase()}` : '');
  attr(c, 'title', task ? `a supervised task drives this pane (${task})` : '', c.parts.task);
  text(c, 'host', p.host ?? '');
  attr(c, 'data-host', p.host ?? '');
  attr(c, 'title', p.host ? `runs on ${p.host}` : '', c.parts.host);
  const down = p.unreachable;
  attr(c, 'data-unreachable', String(Boolean(down)));
  text(c, 'unreachable', down ? `host unreachable since ${clock(down.since)} — last state shown: ${down.reason}` : '');
  text(c, 'program', p.program);
  text(c, 'attach', p.attach);
  text(c, 'command', p.command);
  text(c, 'edge', drawable(p.edge.slice(-EDGE_LINES).join('\n')));
  text(c, 'exit', p.exitCodeUnknown ? EXIT_CODE_UNKNOWN : '');
  attr(c, 'title', p.exitCodeUnknown ? 'DONE was read from the screen: a prompt came back, but no exit code came with it. `termsupervisor shell-integration bash --install` (or zsh, fish) reports each command\'s exit code.' : '', c.parts.exit);
  const f = p.analysisError;
  attr(c, 'data-analysis-error', String(f !== null));
  // A pane moving faster than anyone could follow shows one move now and then (src/daemon/transition-flood.ts).
  const flood = p.flooding ? `${FAULT_ICON} flooding since ${clock(p.flooding.since)}: ${p.flooding.held} transitions coalesced` : '';
  const fault = f ? `${FAULT_ICON} analysis error${f.count > 1 ? ` ×${f.count}` : ''}: ${f.stage} (${f.program})` : '';
  text(c, 'fault', [fault, flood].filter(Boolean).join(' · '));
  attr(c, 'title', f ? `${f.message}\nat ${clock(f.at)} while applying ${f.step}. The error was caught and the pane is still watched; the daemon's log has the details.` : '', c.parts.fault);
  const waiting = p.alive && p.state === 'WAITING_APPROVAL';
  text(c, 'asks', waiting ? asks(p) : '');
  const qk = questionKey(p);
  if (c.last.get('question') !== qk) {
    c.last.set('question', qk);
    renderQuestion(c.parts.answers, p, (shown, choice) => c.onPick?.(shown, choice));
  }
  // What became of a click is old news once the pane moves on ("sent 2"), or asks anew. A refusal ("the pane
  // changed — look again") stays until then even if the fresh pane no longer waits: the person must see it.
  const said = c.parts.said;
  const moved = c.pane.state !== p.state;
  if (said.textContent && ((moved && !said.classList.contains('warn')) || (moved && waiting))) said.textContent = '';
  c.pane = p;
  const busy = p.state === 'RUNNING' || p.state === 'LONG_RUNNING';
  attr(c, 'title', busy ? `this turn began at ${clock(p.startedAt)}` : `in ${p.state} since ${clock(p.since)}`, c.parts.age);
  tickCard(c, now);
}

/** The ticking "how long". */
export function tickCard(c: Card, now: number): void {
  text(c, 'age', howLong(c.pane, now));
}
