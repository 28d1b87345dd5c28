// The per-pane decision maker. Pure: it is handed in-band signals, typed input, foreground-process changes,
// coalesced screen changes and clock ticks (all stamped with pane-clock seconds, see pane-inputs.ts) and returns the
// signals the state machine should act on. The highest tier that speaks wins:
//   Tier 1  in-band authoritative signals (OSC 133/633 command start/end, Codex OSC 7501) and agent hooks;
//   Tier 2  the program's profile reading the live edge of the screen (and its window title);
//   Tier 3  the generic content heuristic (prompt anchors, questions, spinners, quiet windows, newline gate).
// Completion is anchored to a turn: Enter arms an anchor, work must be seen after it, then an explicit marker or a
// stability window (retracted by any change of the live edge) makes it DONE. The turn is an explicit machine: its
// phase (turn-phase.ts) picks the table of named rules that decides (turn-rules.ts), and every signal a rule speaks
// passes the named gates (turn-gates.ts); docs/architecture.md, "How a decision is reached".
import type { Thresholds } from '../config/config.js';
import type { Classification, Signal, Tier } from './types.js';
import { clip, testRow } from './text.js';
import { PaneInputs } from './pane-inputs.js';
import { ASK_RULES, REST_RULES, WORK_RULES, walk } from './turn-rules.js';
import { gateFor, type GateView } from './turn-gates.js';
import { turnPhase, type TurnPhase } from './turn-phase.js';
import type { TurnView } from './turn-view.js';

export type { AnalyzerOptions } from './pane-inputs.js';

export class PaneAnalyzer extends PaneInputs {
  /** The turn's phase now (turn-phase.ts). */
  turnPhase(): TurnPhase {
    return turnPhase(this.phase(), this.anchor !== null, this.doneWindow.pending);
  }

  protected evaluate(t: number): Signal[] {
    const out: Signal[] = [];
    if (!this.snap) return out;
    const cls = this.reclassify(t);
    if (this.anchor && !this.anchor.moved && this.signature(cls) !== this.anchor.baseline) this.anchor.moved = true;
    const tier: Tier = cls.program === 'generic' ? 3 : 2;
    if (this.phase() === 'waiting') this.question.noteScreen(cls);
    const v = this.view;
    v.t = t;
    v.cls = cls;
    v.tier = tier;
    v.th = this.cfg.thresholds;
    v.out = out;
    v.stepRule = '';
    v.tier1Silence = this.tier1.silent(t) && !(this.phase() === 'waiting' && this.question.movedOn(cls));
    v.jobGated = tier === 3 && this.jobGateBlocks();

    // Persistence trackers for verdicts that must hold a while before they count.
    // A question first read now has been on screen since the last write at least (the screen has not changed
    // since): a read that waited for output to settle does not delay the wait by its own delay.
    this.waitSince = cls.verdict === 'waiting' ? (this.waitSince ?? Math.min(t, this.lastOutputAt)) : null;
    this.workingSince = cls.verdict === 'working' ? (this.workingSince ?? t) : null;
    // An interrupt hint, or a title spinning, says a turn runs whose end is its frames stopping (turn_rest_s).
    if ((cls.rule === 'generic.interrupt_hint' || cls.rule === 'generic.title_spinner') && (this.phase() !== 'rest' || this.anchor !== null)) this.tui.hinted = true;

    // The turn's rules (turn-rules.ts), table by table as the turn's phase moves: at rest, asking, under way.
    if (this.phase() === 'rest' && walk(REST_RULES, v, this.noteStep) === 'stop') return out;
    if (this.phase() === 'waiting' && walk(ASK_RULES, v, this.noteStep) === 'stop') return out;
    walk(WORK_RULES, v, this.noteStep);
    return out;
  }

  /** The rule that acts, and the phase it acts in (kept as they are: most evaluations speak no signal, so the step's
   * words are made only for one that does, stepText). */
  private readonly noteStep = (name: string): void => {
    const v = this.view;
    v.stepRule = name;
    v.stepPhase = this.turnPhase();
    v.stepEvidence = v.stepPhase === 'armed' ? (this.anchor?.evidence ?? null) : null;
  };

  /** The phase the rule acted in, the rule and, while the turn is armed, the evidence of its work. */
  private stepText(): string {
    const v = this.view;
    const step = `${v.stepPhase}/${v.stepRule}`;
    return v.stepEvidence ? `${step} (${v.stepEvidence})` : step;
  }

  /** One evaluation's view for the turn's rules and gates; refilled by evaluate() (a pane evaluates on every change
   * and every tick: no allocation per call). */
  private readonly view: TurnView & GateView & { t: number; cls: Classification; tier: Tier; th: Thresholds; out: Signal[]; stepRule: string; stepPhase: TurnPhase; stepEvidence: string | null; tier1Silence: boolean; jobGated: boolean } = this.makeView();

