// The list of cards. Messages only record what changed; one requestAnimationFrame per frame applies it: changed
// cards are updated in place, the order is fixed with as few moves as needed, and the ages tick once a second.
// Closed panes go to their own collapsed section, so a closed pane never sits among live ones of the same name.
// The order holds still while the pointer is over the board (issue 26): a card the person aims at never slides
// away, and another pane's button never slides under the pointer; the board catches up when the pointer leaves.
import type { PaneView } from '../../src/web/api-types.js';
import { createCard, tickCard, updateCard, type Card, type CardHooks } from './cards.js';
import { cardsToMove, comparePanes, isClosedSection, orderKeyChanged } from './order.js';
import { inFilter, type BoardFilter } from './board-filter.js';
import type { TaskStatus } from './task-model.js';
import { showsHost } from './host-filter.js';

export class Board {
  private readonly panes = new Map<string, PaneView>();
  private readonly cards = new Map<string, Card>();
  private readonly dirty = new Set<string>();
  /** The status of the task driving each pane, if one does (the card's badge). */
  private readonly tasks = new Map<string, TaskStatus>();
  /** The header's host filter ('' : every host). */
  private host = '';
  /** The header's state filter. */
  private filter: BoardFilter = 'all';
  /** The pointer is over the board: the order waits, and so do cards leaving or joining the filter and cards of
   * panes gone (kept as blank space), since any of these would slide other cards under the pointer. */
  private held = false;
  /** Cards whose showing or removal waits for the hold to end. */
  private readonly deferred = new Set<string>();
  /** The person changed a filter: what it shows changes now, held or not (they asked for it). */
  private refilter = false;
  /** Cards updated while held keep the height they had (a card that shrinks or grows would shift the ones after it
   * under the pointer); given back when the hold ends. */
  private readonly pinned = new Set<HTMLElement>();
  private orderDirty = false;
  /** Cards moved so far (a card inserted at another place counts once; a new card is not a move). */
  moves = 0;
  /** Told whether a new order is waiting for the pointer to leave the board. */
  onHeld: (waiting: boolean) => void = () => {};
  private ticking = false;
  private queued = false;
  /** Listeners after each applied frame (the header's counts, the tab title). */
  onRendered: (panes: ReadonlyMap<string, PaneView>) => void = () => {};

  constructor(
    private readonly list: HTMLElement,
    private readonly empty: HTMLElement,
    private readonly hooks: CardHooks,
    /** The closed panes' section (a <details>) and its list. */
    private readonly closed: { box: HTMLElement; list: HTMLElement; count: HTMLElement },
    /** Where a resting pointer holds the order (both lists). */
    area: HTMLElement,
  ) {
    // a mouse resting over the board, a pen hovering, a finger from touch to lift; not while the person is in another
    // window or tab (they look before they click when they come back, and the first move over the board holds again)
    for (const ev of ['pointerenter', 'pointermove', 'pointerdown'] as const) area.addEventListener(ev, () => this.hold(true));
    area.addEventListener('pointerleave', () => this.hold(false));
    window.addEventListener('blur', () => this.hold(false));
    document.addEventListener('visibilitychange', () => document.hidden && this.hold(false));
    window.setInterval(() => {
      this.ticking = true;
      this.schedule();
    }, 1000);
  }

  get(id: string): PaneView | undefined {
    return this.panes.get(id);
  }

  /** The hello: every pane the daemon knows; the ones not in it are gone. */
  reset(panes: PaneView[]): void {
    const keep = new Set(panes.map((p) => p.id));
    for (const id of this.panes.keys()) if (!keep.has(id)) this.remove(id);
    for (const p of panes) this.upsert(p);
  }

  upsert(p: PaneView): void {
    if (orderKeyChanged(this.panes.get(p.id), p)) this.orderDirty = true;
    this.panes.set(p.id, p);
    this.dirty.add(p.id);
    this.schedule();
  }

  /** The task driving pane `id` now (null: none). */
  setTask(id: string, status: TaskStatus | null): void {
    if ((this.tasks.get(id) ?? null) === status) return;
    if (status) this.tasks.set(id, status);
    else this.tasks.delete(id);
    if (!this.panes.has(id)) return;
    this.dirty.add(id);
    this.schedule();
  }

  /** Show only the panes of one host (a name, LOCAL for this machine's, '' for all). */
  setHostFilter(value: string): void {
    if (value === this.host) return;
    this.host = value;
    this.refilter = true;
    for (const id of this.panes.keys()) this.dirty.add(id);
    this.schedule();
  }

