// What one pane's analyzer knows: the turn anchor, the program, the screen's classification, the time windows, and
// the signals it sends (emit moves the state, suppress keeps the reason). How its inputs update these facts is
// PaneInputs' (pane-inputs.ts), which extends this; the decisions made from them are PaneAnalyzer's. Pure.
import type { Config, ProgramId } from '../config/config.js';
import type { InBandSignal, ScreenSnapshot } from '../screen/types.js';
import type { PaneChange } from '../queue/pane-change-queue.js';
import type { Classification, MachineState, Signal, SignalType, Suppressed, Tier } from './types.js';
import { clip, testRow } from './text.js';
import { Tier1Inputs, type Tier1Host } from './tier1-inputs.js';
import { ProgramTracker } from './program-tracker.js';
import { ScreenClassifier } from './screen-classifier.js';
import { SignalLedger, targetState } from './signal-ledger.js';
import { StabilityWindow } from './stability-window.js';
import { nextDeadline, phaseOf, timeMatters, type Phase, type WindowState } from './time-windows.js';
import { UnseenSubmit } from './unseen-submit.js';
import { FullscreenActivity, type FullscreenMode, type TurnRest } from './fullscreen-activity.js';
import { FollowUp } from './follow-up.js';
import { TypedLine } from './typed-line.js';
import { QuestionAnswer } from './question-answer.js';
import { tuiLike } from './profiles/generic-tui.js';
import { TuiFacts } from './tui-facts.js';
import type { Anchor } from './turn-anchor.js';

export interface AnalyzerOptions {
  cfg: Config;
  /** A forced program (--agent X); null = detect. */
  forced: ProgramId | null;
  /** The command the pane was started with, if known (program detection). */
  command?: string;
  /** The nonce on the marks of a shell started with integration (`run`): its marks without it are forged. */
  markNonce?: string | null;
}

export abstract class PaneFacts implements Tier1Host {
  readonly cfg: Config;
  protected readonly prog: ProgramTracker;
  protected readonly reader: ScreenClassifier;
  protected readonly ledger = new SignalLedger();
  protected readonly doneWindow = new StabilityWindow();
  protected readonly tier1: Tier1Inputs;
  protected readonly unseen = new UnseenSubmit();
  /** Typed keys reach this pane (a `run` pane, a replay with input events); a tmux pane passes none on. */
  protected keysSeen = false;
  protected readonly fullscreen: FullscreenActivity;
  /** A message queued during the turn: its end is followed at once by the queued turn (held DONE). */
  protected readonly followUp: FollowUp;
  protected readonly typed = new TypedLine();
  protected readonly question = new QuestionAnswer();
  protected readonly tui: TuiFacts;
  state: MachineState = 'IDLE';

  protected snap: ScreenSnapshot | null = null;
  protected lastChange: PaneChange | null = null;
  protected hash = '';
  protected lastMeaningfulAt = 0;
  protected lastOutputAt = 0;

  protected anchor: Anchor | null = null;
  /** A command still holds the foreground while the pane reads at rest (a pager or editor waiting on the person's
   * keys): the shell's prompt coming back ends it, DONE or FAILED, as any command's end. */
  protected parked = false;
  /** This turn's program animated by itself on the alternate screen: when it stops, the turn is over. */
  protected turnAnimated = false;
  protected waitSince: number | null = null;
  protected workingSince: number | null = null;
  protected waitEnteredAt = 0;
  protected waitEnteredHash = '';
  protected interruptSeen = false;
  protected stalled = false;
  protected lastIdleEmit = -Infinity;
  /** A turn could have begun here: Enter armed an anchor, the pane ran or asked (a signal fired), or Tier 1 spoke.
   * Until then the program is starting up, and its start-up screen (a logo, a warning line, a failed update check)
   * is no turn: only evidence of work (Tier 1, an interrupt hint) makes it RUNNING, never the amount of output. */
  private turnSeen = false;
  /** The signature of the classification last compared with the anchor's baseline. */
  protected signatureOf: { cls: Classification; signature: string } | null = null;

  constructor(opts: AnalyzerOptions) {
    this.cfg = opts.cfg;
    this.tier1 = new Tier1Inputs(this, opts.markNonce ?? null);
    this.prog = new ProgramTracker(opts.cfg, opts.forced, opts.command);
    this.reader = new ScreenClassifier(opts.cfg);
    this.fullscreen = new FullscreenActivity(opts.cfg.thresholds);
    this.tui = new TuiFacts(opts.cfg.thresholds.generic_startup_s);
    this.followUp = new FollowUp(opts.cfg.thresholds.queued_follow_up_s, opts.cfg.thresholds.queued_late_end_s);
  }

