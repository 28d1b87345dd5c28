// What tmux shows of the panes' states (issue 29): the values of the user options the daemon sets on the person's
// tmux server, computed from the panes' views. Pure: states in, option values out. Glyphs and colours are the
// board's (src/web/state-words.ts, src/cli/colors.ts); a pane at rest shows nothing (its options are unset).
//
//   pane    @termsupervisor_state   waiting | failed | stalled | done | running
//   window  @termsupervisor_state   the most urgent of its panes'     @termsupervisor_mark   that state's glyph, coloured
//   session @termsupervisor_needs   panes that need you (waiting, failed, stalled, done)   and one count per state:
//           @termsupervisor_waiting  @termsupervisor_failed  @termsupervisor_stalled  @termsupervisor_done  @termsupervisor_running
//   server  the same counts over every session, and @termsupervisor_status: the counts, coloured, for status-right
import type { MachineState } from '../../analysis/types.js';
import { STALL_ICON, STATE_ICON } from '../../web/state-words.js';
import { PALETTE } from '../../cli/colors.js';

/** The dashboard's card background (web/style.css --panel). */
const PALETTE_PANEL = '#161b22';

export type Mark = 'waiting' | 'failed' | 'stalled' | 'done' | 'running';

/** Urgency order (the board's): a question first, then a failure, a stall, a finished turn, work going on. */
export const MARKS: Mark[] = ['waiting', 'failed', 'stalled', 'done', 'running'];

export const MARK_GLYPH: Record<Mark, string> = {
  waiting: STATE_ICON.WAITING_APPROVAL,
  failed: STATE_ICON.FAILED,
  stalled: STALL_ICON,
  done: STATE_ICON.DONE,
  running: STATE_ICON.RUNNING,
};

const MARK_COLOUR: Record<Mark, string> = {
  waiting: PALETTE.waiting,
  failed: PALETTE.failed,
  stalled: PALETTE.stalled,
  done: PALETTE.done,
  running: PALETTE.running,
};

/** The options' names. */
export const OPT = {
  state: '@termsupervisor_state',
  mark: '@termsupervisor_mark',
  needs: '@termsupervisor_needs',
  status: '@termsupervisor_status',
  count: (m: Mark) => `@termsupervisor_${m}`,
} as const;

export interface PaneStateLike {
  state: MachineState;
  stalled: boolean;
  alive: boolean;
}

/** A pane's mark, or null at rest (IDLE, closed). */
export function markOf(p: PaneStateLike): Mark | null {
  if (!p.alive) return null;
  if (p.state === 'WAITING_APPROVAL') return 'waiting';
  if (p.state === 'FAILED') return 'failed';
  if (p.stalled) return 'stalled';
  if (p.state === 'DONE') return 'done';
  if (p.state === 'RUNNING' || p.state === 'LONG_RUNNING') return 'running';
  return null;
}

/** The more urgent of two marks. */
export function urgent(a: Mark | null, b: Mark | null): Mark | null {
  if (a === null) return b;
  if (b === null) return a;
  return MARKS.indexOf(a) <= MARKS.indexOf(b) ? a : b;
}

/** The board's panel colour, under every mark: the state colours read on it whatever the status line's own
 * colours are (tmux's default status line is green, on which the done mark would vanish). */
const CHIP_BG = PALETTE_PANEL;

/** One mark's glyph in its colour on the board's panel, in tmux's style syntax (`#[fg=#f0b429,bg=#161b22] ? #[default]`). */
export function styledGlyph(m: Mark): string {
  return `#[fg=${MARK_COLOUR[m]},bg=${CHIP_BG}] ${MARK_GLYPH[m]} #[default]`;
}

export type Counts = Record<Mark, number>;

export function emptyCounts(): Counts {
  return { waiting: 0, failed: 0, stalled: 0, done: 0, running: 0 };
}

/** Panes that need the person: everything but work going on. */
export function needs(c: Counts): number {
  return c.waiting + c.failed + c.stalled + c.done;
}

