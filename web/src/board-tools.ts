// The board's triage tools: a filter by state (each button with its count) and a compact view (one line per card,
// no live edge), both remembered in localStorage; and the note that a new order waits for the pointer to leave.
import { byId, el } from './dom.js';
import { FILTER_LABEL, FILTERS, type BoardCounts, type BoardFilter } from './board-filter.js';

const KEY = 'termsupervisor.board';

interface Remembered {
  filter: BoardFilter;
  compact: boolean;
}

function recall(): Remembered {
  const r: Remembered = { filter: 'all', compact: false };
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Remembered>;
    if (FILTERS.includes(v.filter as BoardFilter)) r.filter = v.filter as BoardFilter;
    if (typeof v.compact === 'boolean') r.compact = v.compact;
  } catch {
    // a damaged entry: the defaults
  }
  return r;
}

export class BoardTools {
  private readonly state = recall();
  private readonly buttons = new Map<BoardFilter, { b: HTMLButtonElement; n: HTMLElement }>();
  private readonly held = byId('order-held');

  constructor(
    private readonly onFilter: (f: BoardFilter) => void,
    private readonly board: HTMLElement,
    /** The compact view was switched (cards change height). */
    private readonly onCompact: () => void = () => {},
  ) {
    const box = byId('filters');
    for (const f of FILTERS) {
      const b = el('button', 'filter');
      b.type = 'button';
      b.dataset.filter = f;
      const n = el('span', 'filter-count');
      b.append(FILTER_LABEL[f], ' ', n);
      b.addEventListener('click', () => this.pick(f));
      box.append(b);
      this.buttons.set(f, { b, n });
    }
    const compact = byId<HTMLInputElement>('compact');
    compact.checked = this.state.compact;
    compact.addEventListener('change', () => {
      this.state.compact = compact.checked;
      this.apply();
      this.onCompact();
    });
    this.apply();
  }

  private pick(f: BoardFilter): void {
    this.state.filter = f;
    this.apply();
  }

  private apply(): void {
    for (const [f, { b }] of this.buttons) b.setAttribute('aria-pressed', String(f === this.state.filter));
    this.board.classList.toggle('compact', this.state.compact);
    this.onFilter(this.state.filter);
    try {
      localStorage.setItem(KEY, JSON.stringify(this.state));
    } catch {
      // storage refused (private mode): the choice lasts this page
    }
  }

  /** Each filter's count, written only when it changed. */
  counts(c: BoardCounts): void {
    for (const [f, { n }] of this.buttons) {
      const t = String(f === 'all' ? c.open : c.by[f]);
      if (n.textContent !== t) n.textContent = t;
    }
  }

  /** A new order waits for the pointer to leave the board. */
  orderHeld(waiting: boolean): void {
    if (this.held.hidden === !waiting) return;
    this.held.hidden = !waiting;
  }
}