  get currentProgram(): { program: ProgramId; rule: string } {
    return { program: this.prog.name, rule: this.prog.rule };
  }

  get classification(): Classification | null {
    return this.reader.current;
  }

  /** The last suppressed decisions, with their reasons. */
  get suppressed(): readonly Suppressed[] {
    return this.ledger.suppressed;
  }

  /** Counters of signals fired and suppressed, by tier, rule and reason. */
  get counters(): ReadonlyMap<string, number> {
    return this.ledger.counters;
  }

  /** The machine's state after it applied our signals (or a person's ack). */
  setState(state: MachineState): void {
    if (state === this.state) return;
    const wasRest = this.phase() === 'rest';
    const wasWaiting = this.phase() === 'waiting';
    this.state = state;
    this.followUp.noteState(this.now, state);
    const phase = this.phase();
    if (wasWaiting && phase !== 'waiting') {
      const answered = this.question.rowsAnsweredAtLeave();
      if (answered && this.snap) this.reader.noteAnswered(answered, this.snap.lines);
      this.question.leave();
    }
    if (phase === 'rest') {
      // The turn's frames have stopped, or its end was told: later frames start a new run (the rest window grows
      // back from turn_rest_s, which must not revive the finished turn's last frames as an animation).
      if (!wasRest && this.genericTui(this.snap)) this.fullscreen.settle(this.now);
      this.question.rest();
      this.tier1.rest();
      this.anchor = null;
      this.interruptSeen = false;
      this.stalled = false;
      this.turnAnimated = false;
      this.tui.hinted = false;
    }
    this.parked = false;
    if (phase === 'waiting') {
      this.question.begin(this.now, this.reader.current);
      this.waitEnteredAt = this.now;
      this.waitEnteredHash = this.hash;
    }
    if (wasRest && phase !== 'rest') this.lastMeaningfulAt = Math.max(this.lastMeaningfulAt, this.now);
    this.doneWindow.reset();
    this.waitSince = null;
    this.workingSince = null;
  }

  protected now = 0;

  // ---- time --------------------------------------------------------------------------------------------

  /** Whether this pane needs the fine tick now: a pending candidate, a turn waiting for evidence, a window
   * about to close. Otherwise the next look can wait until nextDeadline(). */
  wantsTicks(t: number): boolean {
    return this.timeMatters(t) || this.tier1.pending || this.followUp.holding || (this.anchor !== null && !this.anchor.evidence);
  }

  /** A decision waits on the next read: a ready or failed screen holding still through its stability window (a DONE
   * about to be decided), a submitted prompt waiting for its first sign of work (a RUNNING about to be), or a turn
   * whose own frames' rest window has closed on the last read (frames written since, not read yet at the steady
   * pace, may still be coming: a back-off's lone spinner glyph). */
  deciding(t: number): boolean {
    return this.doneWindow.pending || (this.anchor !== null && !this.anchor.evidence) || this.framesMayHaveStopped(t);
  }

  private framesMayHaveStopped(t: number): boolean {
    return this.phase() === 'running' && this.snap !== null && this.ownFramesRead(this.snap) && this.fullscreenMode(t) === 'resting';
  }

  /** The earliest time at which a quiet window can close by itself (Infinity if none is running). */
  nextDeadline(t: number): number {
    return Math.min(nextDeadline(this.cfg.thresholds, this.windows(t), t), this.followUp.deadline);
  }

  /** Whether the passing of time alone could change a decision now (a quiet pane costs nothing between changes). */
  protected timeMatters(t: number): boolean {
    return timeMatters(this.cfg.thresholds, this.windows(t), t);
  }

  /** The window state, refilled in place by windows(): it is asked for two or three times a tick, and is read at
   * once by the pure functions of time-windows.ts, which keep nothing of it. */
  private readonly win: WindowState = {
    state: 'IDLE',
    lastMeaningfulAt: 0,
    lastIdleEmit: -Infinity,
    lastTitleChange: undefined,
    tier1LastAt: -Infinity,
    candidate: false,
    waitSince: null,
    workingSince: null,
    stalled: false,
    cls: null,
    fullscreenAt: Infinity,
    fullscreenStale: false,
  };

