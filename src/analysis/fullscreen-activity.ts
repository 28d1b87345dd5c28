// A full-screen program (the alternate screen: less, man, vim, nano, watch, htop, an agent's TUI) either waits on
// the person's keys or redraws by itself. Output that answers a key (within key_response_s of it) is the program
// serving the person; output it makes on its own, frame after frame, is animation (a spinner, a clock, a monitor's
// refresh). No frame of its own for the rest window means it waits on the person: at rest, never LONG_RUNNING or
// stalled. The same reading serves an agent's TUI on the main screen (an input box with a footer below it), where a
// turn's own frames stopping is its end (turn_rest_s). Pure.
import type { Config } from '../config/config.js';

export type FullscreenMode = 'animating' | 'resting';
/** A hinted turn on an agent's TUI is under way (true), and its input row is back and empty ('input_back'). */
export type TurnRest = boolean | 'input_back';

export class FullscreenActivity {
  /** The last three redraws the program made by itself on the alternate screen (newest last), and where their run
   * began (a run: redraws each within the rest window of the one before). */
  private readonly self = [-Infinity, -Infinity, -Infinity];
  private runStart = -Infinity;
  /** When the alternate screen was last switched on, or a key last reached the program: it gets a rest window from
   * then to show frames of its own (-Infinity: never). */
  private since = -Infinity;

  constructor(private readonly th: Config['thresholds']) {}

  noteAltScreen(t: number, on: boolean): void {
    if (!on) return;
    this.since = t;
    this.self.fill(-Infinity);
    this.runStart = -Infinity;
  }

  /** The turn these frames belonged to is over: its frames are forgotten, and a new run starts afresh. */
  settle(t: number): void {
    this.since = Math.max(this.since, t);
    this.self.fill(-Infinity);
    this.runStart = -Infinity;
  }

  /** A key reached the program: what it does next may be an answer, or work it now starts on its own. */
  noteKey(t: number): void {
    this.since = Math.max(this.since, t);
  }

  /** A change was read on the alternate screen; `selfDriven`: some of its output came with no key to answer;
   * `redrawn`: rows changed. */
  noteChange(t: number, selfDriven: boolean, redrawn: boolean): void {
    if (!selfDriven || !redrawn) return;
    if (t - this.last > this.window()) this.runStart = t;
    this.self.shift();
    this.self.push(t);
  }

  private get last(): number {
    return this.self[2]!;
  }

  /** How long the program must stay silent on its own to be at rest. A program seen redrawing at a steady slow pace
   * (watch -n 5: two equal gaps) gets its period times a factor; a person paging now and then keeps no such pace. */
  private window(inTurn: TurnRest = false): number {
    const th = this.th;
    // A turn whose interrupt hint has gone is over once its frames stop: a pace read from a few sparse frames (a
    // start-up, a question, an answer) is no monitor's. Its input row back and empty says so sooner.
    if (inTurn === 'input_back') return th.turn_input_rest_s;
    if (inTurn) return th.turn_rest_s;
    const [a, b, c] = this.self as [number, number, number];
    const gap = c - b;
    const steady = gap <= th.fullscreen_max_period_s && Math.abs(gap - (b - a)) <= gap * th.fullscreen_cadence_tolerance;
    return Math.max(th.fullscreen_rest_s, steady ? gap * th.fullscreen_period_factor : 0);
  }

  /** At `t`, on a screen read this way (`active`): animating, resting, or not yet known (null). `inTurn`: a turn the
   * person started is under way, whose end is its frames stopping (turn_rest_s), not a wait on keys. */
  mode(t: number, active: boolean, inTurn: TurnRest = false): FullscreenMode | null {
    if (!active) return null;
    const w = this.window(inTurn);
    // Frames of its own over a while (one page drawn in two writes is not an animation), the last one recent.
    if (t - this.last <= w && this.last - this.runStart >= this.th.fullscreen_animation_s) return 'animating';
    return t - Math.max(this.last, this.since) >= w ? 'resting' : null;
  }

  /** The next time the mode can change by time alone (Infinity: none). */
  deadline(t: number, active: boolean, inTurn: TurnRest = false): number {
    if (!active) return Infinity;
    const end = Math.max(this.last, this.since) + this.window(inTurn);
    return end > t ? end : Infinity;
  }
}
