// Hands one xterm its writes a piece at a time, each parsed at once, and yields the thread between pieces once
// parsing has held it for the shared slice (ParseBudget). xterm's own queue parses a write that finds it empty only
// on a later timer turn, and yields every 12 ms with setTimeout, which Node clamps to at least 1 ms: a replay or a
// flood parsed in xterm's slices sat idle about 1 ms in 13. Here nothing waits in xterm's queue: a write that finds
// the pump empty is parsed at once, as before; queued pieces wait for a setImmediate once the slice is spent, so the
// event loop serves I/O and timers, then parsing goes on without a clamped timer.
//
// When xterm's parser is reachable, a piece goes to it straight (XtermParser), not through term.write(): xterm's write
// queue, fed one piece at a time, read the clock twice, dropped and regrew its two arrays and fired an event for
// each piece (on the bench's synthetic session the pump's allocations per 16 MiB went from 17.5 MB to 3 MB).
import type { Terminal } from '@xterm/headless';
import type { ParseBudget } from './parse-budget.js';
import { xtermInternals, type XtermParser } from './xterm-internals.js';

export type { XtermParser } from './xterm-internals.js';

/** The terminal's parser, or null when its internals are not reachable (writes then go through term.write()). */
export function xtermParser(term: Terminal): XtermParser | null {
  return xtermInternals(term).parser;
}

/** Characters handed to xterm in one write(): xterm checks the time only between writes, and 4 K of the costliest
 * bytes no handler checks (printing in insert mode or line feeds on a 1000-column pane, 2-3.5 µs a character) parse
 * in about 10 ms. */
export const MAX_WRITE_PIECE = 4 << 10;

interface Piece {
  text: string;
  done: (() => void) | undefined;
}
/** The ring's first size (a power of two, as every size after it). */
const INITIAL_RING = 16;

export class WritePump {
  /** Pieces not handed over yet: a ring (`size` of them from `head`), grown by doubling (no Array.shift() per
   * piece, which moves the whole queue). */
  private ring: Array<Piece | undefined> = new Array<Piece | undefined>(INITIAL_RING);
  private head = 0;
  private size = 0;
  /** A piece is in xterm and not parsed yet: its parse paused (a costly sequence yielded), or it is being parsed. */
  private inXterm = false;
  /** The pump's loop is running (a write from a done callback only queues). */
  private pumping = false;
  private scheduled = false;
  /** A piece was parsed since the pump last went on (a later turn gives the others their turn first if so). */
  private hadTurn = false;
  private current: (() => void) | undefined;
  private disposed = false;

  /**
   * @param parseAtOnce makes xterm parse the next term.write() now, not on a later timer turn
   *   (PaneScreen.parseAtOnce); used only when `parser` is null.
   * @param parser xterm's parser (xtermParser(term)), fed directly; null: pieces go through term.write().
   */
  constructor(
    private readonly term: Terminal,
    private readonly parseAtOnce: () => void,
    private readonly budget: ParseBudget,
    private readonly parser: XtermParser | null = xtermParser(term),
  ) {}

  /** Queue `text`; `done` runs once it is on the screen (in write order). A write that finds nothing queued is
   * parsed at once whatever the slice says (as xterm's user-input path would): a live pane's screen is never read
   * between two of its writes only because parsing waited for a later turn; only queued pieces wait for one. */
  write(text: string, done?: () => void): void {
    const idle = this.size === 0 && !this.inXterm && !this.pumping;
    if (text.length <= MAX_WRITE_PIECE) this.push({ text, done });
    else {
      for (let i = 0; i < text.length; i += MAX_WRITE_PIECE) {
        const end = i + MAX_WRITE_PIECE;
        this.push({ text: text.slice(i, end), done: end >= text.length ? done : undefined });
      }
    }
    this.pump(idle);
  }

  /** Pieces not parsed yet are dropped; their callbacks still run (a flush() awaiting one must not hang). */
  dispose(): void {
    this.disposed = true;
    const left: Piece[] = [];
    for (let p = this.shift(); p; p = this.shift()) left.push(p);
    for (const p of left) p.done?.();
  }

  /** `atOnce`: the first piece is handed over without asking the budget. */
  private pump(atOnce = false): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let first = atOnce; !this.inXterm && !this.disposed; first = false) {
        if (this.size === 0) return;
        if (!first && this.budget.spent()) {
          this.schedule();
          return;
        }
        this.hadTurn = true;
        const piece = this.shift()!;
        this.inXterm = true;
        this.current = piece.done;
        if (this.parser) this.parse(piece.text, undefined);
        else {
          this.parseAtOnce();
          this.term.write(piece.text, this.parsed);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private push(piece: Piece): void {
    const ring = this.ring;
    if (this.size === ring.length) {
      // Grown in order: the oldest piece first.
      const grown = new Array<Piece | undefined>(ring.length * 2);
      for (let i = 0; i < this.size; i++) grown[i] = ring[(this.head + i) & (ring.length - 1)];
      this.ring = grown;
      this.head = 0;
    }
    this.ring[(this.head + this.size) & (this.ring.length - 1)] = piece;
    this.size++;
  }

  private shift(): Piece | undefined {
    if (this.size === 0) return undefined;
    const piece = this.ring[this.head];
    this.ring[this.head] = undefined; // the queue does not keep a parsed piece's text alive
    this.head = (this.head + 1) & (this.ring.length - 1);
    this.size--;
    return piece;
  }

  /** Parses `text` with xterm's parser; a parse a handler paused (its Promise) resumes where it stopped once the
   * Promise settles, as xterm's write queue resumes it. Handlers here only ever resolve (ParseBudget.check); a
   * rejection is taken as xterm takes it, as the answer false. */
  private parse(text: string, resumed: boolean | undefined): void {
    if (this.disposed) return this.parsed(); // the terminal is gone: nothing to resume, but the callback still runs
    const paused = this.parser!.parse(text, resumed);
    if (paused) {
      paused.then(
        (r) => this.parse(text, r),
        () => this.parse(text, false),
      );
      return;
    }
    this.parsed();
  }

  /** xterm parsed the piece: in the write call itself, or later when a paused parse resumed. */
  private readonly parsed = (): void => {
    this.inXterm = false;
    const done = this.current;
    this.current = undefined;
    done?.();
    // Resumed after a pause: go on once xterm's own loop has returned (a write now would wait in its queue).
    if (!this.pumping) this.schedule();
  };

  /** Goes on in a later turn, in the budget's fair order (ParseBudget.later). */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.budget.later(this.resume, this.hadTurn);
    this.hadTurn = false;
  }

  private readonly resume = (): void => {
    this.scheduled = false;
    this.hadTurn = false;
    this.pump();
  };
}
