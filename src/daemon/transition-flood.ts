// A pane that moves faster than a person could act on it floods: a `cat` of a file full of OSC 133 marks made
// 49,000 transitions a second, each a history row, a websocket message, a log line and a candidate notification,
// and froze the daemon. The pane's state machine still sees every move (its state stays right); what leaves the
// pane is bounded here: a burst of FLOOD_BURST transitions, then one per FLOOD_REFILL_S, each published one standing
// for all held since (from what was last published to where the pane is now). The pane says "flooding" meanwhile
// (PaneMonitor.flooding: the dashboard card, /api/panes), and once it has made no transition for FLOOD_QUIET_S the
// flood is over: the last held move is published and the pane reads as ever. Time is the pane's clock (replay runs
// it virtually, so a recorded flood replays the same).
import type { Clock } from '../state/clock.js';
import type { Transition } from '../state/pane-machine.js';

/** Transitions a pane may publish back to back (a shell's quick commands, an agent's busy minute): far more than a
 * person's session makes in a few seconds, far fewer than a flood makes in a millisecond. */
export const FLOOD_BURST = 40;
/** Once the burst is spent, one more transition may be published per this many seconds (a person reads a state,
 * then acts: no faster than this). */
export const FLOOD_REFILL_S = 2;
/** A flooding pane that has made no transition for this long (s) has stopped flooding. */
export const FLOOD_QUIET_S = 3;

/** A pane flooding: since when (pane seconds) and how many of its transitions were held back so far. */
export interface FloodState {
  since: number;
  held: number;
}

export class TransitionFlood {
  private tokens = FLOOD_BURST;
  private refilledAt = 0;
  /** What listeners were last told (its `to` is the state they believe). */
  private published: Transition | null = null;
  /** The latest transition held back, unpublished. */
  private pending: Transition | null = null;
  private lastHeldAt = 0;
  /** Transitions held since the last one published. */
  private unpublished = 0;
  private timer: unknown = null;
  /** Non-null while the pane floods. */
  flooding: FloodState | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly publish: (tr: Transition) => void,
    /** Told when the pane starts or stops flooding. */
    private readonly changed: () => void = () => {},
  ) {}

  /** Each transition the pane's machine made, in order. */
  offer(tr: Transition): void {
    this.refill(tr.t);
    if (!this.flooding) {
      if (this.tokens >= 1) {
        this.tokens--;
        this.send(tr);
        return;
      }
      this.flooding = { since: tr.t, held: 0 };
      this.changed();
    }
    this.flooding.held++;
    this.unpublished++;
    this.pending = tr;
    this.lastHeldAt = tr.t;
    if (this.tokens >= 1 && this.moves(tr)) {
      this.tokens--;
      this.send(this.coalesced(tr));
    }
    this.arm(FLOOD_QUIET_S);
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private refill(t: number): void {
    const earned = Math.floor((t - this.refilledAt) / FLOOD_REFILL_S);
    if (earned <= 0) return;
    this.tokens = Math.min(FLOOD_BURST, this.tokens + earned);
    this.refilledAt += earned * FLOOD_REFILL_S;
  }

  /** One timer for the whole flood (not one per held transition): when it fires early, it waits the rest. */
  private arm(s: number): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      const quietFor = this.clock.now() / 1000 - this.lastHeldAt;
      if (quietFor < FLOOD_QUIET_S) this.arm(FLOOD_QUIET_S - quietFor);
      else this.end();
    }, s * 1000);
  }

  private end(): void {
    const tr = this.pending;
    if (tr && this.moves(tr)) this.send(this.coalesced(tr));
    this.flooding = null;
    this.changed();
  }

  /** The held transition goes somewhere other than where listeners believe the pane is. */
  private moves(tr: Transition): boolean {
    const p = this.published;
    return !p || p.to !== tr.to || p.stalled !== tr.stalled;
  }

  /** `tr`, from where listeners last saw the pane, saying how many moves it stands for. */
  private coalesced(tr: Transition): Transition {
    const line = `flooding: ${this.unpublished} transitions coalesced${tr.line ? ` — ${tr.line}` : ''}`;
    return { ...tr, from: this.published?.to ?? tr.from, line };
  }

  private send(tr: Transition): void {
    this.published = tr;
    this.pending = null;
    this.unpublished = 0;
    this.publish(tr);
  }
}
