// One pane's current reading of its screen: the profile's classification, remembered while nothing it depends on
// changed (the analyzer asks on every tick), plus the facts about the pane that profiles read besides the rows:
// whether the title animates, whether a line editor ever switched bracketed paste on, whether a program started
// from the shell showed a prompt of its own. Pure.
import type { Config, ProgramId } from '../config/config.js';
import type { ScreenSnapshot } from '../screen/types.js';
import { classifyWith } from './profiles/index.js';
import { MIN_ECHO_CHARS, TYPED_INPUT } from './profiles/generic-tui.js';
import type { ProfileContext } from './profiles/context.js';
import type { Classification } from './types.js';
import type { FullscreenMode } from './fullscreen-activity.js';

/** Title changes remembered: enough to tell an animation (two within the window) from a one-off. */
const TITLE_CHANGES_KEPT = 4;
/** Without a profile to say which glyph is a spinner's, a title is animating only after this many changes within the
 * window: a title going Working → Ready at a turn's end changes twice, a spinner keeps changing. */
const TITLE_SPIN_CHANGES = 3;

interface ClassificationInputs {
  program: ProgramId;
  hash: string;
  title: string;
  animating: boolean;
  spinning: boolean;
  bracketedPaste: boolean;
  cursorX: number;
  cursorY: number;
  baseY: number;
  anchorRow: number | undefined;
  bracketedPasteSeen: boolean;
  foregroundPrompted: boolean;
  fullscreen: FullscreenMode | null;
  inPlace: boolean;
  atEnter: ReadonlyMap<string, number> | undefined;
  answered: ReadonlyMap<string, number> | undefined;
}

export class ScreenClassifier {
  private cls: Classification | null = null;
  /** What `cls` was computed from: it is reused while all of these are unchanged. */
  private inputs: ClassificationInputs | null = null;
  private readonly titleChanges: number[] = [];
  /** The pane has switched bracketed paste on at least once (a line editor runs there). */
  bracketedPasteSeen = false;
  /** Since the shell last accepted a command, the program it started showed a prompt of its own (a REPL). */
  foregroundPrompted = false;
  /** The line the person last submitted ('' before any). */
  private prompt = '';
  /** The screen's rows (non-blank, with their counts) when the person last pressed Enter. */
  private atEnter: Map<string, number> | undefined;
  /** Rows of questions the person answered (with their counts): their text left in the transcript asks nothing. */
  private answered: Map<string, number> | undefined;

  constructor(private readonly cfg: Config) {}

  /** The last classification made (null before the first screen). */
  get current(): Classification | null {
    return this.cls;
  }

  /** The full-screen mode the current classification was read with. */
  get fullscreen(): FullscreenMode | null {
    return this.inputs?.fullscreen ?? null;
  }

  /** When the title last changed (undefined: never). */
  get lastTitleChange(): number | undefined {
    return this.titleChanges[this.titleChanges.length - 1];
  }

  noteTitle(t: number): void {
    this.titleChanges.push(t);
    if (this.titleChanges.length > TITLE_CHANGES_KEPT) this.titleChanges.shift();
  }

  /** The person submitted this line (its echo on screen is their words, not the program's). */
  notePrompt(line: string): void {
    if (line === this.prompt) return;
    this.prompt = line;
    this.invalidate();
  }

  /** The program took the submitted prompt: its text stands on more rows than at Enter that are no input row (a
   * prompt glyph before it): the TUI moved it into its transcript as the turn's first message. A TUI that draws the
   * echo exactly as its input row is not told this way. */
  promptTaken(lines: readonly string[]): boolean {
    const prompt = this.prompt.trim();
    const atEnter = this.atEnter;
    if (prompt.length < MIN_ECHO_CHARS || !atEnter) return false;
    const echo = (l: string) => l.includes(prompt) && !TYPED_INPUT.test(l);
    let before = 0;
    for (const [l, n] of atEnter) if (echo(l)) before += n;
    let now = 0;
    for (const l of lines) if (echo(l)) now++;
    return now > before;
  }

  /** The person pressed Enter on this screen: rows on it now are older than the turn it starts. */
  noteEnter(lines: readonly string[]): void {
    this.atEnter = countRows(lines);
  }

  /** The person answered the question on these rows (the program redrew after their key): none of them asks now. */
  noteAnswered(rows: readonly string[], current: readonly string[]): void {
    const m = countRows(rows);
    // Rows answered before and still on screen stay answered.
    const now = countRows(current);
    for (const [l, n] of this.answered ?? []) if (now.has(l)) m.set(l, Math.max(n, m.get(l) ?? 0));
    this.answered = m;
    this.cls = null;
  }