  /** Show only the live panes in group `f` ('all': every one). */
  setFilter(f: BoardFilter): void {
    if (f === this.filter) return;
    this.filter = f;
    this.refilter = true;
    for (const id of this.panes.keys()) this.dirty.add(id);
    this.schedule();
  }

  /** The person changed how cards look (the compact view): the heights kept while held are theirs no more. */
  unpin(): void {
    for (const li of this.pinned) li.style.height = li.style.overflow = '';
    this.pinned.clear();
  }

  private hold(on: boolean): void {
    if (on === this.held) return;
    this.held = on;
    if (!on) {
      this.unpin();
      for (const id of this.deferred) this.dirty.add(id);
      this.deferred.clear();
      if (this.orderDirty || this.dirty.size) this.schedule();
    }
    this.onHeld(on && this.orderDirty);
  }

  remove(id: string): void {
    if (!this.panes.delete(id)) return;
    this.dirty.add(id);
    this.schedule();
  }

  private schedule(): void {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => this.frame());
  }

  private frame(): void {
    this.queued = false;
    const now = Date.now();
    // held: the heights of the cards about to change, read before any write (the layout is still clean)
    const heights = new Map<string, number>();
    if (this.held) {
      for (const id of this.dirty) {
        const li = this.cards.get(id)?.li;
        if (li && !this.pinned.has(li) && li.isConnected) heights.set(id, li.getBoundingClientRect().height);
      }
    }
    for (const id of this.dirty) {
      const p = this.panes.get(id);
      const card = this.cards.get(id);
      if (!p) {
        if (card && this.held) {
          // gone while held: blank space until the pointer leaves
          card.li.style.visibility = 'hidden';
          card.li.inert = true;
          this.deferred.add(id);
          continue;
        }
        card?.li.remove();
        this.cards.delete(id);
      } else if (card) {
        if (card.li.inert) {
          card.li.inert = false;
          card.li.style.visibility = '';
        }
        updateCard(card, p, now, this.tasks.get(id) ?? null);
        const h = heights.get(id);
        if (h) {
          card.li.style.height = `${h}px`;
          card.li.style.overflow = 'hidden';
          this.pinned.add(card.li);
        }
      } else {
        const fresh = createCard(p, this.hooks, this.tasks.get(id) ?? null);
        this.cards.set(id, fresh);
        // while the order is held a new card waits at the end of its list, where it moves nothing
        if (this.held) (isClosedSection(p) ? this.closed.list : this.list).append(fresh.li);
        this.orderDirty = true;
      }
      const shown = this.cards.get(id);
      if (!p || !shown) continue;
      const hide = !showsHost(this.host, p) || (p.alive && !inFilter(this.filter, p));
      if (hide === shown.li.hidden) continue;
      // a card already placed keeps showing (or not) while held; a new one sits at the end, where it moves nothing
      if (this.held && !this.refilter && card) this.deferred.add(id);
      else shown.li.hidden = hide;
    }
    this.dirty.clear();
    this.refilter = false;
    if (this.orderDirty && !this.held) this.reorder();
    this.onHeld(this.held && (this.orderDirty || this.deferred.size > 0));
    if (this.ticking) for (const c of this.cards.values()) tickCard(c, now);
    this.ticking = false;
    const closed = this.closed.list.childElementCount;
    this.empty.hidden = this.panes.size > 0;
    this.list.hidden = this.panes.size - closed === 0;
    this.closed.box.hidden = closed === 0;
    const count = String(closed);
    if (this.closed.count.textContent !== count) this.closed.count.textContent = count;
    this.onRendered(this.panes);
  }

  private reorder(): void {
    this.orderDirty = false;
    const sorted = [...this.panes.values()].sort(comparePanes);
    const focused = document.activeElement;
    // live cards first (a card leaving for the closed section trails them until the second pass takes it)
    for (const [list, panes] of [[this.list, sorted.filter((p) => !isClosedSection(p))], [this.closed.list, sorted.filter(isClosedSection)]] as const) {
      const current = [...list.children].map((li) => (li as HTMLElement).dataset.id ?? '');
      const wanted = panes.map((p) => p.id);
      const move = cardsToMove(current, wanted);
      // from the end: each card that moves goes right before its successor, which is already in place
      let next: Element | null = null;
      for (let i = wanted.length - 1; i >= 0; i--) {
        const li = this.cards.get(wanted[i]!)!.li;
        if (move.has(wanted[i]!)) {
          if (li.isConnected) this.moves++;
          list.insertBefore(li, next);
        }
        next = li;
      }
    }
    // a moved card loses focus: give it back so keyboard users keep their place
    if (focused instanceof HTMLElement && focused !== document.activeElement && focused.isConnected) focused.focus({ preventScroll: true });
  }
}