  protected windows(t: number): WindowState {
    const w = this.win;
    w.state = this.state;
    w.lastMeaningfulAt = this.lastMeaningfulAt;
    w.lastIdleEmit = this.lastIdleEmit;
    w.lastTitleChange = this.reader.lastTitleChange;
    w.tier1LastAt = this.tier1.lastAt;
    w.candidate = this.doneWindow.pending;
    w.waitSince = this.waitSince;
    w.workingSince = this.workingSince;
    w.stalled = this.stalled;
    w.cls = this.reader.current;
    w.fullscreenAt = this.snap && this.readsFullscreen() ? this.fullscreen.deadline(t, this.ownFramesRead(this.snap), this.inTurn()) : Infinity;
    w.fullscreenStale = this.reader.current !== null && this.reader.fullscreen !== this.fullscreenMode(t);
    return w;
  }

  /** Classify the current screen (the `classify` command and the dashboard's "why"). */
  classifyNow(): Classification | null {
    return this.snap ? this.reclassify(this.now) : null;
  }

  // ---- decisions -----------------------------------------------------------------------------------------

  phase(): Phase {
    return phaseOf(this.state);
  }

  /** A prompt submitted: the verdict now is the baseline a later "ready" must differ from. */
  armAnchor(t: number): void {
    this.turnSeen = true;
    const cls = this.snap ? this.reclassify(t) : null;
    this.anchor = { t, hash: this.hash, evidence: null, baseline: cls ? this.signature(cls) : '', moved: false, row: this.snap ? this.snap.baseY + this.snap.cursorY : undefined };
  }

  /** A job's start as the turn's anchor. The shell has usually moved the cursor past the command line already (to
   * the empty row where output begins): the anchor row is then the command's, so the output's first row is read. */
  protected armJobAnchor(t: number): void {
    this.armAnchor(t);
    const snap = this.snap;
    if (this.anchor && snap && snap.cursorX === 0 && !this.cursorRow().trim() && this.anchor.row !== undefined) this.anchor.row--;
  }

  /** The screen shows an explicit menu or question right now (a fact no hook's word hides). */
  menuOnScreen(t: number): boolean {
    if (!this.snap) return false;
    const cls = this.reclassify(t);
    return cls.verdict === 'waiting' && cls.explicit;
  }

  /** The screen plainly shows this turn failed (an API error the agent gave up on): the failure's line, else null.
   * A hook's "turn ended" does not say DONE over it (Gemini CLI's AfterAgent fires for a failed turn too). */
  failureOnScreen(t: number): string | null {
    if (!this.snap) return null;
    const cls = this.reclassify(t);
    if (this.freshFailure(cls)) return cls.line;
    // A spinner still drawn below the error (the CLI running the very hook that says the turn ended) is no work.
    return cls.verdict === 'working' && cls.failure !== undefined ? cls.failure : null;
  }

  /** An explicit failure verdict that is this turn's: not the verdict the screen already had when the turn was
   * submitted (the last turn's error, still on screen until the new prompt's echo is drawn). */
  protected freshFailure(cls: Classification): boolean {
    return cls.verdict === 'failed' && cls.explicit && !(this.anchor !== null && this.signature(cls) === this.anchor.baseline);
  }

  /** A verdict's identity for "is this still the same screen verdict as before the turn". */
  protected signature(cls: Classification): string {
    const memo = this.signatureOf;
    if (memo && memo.cls === cls) return memo.signature;
    const sig = `${cls.verdict}|${cls.rule}|${cls.line}`;
    this.signatureOf = { cls, signature: sig };
    return sig;
  }

  protected reclassify(t: number): Classification {
    return this.reader.classify(t, this.prog.program, this.snap!, this.hash, this.anchor?.row, this.fullscreenMode(t), this.tui.inPlace);
  }

  /** Shells and programs without a profile are read for full-screen activity; agents' profiles read their TUIs. */
  protected readsFullscreen(): boolean {
    return this.prog.program === 'shell' || this.prog.program === 'generic';
  }

  protected fullscreenMode(t: number): FullscreenMode | null {
    return this.snap && this.readsFullscreen() ? this.fullscreen.mode(t, this.ownFramesRead(this.snap), this.inTurn()) : null;
  }

  /** The generic tier reads this screen as an agent's TUI (profiles/generic-tui.ts; tui-facts.ts says more). */
  protected genericTui(snap: ScreenSnapshot | null): boolean {
    return snap !== null && this.prog.program === 'generic' && tuiLike(snap, this.tui.inPlace);
  }

  /** Frames of the program's own are tracked on this screen: a full-screen program's, or an agent TUI's. */
  protected ownFramesRead(snap: ScreenSnapshot): boolean {
    return snap.altScreen || this.genericTui(snap);
  }