/** The status-line text for these counts: ` ? 1 ✗ 2 ✓ 3 ◐ 4 ` coloured on the board's panel, each count once
 * non-zero; empty when all are zero. `running` is said last (the work the person need not look at). */
export function statusText(c: Counts, styled = true): string {
  const parts = MARKS.filter((m) => c[m] > 0).map((m) => `${MARK_GLYPH[m]} ${c[m]}`);
  if (!parts.length) return '';
  if (!styled) return parts.join(' ') + ' ';
  const coloured = MARKS.filter((m) => c[m] > 0).map((m, i) => `#[fg=${MARK_COLOUR[m]},bg=${CHIP_BG}] ${parts[i]}`);
  return coloured.join('') + ' #[default] ';
}

/** Where a tmux pane is: its window and the sessions that window is linked into. */
export interface PanePlace {
  /** tmux's pane id (`%3`). */
  pane: string;
  /** Its window's id (`@2`). */
  window: string;
  /** Session ids (`$1`) whose windows hold it (several when the window is linked into several). */
  sessions: string[];
}

/** Option values by target: `p:%3`, `w:@2`, `s:$1`, `g:` → option name → value (absent: unset). */
export type OptionTable = Map<string, Map<string, string>>;

/** The options every place should have, given each pane's mark (panes with no mark set nothing). */
export function presenceOptions(places: PanePlace[], markOfPane: (pane: string) => Mark | null): OptionTable {
  const table: OptionTable = new Map();
  const put = (target: string, name: string, value: string) => {
    let m = table.get(target);
    if (!m) table.set(target, (m = new Map()));
    m.set(name, value);
  };
  const windows = new Map<string, Mark | null>();
  const sessions = new Map<string, Counts>();
  const server = emptyCounts();
  for (const pl of places) {
    const mark = markOfPane(pl.pane);
    table.set(`p:${pl.pane}`, table.get(`p:${pl.pane}`) ?? new Map());
    table.set(`w:${pl.window}`, table.get(`w:${pl.window}`) ?? new Map());
    windows.set(pl.window, urgent(windows.get(pl.window) ?? null, mark));
    for (const s of pl.sessions) {
      if (!sessions.has(s)) sessions.set(s, emptyCounts());
      if (mark) sessions.get(s)![mark]++;
    }
    if (!mark) continue;
    put(`p:${pl.pane}`, OPT.state, mark);
    server[mark]++;
  }
  for (const [w, mark] of windows) {
    if (!mark) continue;
    put(`w:${w}`, OPT.state, mark);
    put(`w:${w}`, OPT.mark, styledGlyph(mark));
  }
  const counts = (target: string, c: Counts) => {
    table.set(target, table.get(target) ?? new Map());
    for (const m of MARKS) if (c[m] > 0) put(target, OPT.count(m), String(c[m]));
    if (needs(c) > 0) put(target, OPT.needs, String(needs(c)));
  };
  for (const [s, c] of sessions) counts(`s:${s}`, c);
  counts('g:', server);
  const text = statusText(server);
  if (text) put('g:', OPT.status, text);
  return table;
}

/** Every option name a target of this kind may carry (what is unset when it has no value). */
export function optionNames(target: string): string[] {
  switch (target[0]) {
    case 'p':
      return [OPT.state];
    case 'w':
      return [OPT.state, OPT.mark];
    case 's':
      return [OPT.needs, ...MARKS.map(OPT.count)];
    default:
      return [OPT.needs, OPT.status, ...MARKS.map(OPT.count)];
  }
}

/** The set-option argument list that makes `target`'s option `name` hold `value` (null: unset it). */
export function setOptionArgs(target: string, name: string, value: string | null): string[] {
  const id = target.slice(2);
  const scope = target[0] === 'p' ? ['-p', '-t', id] : target[0] === 'w' ? ['-w', '-t', id] : target[0] === 's' ? ['-t', id] : ['-g'];
  return value === null ? ['set-option', '-u', ...scope, name] : ['set-option', ...scope, name, value];
}
