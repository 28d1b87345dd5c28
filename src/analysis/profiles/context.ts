// What a profile may know besides the screen: the config and a few facts the analyzer tracks over time.
import type { Config } from '../../config/config.js';
import type { ScreenSnapshot } from '../../screen/types.js';
import type { Classification, Verdict } from '../types.js';
import type { ProgramId } from '../../config/config.js';
import type { FullscreenMode } from '../fullscreen-activity.js';

export interface ProfileContext {
  cfg: Config;
  /** The window title is animating (a glyph changed recently): a spinner in the title, not a static icon. */
  titleAnimating: boolean;
  /** The title keeps changing (three changes within the window): a spinner whatever its glyphs. */
  titleSpinning?: boolean;
  /** The line the person last submitted: its echo on screen is their words, no question put to them. */
  prompt?: string;
  /** The pane has switched bracketed paste on at least once (bash/zsh/fish line editors do at each prompt). */
  bracketedPasteSeen: boolean;
  /** Since the shell last accepted a command (bracketed paste off), the program it started showed a prompt of its
   * own (a REPL): bracketed paste staying off no longer means "a command is running". */
  foregroundPrompted: boolean;
  /** Absolute row (baseY + cursorY) where the last prompt was submitted, if a turn is armed: the live edge of a
   * line-oriented program starts below it. */
  anchorRow?: number;
  /** On the alternate screen: the program animates by itself, or has waited on the person's keys for a while;
   * null = not known yet, or not on the alternate screen. */
  fullscreen?: FullscreenMode | null;
  /** The program redraws rows above its cursor (an inline TUI, tui-facts.ts): a TUI whatever the rows below show. */
  inPlace?: boolean;
  /** The screen's rows when the person last pressed Enter, each with its count: an error already on screen then (a
   * failed update check every screen shows, an older turn's failure) is not this turn's. */
  atEnter?: ReadonlyMap<string, number>;
  /** Rows of questions the person has answered, with their counts: their text left on screen asks nothing. */
  answered?: ReadonlyMap<string, number>;
}

export type Classifier = (snap: ScreenSnapshot, ctx: ProfileContext) => Classification;

export function verdict(program: ProgramId, v: Verdict, rule: string, line: string, liveEdge: string[], explicit = false): Classification {
  return { verdict: v, rule: `${program}.${rule}`, line: line.trim(), explicit, liveEdge, program };
}