  /** A hinted turn on an agent's TUI is under way (TuiFacts.hinted: its end comes turn_rest_s after its frames). */
  protected inTurn(): TurnRest {
    if (!(this.tui.hinted && this.genericTui(this.snap) && (this.phase() !== 'rest' || this.anchor !== null))) return false;
    const snap = this.snap!;
    const row = snap.lines[snap.cursorY] ?? '';
    return testRow(this.cfg.patterns.generic.tui_input, row.slice(0, snap.cursorX)) || this.tui.inputAsAtRest(snap, this.typed.current) ? 'input_back' : true;
  }

  /** When the last prompt mark (A or B, believed or not) arrived. */
  private promptMarkAt = -Infinity;
  /** When a line editor last switched bracketed paste off: it accepted the line typed (bash, zsh and fish do). */
  protected lineAcceptedAt = -Infinity;

  /** A shell's mark of this kind cannot come from here now (mark-gate.ts PaneNow.notShell). Where keys are seen, by
   * the order of the person's Enter and the marks: a shell marks its prompt before the person types (a prompt mark
   * while a submitted prompt's turn is open is no shell's, unless its line editor accepted the line: an empty
   * Enter's D and next prompt) and starts a command only after the Enter that follows that prompt (an agent wrapping
   * each message in A B C D marks them all after the Enter). Where keys are not seen, by what reads the pane: an
   * agent's profile or the generic tier, or a TUI on the main screen. */
  markNotFromShell(kind: InBandSignal['kind'], t: number): boolean {
    const prompt = kind === 'prompt-start' || kind === 'command-input' || kind === 'command-line';
    if (!prompt && kind !== 'command-executed') return false;
    let not: boolean;
    if (this.keysSeen) {
      // (a line editor that accepted the line after the Enter, switching bracketed paste off, is a shell's)
      const a = this.anchor;
      const accepted = a !== null && this.lineAcceptedAt >= a.t;
      not = prompt ? a !== null && !accepted : !(a !== null && (this.promptMarkAt <= a.t || accepted));
    } else {
      const snap = this.snap;
      not = this.prog.program !== 'shell' || (snap !== null && !snap.altScreen && tuiLike(snap));
    }
    if (kind === 'prompt-start' || kind === 'command-input') this.promptMarkAt = t;
    return not;
  }

  /** No turn has begun since the pane's program started (see turnSeen): its output so far is its start-up. */
  protected startingUp(): boolean {
    return !this.turnSeen && this.tier1.lastAt === -Infinity;
  }

  protected cursorRow(): string {
    return this.snap?.lines[this.snap.cursorY] ?? '';
  }

  /** This turn waited on the person and the wait has ended. */
  get waitAnswered(): boolean {
    return this.question.waitAnswered;
  }

  anchorAge(t: number): number | null {
    return this.anchor ? t - this.anchor.t : null;
  }

  clearAnchor(): void {
    this.anchor = null;
  }

  claimProgram(program: ProgramId, rule: string): void {
    this.programChanged(this.prog.claim(program, rule));
  }

  /** A new program means a new profile: the next read classifies afresh. An agent found behind what `run` took for
   * one thing to do (`npx …`, a wrapper script) is a session: its own screens and hooks tell its turns. */
  protected programChanged(changed: boolean, sameProgram = false): void {
    if (!changed) return;
    // A TUI found on the screen of what was read as a shell is the same program, newly read: what it drew stays its.
    if (!sameProgram) this.tui.programChanged();
    this.reader.invalidate();
    if (this.prog.program !== 'shell' && this.prog.program !== 'generic') this.tier1.programIsSession();
  }

  emit(out: Signal[], t: number, type: SignalType, tier: Tier, rule: string, line: string): void {
    if (type === 'run') this.followUp.work();
    else if (type === 'done' && this.followUp.hold({ t, tier, rule, line })) return this.suppress(t, type, tier, rule, 'queued_follow_up');
    const target = targetState(type, this.state);
    if (target === null) return;
    this.ledger.fired(t, type, tier, rule);
    if (type === 'run' || type === 'wait') this.turnSeen = true;
    out.push({ t, type, tier, rule, line: clip(line) });
    if (target !== this.state) this.setState(target);
  }

  suppress(t: number, type: SignalType, tier: Tier, rule: string, reason: string, step?: string): void {
    this.ledger.suppress(t, type, tier, rule, reason, step);
  }
}
