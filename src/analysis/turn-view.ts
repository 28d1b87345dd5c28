// What the turn's rules (turn-rules.ts) read and do: one evaluation's view of a pane's analyzer. The facts are asked
// lazily and in the order a rule's guard names them (some, like a stability window, start when first asked). Pure.
import type { Config, Thresholds } from '../config/config.js';
import type { Classification, SignalType, Tier } from './types.js';
import type { Phase } from './time-windows.js';
import type { Anchor } from './turn-anchor.js';

export interface TurnView {
  // ---- this evaluation --------------------------------------------------------------------------------------
  readonly t: number;
  /** The screen's classification now. */
  readonly cls: Classification;
  /** 2 when a profile read the screen, 3 when the generic tier did. */
  readonly tier: Tier;
  readonly th: Thresholds;
  cfg(): Config;

  // ---- the turn ------------------------------------------------------------------------------------------------
  /** The machine's phase now (a rule that speaks may move it). */
  phase(): Phase;
  /** The prompt's anchor, while its turn has not ended. */
  anchor(): Anchor | null;
  /** The pane shows the program's start-up: no turn seen yet, no Tier 1 signal ever. */
  startingUp(): boolean;
  /** A queued message's turn may start by itself now (work right after a DONE, no key typed). */
  followUpDue(): boolean;
  /** Seconds the screen has read `working` without a break. */
  workingFor(): number;
  /** Seconds since the last meaningful change or the prompt, whichever is later. */
  quietFor(): number;
  /** Esc was pressed during this turn. */
  interruptSeen(): boolean;
  /** This turn animated (frames, an interrupt hint, a spinning title): its end is the frames stopping. */
  animated(): boolean;
  /** A pager or editor holds the foreground, at rest on the person's keys. */
  parked(): boolean;

  // ---- the screen ------------------------------------------------------------------------------------------------
  /** The program is one no profile reads (the generic tier's). */
  unprofiled(): boolean;
  /** The generic tier reads this screen as an agent's TUI. */
  genericTui(): boolean;
  /** The verdict's line shows an interrupt hint (any wording the config knows). */
  interruptHint(): boolean;
  /** A line editor has ever switched bracketed paste on here (a shell's or a REPL's prompt). */
  bracketedPasteSeen(): boolean;
  /** A TUI without a profile is drawing (its start-up, or frames caught mid-redraw): no line of output. */
  tuiDrawing(): boolean;
  /** Output that passed the newline gate and the burst size just now: its line, else null. */
  recentOutput(): string | null;
  /** All visible rows (an interrupt hint may sit anywhere on screen). */
  screen(): readonly string[];
  /** The cursor row's text. */
  cursorRow(): string;
  /** A question on screen has held long enough to be one put to the person. */
  waitConfirmed(): boolean;
  /** The ready/failed verdict has held with an unchanged live edge for `window` seconds. */
  stable(window: number): boolean;

  // ---- a question put to the person -------------------------------------------------------------------------------
  /** The program redrew since it asked (or an answering key's redraw on a TUI whose frames are read). */
  redrawnSinceAsked(): boolean;
  /** The person answered: a prompt submitted since, a redraw, or the question dismissed. */
  answered(): boolean;
  /** The screen is not the one that asked. */
  changedSinceAsked(): boolean;

  // ---- acts ------------------------------------------------------------------------------------------------------
  /** Send a signal through the gates (turn-gates.ts); `tier` defaults to the screen's. */
  speak(type: SignalType, rule: string, line: string, tier?: Tier): void;
  /** Work seen: a ready screen's window starts again, a queued follow-up counts it. */
  workSeen(): void;
  markAnimated(): void;
  park(): void;
  /** The long-idle re-emit of IDLE, when due. */
  reemitIdle(): void;
  /** STALLED when a turn made no progress for stall_after_s. */
  checkStall(): void;
}