  private makeView(): PaneAnalyzer['view'] {
    const a = this;
    const v: PaneAnalyzer['view'] = {
      t: 0,
      cls: null as unknown as Classification,
      tier: 3,
      th: null as unknown as Thresholds,
      out: [],
      stepRule: '',
      stepPhase: 'over',
      stepEvidence: null,
      tier1Silence: false,
      jobGated: false,
      get debounceS() {
        return v.th.debounce_s;
      },
      cfg: () => a.cfg,
      phase: () => a.phase(),
      anchor: () => a.anchor,
      startingUp: () => a.startingUp(),
      followUpDue: () => a.followUp.justDone(v.t, a.state, a.cfg, a.prog.program),
      workingFor: () => v.t - (a.workingSince ?? v.t),
      quietFor: () => v.t - Math.max(a.lastMeaningfulAt, a.anchor?.t ?? -Infinity),
      interruptSeen: () => a.interruptSeen,
      animated: () => a.turnAnimated,
      parked: () => a.parked,
      unprofiled: () => a.prog.program === 'generic',
      genericTui: () => a.genericTui(a.snap),
      interruptHint: () => v.cls.rule === 'generic.interrupt_hint' || a.cfg.patterns.generic.interrupt.some((re) => testRow(re, v.cls.line)),
      bracketedPasteSeen: () => a.reader.bracketedPasteSeen,
      tuiDrawing: () => a.tui.drawing(v.t, a.genericTui(a.snap)),
      recentOutput: () => a.recentOutputGate(v.t),
      screen: () => a.snap?.lines ?? [],
      cursorRow: () => a.cursorRow(),
      waitConfirmed: () => a.waitConfirmed(v.t, v.cls),
      stable: (window) => a.stable(v.t, v.cls, window),
      redrawnSinceAsked: () => a.lastMeaningfulAt > a.waitEnteredAt || (a.question.keyAnswered && a.ownFramesRead(a.snap!)),
      answered: () => (a.anchor !== null && a.anchor.t >= a.waitEnteredAt) || v.redrawnSinceAsked() || a.question.dismissed,
      changedSinceAsked: () => a.hash !== a.waitEnteredHash,
      speak: (type, rule, line, tierOverride) => {
        const tr = tierOverride ?? v.tier;
        const blocked = gateFor(v, type, tr, rule);
        if (blocked) return a.suppress(v.t, type, tr, rule, blocked, a.stepText());
        const before = v.out.length;
        a.emit(v.out, v.t, type, tr, rule, line);
        if (v.out.length > before) v.out[v.out.length - 1]!.step = a.stepText();
      },
      workSeen: () => {
        a.doneWindow.reset();
        a.followUp.work();
      },
      markAnimated: () => {
        a.turnAnimated = true;
      },
      park: () => {
        a.parked = true;
      },
      reemitIdle: () => a.maybeReemitIdle(v.t, v.out),
      checkStall: () => a.checkStall(v.t, v.out),
      commandRunning: () => a.tier1.commandRunning,
      hookSpoke: () => a.tier1.hookSpoke,
      freshFailure: () => a.freshFailure(v.cls),
      endAssured: () => a.tier1.endAssured,
      ownPromptOrFullscreen: () => a.snap!.bracketedPaste || a.snap!.altScreen,
      personAnswered: () => a.phase() === 'waiting' && a.anchor !== null && a.anchor.t >= a.waitEnteredAt,
      lastFiredAt: (type) => a.ledger.lastFiredAt(type),
    };
    return v;
  }

  private checkStall(t: number, out: Signal[]): void {
    if (this.stalled) return;
    if (t - this.lastMeaningfulAt >= this.cfg.thresholds.stall_after_s) {
      this.stalled = true;
      this.emit(out, t, 'stall', 3, 'stall.no_progress', clip(this.cursorRow()));
    }
  }

  private waitConfirmed(t: number, cls: Classification): boolean {
    const th = this.cfg.thresholds;
    const since = this.waitSince ?? t;
    // A question the person typed themselves (`def area(r):`, then a pause) is not a question put to them: typed
    // echo where keys are seen, keystroke-sized writes where they are not (tmux).
    const lineProgram = cls.program === 'shell' || cls.program === 'generic';
    if ((cls.weak || lineProgram) && this.typedAtCursor()) return false;
    if (cls.weak) return t - since >= th.quiet_wait_s && t - this.lastOutputAt >= th.quiet_wait_s;
    return t - since >= th.wait_confirm_s;
  }

  /** The text at the cursor came from the person's typing, not from the program. */
  private typedAtCursor(): boolean {
    const ch = this.lastChange;
    if (!ch) return false;
    return ch.echoOnly || (!this.keysSeen && ch.keystrokeTail);
  }

  /** The ready/failed verdict has held with an unchanged live edge for `window` seconds. */
  private stable(t: number, cls: Classification, window: number): boolean {
    return this.doneWindow.held(t, cls, this.snap!, window, this.lastChange?.echoOnly === true && this.keysSeen);
  }

  /** Output without a submitted prompt (heuristic_run): the newline gate and the burst size both passed. */
  private recentOutputGate(t: number): string | null {
    const ch = this.lastChange;
    if (!ch || ch.t !== t || !ch.meaningful || ch.echoOnly) return null;
    const th = this.cfg.thresholds;
    if (ch.newlines < th.newline_gate || ch.burst < th.burst_chars) return null;
    return clip(this.cursorRow() || `${ch.newlines} new lines`);
  }

  private maybeReemitIdle(t: number, out: Signal[]): void {
    if (this.state !== 'IDLE') return;
    if (t - this.lastMeaningfulAt < this.cfg.thresholds.idle_reemit_s) return;
    if (t - this.lastIdleEmit < this.cfg.thresholds.idle_reemit_s) return;
    this.lastIdleEmit = t;
    this.emit(out, t, 'idle', 3, 'generic.idle_reemit', '');
  }

  private jobGateBlocks(): boolean {
    const jg = this.cfg.job_gate;
    const name = this.prog.processName;
    if (!jg.enabled || !name) return false;
    return !jg.whitelist.includes(name) && !jg.shells.includes(name);
  }
}
