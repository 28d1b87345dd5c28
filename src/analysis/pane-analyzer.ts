// The per-pane decision maker. Pure: it is handed in-band signals, typed input, foreground-process changes,
// coalesced screen changes and clock ticks (all stamped with pane-clock seconds, see pane-inputs.ts) and returns the
// signals the state machine should act on. The highest tier that speaks wins:
//   Tier 1  in-band authoritative signals (OSC 133/633 command start/end, Codex OSC 7501) and agent hooks;
//   Tier 2  the program's profile reading the live edge of the screen (and its window title);
//   Tier 3  the generic content heuristic (prompt anchors, questions, spinners, quiet windows, newline gate).
// Completion is anchored to a turn: Enter arms an anchor, work must be seen after it, then an explicit marker or a
// stability window (retracted by any change of the live edge) makes it DONE.
import type { Classification, Signal, SignalType, Tier } from './types.js';
import { clip, testRow } from './text.js';
import { genericWhileRunning } from './generic-heuristic.js';
import { ANCHOR_RULE, PaneInputs } from './pane-inputs.js';

export type { AnalyzerOptions } from './pane-inputs.js';

export class PaneAnalyzer extends PaneInputs {
  protected evaluate(t: number): Signal[] {
    const out: Signal[] = [];
    if (!this.snap) return out;
    const th = this.cfg.thresholds;
    const cls = this.reclassify(t);
    if (this.anchor && !this.anchor.moved && this.signature(cls) !== this.anchor.baseline) this.anchor.moved = true;
    const tier: Tier = cls.program === 'generic' ? 3 : 2;
    if (this.phase() === 'waiting') this.question.noteScreen(cls);
    // Tier 1 speaks, and the screen stands down; unless the person answered the question the pane waits on and
    // the screen plainly shows what came of it (a hook from before the answer is stale).
    const gateClosed = this.tier1.silent(t) && !(this.phase() === 'waiting' && this.question.movedOn(cls));
    const jobGated = tier === 3 && this.jobGateBlocks();
    const speak = (type: SignalType, rule: string, line: string, tierOverride?: Tier): void => {
      const tr = tierOverride ?? tier;
      // A menu on screen is a fact no Tier 1 silence can hide, and so is a question (or its answer) while a command
      // Tier 1 started runs, and this turn's failure shown plainly while hooks speak (they report no API error);
      // an end, or anything else, waits for Tier 1 to fall quiet.
      const duringCommand = this.tier1.commandRunning && (type === 'wait' || type === 'run');
      const failurePastHooks = type === 'failed' && this.tier1.hookSpoke && this.freshFailure(cls);
      if (gateClosed && !(type === 'wait' && cls.explicit) && !failurePastHooks && !duringCommand) return this.suppress(t, type, tr, rule, 'prompt_silence_gate');
      // A command whose end is reported for certain ends by that report, not by a screen's guess: unless it turned
      // out to read the person's input at a prompt of its own (a line editor) or to be a full-screen program.
      if (this.tier1.endAssured && (type === 'done' || type === 'failed' || type === 'idle') && !this.snap!.bracketedPaste && !this.snap!.altScreen) {
        return this.suppress(t, type, tr, rule, 'command_running');
      }
      if (jobGated && tr === 3) return this.suppress(t, type, tr, rule, 'job_gate');
      // Debounce guards heuristics that a redraw can re-trigger; a turn the person submitted (Enter) is not one, nor
      // is the work that follows their answer to a question (however soon after the turn's start they answered).
      const personAnswered = this.phase() === 'waiting' && this.anchor !== null && this.anchor.t >= this.waitEnteredAt;
      if (tr === 3 && rule !== ANCHOR_RULE && !personAnswered && t - this.ledger.lastFiredAt(type) < th.debounce_s) return this.suppress(t, type, tr, rule, 'debounce');
      this.emit(out, t, type, tr, rule, line);
    };

    // Persistence trackers for verdicts that must hold a while before they count.
    // A question first read now has been on screen since the last write at least (the screen has not changed
    // since): a read that waited for output to settle does not delay the wait by its own delay.
    this.waitSince = cls.verdict === 'waiting' ? (this.waitSince ?? Math.min(t, this.lastOutputAt)) : null;
    this.workingSince = cls.verdict === 'working' ? (this.workingSince ?? t) : null;
    // An interrupt hint, or a title spinning, says a turn runs whose end is its frames stopping (turn_rest_s).
    if ((cls.rule === 'generic.interrupt_hint' || cls.rule === 'generic.title_spinner') && (this.phase() !== 'rest' || this.anchor !== null)) this.tui.hinted = true;

    if (this.phase() === 'rest') {
      if (cls.verdict === 'waiting' && this.waitConfirmed(t, cls)) {
        speak('wait', cls.rule, cls.line);
        return out;
      }
      // The pager or editor that held the foreground has gone and the prompt is back: that command ended.
      if (this.parked && (cls.verdict === 'ready' || cls.verdict === 'failed') && !cls.continuation) {
        const window = cls.atPrompt ? th.prompt_stability_s : th.stability_s;
        if (cls.explicit || this.stable(t, cls, window)) speak(cls.verdict === 'failed' ? 'failed' : 'done', cls.rule, cls.line);
        return out;
      }
      // A parked pager or editor redrawn once (a person paging in a pane whose keys we cannot see) is still at rest.
      if (this.parked && cls.verdict === 'working' && !cls.rule.endsWith('.fullscreen_animating')) return out;
      const anchored = this.anchor !== null && this.anchor.evidence;
      // Work right after a DONE with no key typed is a queued message's turn, which the agent started by itself.
      // An agent's TUI animates at start-up and on its own redraws too: with no prompt submitted, only its interrupt
      // hint says a turn runs (a tmux pane's only sign, where keys are not seen).
      // A program starting up (no turn yet) is working only by an interrupt hint, never by its start-up animation.
      const hinted = cls.rule === 'generic.interrupt_hint' || this.cfg.patterns.generic.interrupt.some((re) => testRow(re, cls.line));
      const unanchoredOk = (!this.genericTui(this.snap) && !this.startingUp()) || hinted;
      if (cls.verdict === 'working' && (this.anchor !== null || this.followUp.justDone(t, this.state, this.cfg, this.prog.program) || (unanchoredOk && t - (this.workingSince ?? t) >= th.unanchored_screen_confirm_s))) {
        speak('run', cls.rule, cls.line);
      } else if (anchored && cls.verdict !== 'waiting' && cls.verdict !== 'resting') {
        speak('run', ANCHOR_RULE, clip(cls.line || this.cursorRow()), 3);
      } else if (!anchored && !this.startingUp() && cls.verdict === 'unknown' && (tier === 3 || !this.reader.bracketedPasteSeen) && !(this.prog.program === 'generic' && this.tui.drawing(t, this.genericTui(this.snap)))) {
        const latest = this.recentOutputGate(t);
        if (latest) speak('run', 'generic.newline_gate', latest, 3);
      }
      if (this.phase() === 'rest') {
        this.maybeReemitIdle(t, out);
        return out;
      }
    }

    if (this.phase() === 'waiting') {
      // Keys typed at the question (echoed, not yet submitted) do not answer it: only Enter, Esc or Ctrl-C (whose
      // redraw reads as their echo) or real output does.
      // (on a TUI an answering key's redraw is how the answer shows; a line program's question waits for Enter)
      const redrawn = this.lastMeaningfulAt > this.waitEnteredAt || (this.question.keyAnswered && this.ownFramesRead(this.snap));
      const answered = (this.anchor !== null && this.anchor.t >= this.waitEnteredAt) || redrawn || this.question.dismissed;
      if (!answered && cls.verdict !== 'waiting') return out;
      switch (cls.verdict) {
        case 'waiting':
          return out;
        case 'resting':
          // An agent's TUI whose frames stayed still after the answer: the turn ended there (a refusal); below.
          if (tier === 3 && this.genericTui(this.snap)) break;
          return out;
        case 'working':
          speak('run', `${cls.rule}`, cls.line);
          return out;
        case 'unknown':
          if (this.hash !== this.waitEnteredHash && redrawn) speak('run', 'wait.content_update', clip(this.cursorRow()), 3);
          return out;
        default:
          break; // ready/failed: the menu was answered and the turn ended; handled below
      }
    }

    // running (or a wait that resolved straight into a ready/failed screen)
    switch (cls.verdict) {
      case 'failed':
        // The person's own interrupt ended this turn on an agent's TUI: what they did themselves is no failure.
        if (cls.explicit || this.stable(t, cls, cls.atPrompt ? th.prompt_stability_s : th.stability_s)) speak(tier === 3 && this.interruptSeen && this.genericTui(this.snap) ? 'done' : 'failed', cls.rule, cls.line);
        break;
      case 'waiting':
        if (this.waitConfirmed(t, cls)) speak('wait', cls.rule, cls.line);
        break;
      case 'ready': {
        // A REPL continuation prompt: the statement has not run yet; the pane is at rest, not done.
        if (cls.continuation) {
          if (this.stable(t, cls, th.prompt_stability_s)) speak('idle', cls.rule, cls.line);
          break;
        }
        // A ready marker that was already on screen when the prompt was submitted says nothing about this turn:
        // it must then hold through the full stability window like any unconfirmed ready screen.
        const stale = this.anchor !== null && !this.anchor.moved;
        const window = !stale && cls.atPrompt ? th.prompt_stability_s : th.stability_s;
        if ((cls.explicit && !stale) || this.stable(t, cls, window)) speak('done', cls.rule, cls.line);
        break;
      }
      case 'working':
        this.doneWindow.reset();
        this.followUp.work();
        // On an agent's TUI an interrupt hint (or a spinning title) is as good as frames: the turn ran, and ends when they stop.
        if (cls.rule.endsWith('.fullscreen_animating') || cls.rule === 'generic.interrupt_hint' || cls.rule === 'generic.title_spinner') this.turnAnimated = true;
        this.checkStall(t, out);
        break;
      case 'resting':
        // Its own frames stopped: a turn that animated (or, on an agent's TUI, showed its interrupt hint) is over; on
        // an agent's TUI a turn that showed only a frame or two of work is over once quiet long enough; a pager or
        // editor waits on the person's keys.
        if (this.turnAnimated) speak('done', 'fullscreen.animation_stopped', cls.line);
        else if (tier === 3 && this.genericTui(this.snap)) {
          if (t - Math.max(this.lastMeaningfulAt, this.anchor?.t ?? -Infinity) >= th.quiet_done_s) speak('done', cls.rule, cls.line);
        } else {
          speak('idle', 'fullscreen.waiting_on_keys', cls.line);
          if (this.phase() === 'rest') this.parked = true;
        }
        break;
      case 'unknown':
        {
          const g = genericWhileRunning({
            cfg: this.cfg,
            quiet: t - Math.max(this.lastMeaningfulAt, this.anchor?.t ?? -Infinity),
            row: this.cursorRow(),
            liveEdge: cls.liveEdge,
            screen: this.snap?.lines ?? [],
            interruptSeen: this.interruptSeen,
          });
          // On an agent's TUI a turn under way that has gone quiet is over (a refused command, a step that ended
          // with no frames): DONE, not merely at rest.
          if (g && g.type === 'idle' && tier === 3 && this.genericTui(this.snap)) speak('done', 'generic.turn_quiet', g.line, 3);
          else if (g) speak(g.type, g.rule, g.line, 3);
        }
        this.checkStall(t, out);
        break;
    }
    return out;
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