  /** A new screen: answered rows no longer on it are forgotten (a menu gone after its answer), so the same menu
   * drawn again asks again. */
  pruneAnswered(lines: readonly string[]): void {
    const answered = this.answered;
    if (!answered) return;
    const now = countRows(lines);
    let changed = false;
    const kept = new Map<string, number>();
    for (const [l, n] of answered) {
      const k = Math.min(n, now.get(l) ?? 0);
      if (k !== n) changed = true;
      if (k > 0) kept.set(l, k);
    }
    if (!changed) return;
    this.answered = kept.size ? kept : undefined;
    this.cls = null;
  }

  noteBracketedPaste(on: boolean): void {
    if (on) this.bracketedPasteSeen = true;
    this.foregroundPrompted = false;
  }

  /** The program changed: the next read classifies afresh. */
  invalidate(): void {
    this.cls = null;
    this.inputs = null;
  }

  /** The title changed at least twice within title_animation_s: a spinner, not a static icon. */
  titleAnimating(t: number): boolean {
    return this.titleChangesWithin(t) >= 2;
  }

  /** Title changes within title_animation_s (at most TITLE_CHANGES_KEPT). */
  private titleChangesWithin(t: number): number {
    let recent = 0;
    const changes = this.titleChanges;
    const window = this.cfg.thresholds.title_animation_s;
    for (let i = 0; i < changes.length; i++) if (t - changes[i]! <= window) recent++;
    return recent;
  }

  classify(t: number, program: ProgramId, snap: ScreenSnapshot, hash: string, anchorRow: number | undefined, fullscreen: FullscreenMode | null, inPlace = false): Classification {
    const titleChanges = this.titleChangesWithin(t);
    const animating = titleChanges >= 2;
    const spinning = titleChanges >= TITLE_SPIN_CHANGES;
    // Compared field by field: this runs on every tick, and building a string key each time cost more than the
    // comparison it stood for.
    const k = this.inputs;
    if (
      this.cls &&
      k !== null &&
      k.program === program &&
      k.hash === hash &&
      k.title === snap.title &&
      k.animating === animating &&
      k.spinning === spinning &&
      k.bracketedPaste === snap.bracketedPaste &&
      k.cursorX === snap.cursorX &&
      k.cursorY === snap.cursorY &&
      k.baseY === snap.baseY &&
      k.anchorRow === anchorRow &&
      k.bracketedPasteSeen === this.bracketedPasteSeen &&
      k.foregroundPrompted === this.foregroundPrompted &&
      k.fullscreen === fullscreen &&
      k.inPlace === inPlace &&
      k.atEnter === this.atEnter &&
      k.answered === this.answered
    ) {
      return this.cls;
    }
    const ctx: ProfileContext = { cfg: this.cfg, titleAnimating: animating, titleSpinning: spinning, prompt: this.prompt, bracketedPasteSeen: this.bracketedPasteSeen, foregroundPrompted: this.foregroundPrompted, anchorRow, fullscreen, inPlace, atEnter: this.atEnter, answered: this.answered };
    let cls = classifyWith(program, snap, ctx);
    if (!this.foregroundPrompted && this.bracketedPasteSeen && !snap.bracketedPaste && cls.atPrompt && cls.rule !== 'shell.prompt_bracketed_paste') {
      // A REPL started from the shell is at its own prompt: from now on read it as a REPL, not a running command.
      this.foregroundPrompted = true;
      cls = classifyWith(program, snap, { ...ctx, foregroundPrompted: true });
    }
    this.cls = cls;
    this.inputs = {
      program,
      hash,
      title: snap.title,
      animating,
      spinning,
      bracketedPaste: snap.bracketedPaste,
      cursorX: snap.cursorX,
      cursorY: snap.cursorY,
      baseY: snap.baseY,
      anchorRow,
      bracketedPasteSeen: this.bracketedPasteSeen,
      foregroundPrompted: this.foregroundPrompted,
      fullscreen,
      inPlace,
      atEnter: this.atEnter,
      answered: this.answered,
    };
    return cls;
  }
}

/** Non-blank rows with how many times each stands on screen. */
function countRows(lines: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) if (l.trim() !== '') m.set(l, (m.get(l) ?? 0) + 1);
  return m;
}
