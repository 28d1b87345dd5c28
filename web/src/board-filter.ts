// Triage at 100 panes: which live panes a state filter shows, and the header's count. "Needs an answer or a look"
// is a question waiting (answer) or a failure or stall not yet acknowledged (look); a finished turn is counted apart
// ("done"), so 55 DONE panes do not read as 55 things to do.
import type { PaneView } from '../../src/web/api-types.js';

export const FILTERS = ['all', 'answer', 'look', 'done', 'working', 'idle'] as const;
export type BoardFilter = (typeof FILTERS)[number];

/** The filter buttons' words. */
export const FILTER_LABEL: Record<BoardFilter, string> = { all: 'All', answer: 'To answer', look: 'To look at', done: 'Done', working: 'Working', idle: 'Idle' };

type Shown = Pick<PaneView, 'alive' | 'state' | 'stalled' | 'needsYou'>;

/** Whether live pane `p` is in the group `f` names. */
export function inFilter(f: BoardFilter, p: Shown): boolean {
  switch (f) {
    case 'all':
      return true;
    case 'answer':
      return p.alive && p.state === 'WAITING_APPROVAL';
    case 'look':
      return p.alive && p.needsYou && p.state !== 'WAITING_APPROVAL' && (p.state === 'FAILED' || p.stalled);
    case 'done':
      return p.alive && p.state === 'DONE';
    case 'working':
      return p.alive && (p.state === 'RUNNING' || p.state === 'LONG_RUNNING');
    case 'idle':
      return p.alive && p.state === 'IDLE';
  }
}

export interface BoardCounts {
  open: number;
  by: Record<BoardFilter, number>;
}

export function countPanes(panes: Iterable<Shown>): BoardCounts {
  const by = Object.fromEntries(FILTERS.map((f) => [f, 0])) as Record<BoardFilter, number>;
  let open = 0;
  for (const p of panes) {
    if (!p.alive) continue;
    open++;
    for (const f of FILTERS) if (inFilter(f, p)) by[f]++;
  }
  return { open, by };
}

/** The header: "12 open · 1 to answer · 2 to look at" (what needs the person, nothing else). */
export function summaryText(c: BoardCounts): string {
  return `${c.open} open · ${c.by.answer} to answer · ${c.by.look} to look at`;
}

/** What the tab title counts: the panes that need an answer or a look. */
export function needsCount(c: BoardCounts): number {
  return c.by.answer + c.by.look;
}
