// The per-pane decision maker. Pure: it is handed in-band signals, typed input, foreground-process changes,
// coalesced screen changes and clock ticks (all stamped with pane-clock seconds) and returns the signals the
// state machine should act on. The highest tier that speaks wins:
//   Tier 1  in-band authoritative signals (OSC 133/633 command start/end, Codex OSC 7501) and agent hooks;
//   Tier 2  the program's profile reading the live edge of the screen (and its window title);
//   Tier 3  the generic content heuristic (prompt anchors, questions, spinners, quiet windows, newline gate).
// Completion is anchored to a turn: Enter arms an anchor, work must be seen after it, then an explicit marker or a
// stability window (retracted by any change of the live edge) makes it DONE.
import type { Config, ProgramId } from '../config/config.js';
import type { InBandSignal, ScreenSnapshot, TimedSignal } from '../screen/types.js';
import type { PaneChange } from '../queue/pane-change-queue.js';
import { hashLines } from '../queue/normalize.js';
import { classifyWith, detectProgram } from './profiles/index.js';
import type { ProfileContext } from './profiles/context.js';
import type { Classification, MachineState, Signal, SignalType, Suppressed, Tier } from './types.js';
import { clip } from './text.js';
import { genericWhileRunning } from './generic-heuristic.js';
import { agentStateAction } from './agent-state.js';
import { hookAction } from './hook-table.js';

export interface AnalyzerOptions {
  cfg: Config;
  /** A forced program (--agent X); null = detect. */
  forced: ProgramId | null;
  /** The command the pane was started with, if known (program detection). */
  command?: string;
}

interface Anchor {
  t: number;
  hash: string;
  evidence: boolean;
  /** The verdict the screen gave when the prompt was submitted: a "ready" that is still this one is stale. */
  baseline: string;
  /** The verdict has differed from the baseline since (a later identical "ready" is then a new one). */
  moved: boolean;
  /** Absolute screen row the prompt was submitted on. */
  row: number | undefined;
}

interface Candidate {
  since: number;
  edgeHash: string;
}

type Phase = 'rest' | 'running' | 'waiting';

interface ClassificationInputs {
  program: ProgramId;
  hash: string;
  title: string;
  animating: boolean;
  bracketedPaste: boolean;
  cursorX: number;
  cursorY: number;
  baseY: number;
  anchorRow: number | undefined;
  bracketedPasteSeen: boolean;
  foregroundPrompted: boolean;
}

/** The rule for a turn started by a submitted prompt showing work (Enter, then the screen moved). */
const ANCHOR_RULE = 'turn.anchor_evidence';

export class PaneAnalyzer {
  private readonly cfg: Config;
  private program: ProgramId;
  private programRule: string;
  private programLocked: boolean;
  private processName: string | undefined;
  private state: MachineState = 'IDLE';

  private snap: ScreenSnapshot | null = null;
  private lastChange: PaneChange | null = null;
  private cls: Classification | null = null;
  /** What `cls` was computed from: it is reused while all of these are unchanged. */
  private clsInputs: ClassificationInputs | null = null;
  private hash = '';
  private lastMeaningfulAt = 0;
  private lastOutputAt = 0;
  private titleChanges: number[] = [];
  private bracketedPasteSeen = false;
  private foregroundPrompted = false;

  private anchor: Anchor | null = null;
  private doneCandidate: Candidate | null = null;
  private waitSince: number | null = null;
  private workingSince: number | null = null;
  private waitEnteredAt = 0;
  private waitEnteredHash = '';
  private interruptSeen = false;
  private stalled = false;
  private tier1LastAt = -Infinity;
  private tier1Running = false;
  private pendingAgentWorking: { t: number; line: string } | null = null;
  private lastEmit = new Map<SignalType, number>();
  private lastIdleEmit = -Infinity;
  /** The live-edge hash stable() compares, kept while the classification and the screen it read are the same
   * objects (evaluate runs on every tick of a stability window; the edge only changes with them). */
  private edgeHashOf: { cls: Classification; snap: ScreenSnapshot; hash: string } | null = null;
  /** The signature of the classification last compared with the anchor's baseline. */
  private signatureOf: { cls: Classification; signature: string } | null = null;

  readonly suppressed: Suppressed[] = [];
  /** Counters of signals fired and suppressed, by tier, rule and reason. */
  readonly counters = new Map<string, number>();

  constructor(opts: AnalyzerOptions) {
    this.cfg = opts.cfg;
    this.program = opts.forced ?? 'shell';
    this.programRule = opts.forced ? 'forced' : 'default';
    this.programLocked = opts.forced !== null;
    if (!this.programLocked && opts.command) this.detect({ command: opts.command });
  }

  get currentProgram(): { program: ProgramId; rule: string } {
    return { program: this.program, rule: this.programRule };
  }

  get classification(): Classification | null {
    return this.cls;
  }

  /** The machine's state after it applied our signals (or a person's ack). */
  setState(state: MachineState): void {
    if (state === this.state) return;
    const wasRest = this.phase() === 'rest';
    this.state = state;
    const phase = this.phase();
    if (phase === 'rest') {
      this.anchor = null;
      this.interruptSeen = false;
      this.stalled = false;
    }
    if (phase === 'waiting') {
      this.waitEnteredAt = this.now;
      this.waitEnteredHash = this.hash;
    }
    if (wasRest && phase !== 'rest') this.lastMeaningfulAt = Math.max(this.lastMeaningfulAt, this.now);
    this.doneCandidate = null;
    this.waitSince = null;
    this.workingSince = null;
  }

  private now = 0;

  // ---- inputs --------------------------------------------------------------------------------------------

  signal(ts: TimedSignal): Signal[] {
    this.now = Math.max(this.now, ts.t);
    const s = ts.signal;
    const out: Signal[] = [];
    switch (s.kind) {
      case 'title':
        this.titleChanges.push(ts.t);
        if (this.titleChanges.length > 4) this.titleChanges.shift();
        if (!this.programLocked && this.program === 'shell') this.detect({ title: s.title });
        return out;
      case 'bracketed-paste':
        if (s.on) this.bracketedPasteSeen = true;
        this.foregroundPrompted = false;
        return out;
      case 'command-executed':
        this.tier1(ts.t);
        this.tier1Running = true;
        this.emit(out, ts.t, 'run', 1, `${s.protocol}.command_executed`, ts.line);
        return out;
      case 'command-finished': {
        this.tier1(ts.t);
        const wasRunning = this.tier1Running || this.phase() !== 'rest';
        this.tier1Running = false;
        if (!wasRunning) {
          this.anchor = null; // the shell says nothing ran (an empty Enter): no turn to complete
          return out;
        }
        if (s.exitCode === undefined || s.exitCode === 0) this.emit(out, ts.t, 'done', 1, `${s.protocol}.command_finished`, ts.line || `exit ${s.exitCode ?? 'none'}`);
        else this.emit(out, ts.t, 'failed', 1, `${s.protocol}.command_failed`, ts.line.trim() ? `exit ${s.exitCode}: ${ts.line}` : `exit ${s.exitCode}`);
        return out;
      }
      case 'prompt-start':
        this.tier1(ts.t);
        if (this.phase() === 'rest' && !this.tier1Running) this.anchor = null; // back at the prompt, nothing ran
        return out;
      case 'command-input':
      case 'command-line':
        this.tier1(ts.t);
        return out;
      case 'agent-state':
        return this.agentState(ts.t, s.state, s.extra, ts.line);
      case 'hook':
        return this.hook(ts.t, s, ts.line);
      default:
        return out;
    }
  }

  input(t: number, data: string): Signal[] {
    this.now = Math.max(this.now, t);
    if (/[\r\n]/.test(data)) this.armAnchor(t);
    if (data === '\x1b' && this.phase() === 'running') this.interruptSeen = true;
    return [];
  }

  process(t: number, name: string): Signal[] {
    this.now = Math.max(this.now, t);
    this.processName = name;
    if (!this.programLocked) {
      const det = detectProgram(this.cfg, { process: name });
      // A shell running an ordinary job (sleep, make) stays read as a shell: its prompt tells when the job ends.
      if (det && (det.program !== 'generic' || this.program !== 'shell')) this.setProgram(det.program, det.rule);
    }
    return this.evaluate(t);
  }

  change(ch: PaneChange): Signal[] {
    this.now = Math.max(this.now, ch.t);
    this.snap = ch.snapshot;
    this.lastChange = ch;
    this.hash = ch.hash;
    this.lastOutputAt = ch.lastOutputAt;
    if (ch.meaningful) {
      this.lastMeaningfulAt = ch.lastMeaningfulAt;
      // Any change read after the anchor was armed is after it (events arrive in order; a live clock may give
      // the key and its echo the same millisecond).
      if (this.anchor && !this.anchor.evidence && ch.hash !== this.anchor.hash) this.anchor.evidence = true;
    }
    if (!this.programLocked && this.program === 'shell') {
      // Only rows that changed can newly show a program's signature (titles are checked as they arrive).
      const rows = ch.snapshot.changedRows;
      this.detect({ lines: rows ? rows.map((y) => ch.snapshot.lines[y]!) : ch.snapshot.lines });
    }
    const out = this.evaluate(ch.t);
    if (this.stalled && ch.meaningful && this.phase() === 'running') {
      this.stalled = false;
      this.emit(out, ch.t, 'activity', 3, 'stall.recovered', '');
    }
    return out;
  }

  tick(t: number): Signal[] {
    this.now = Math.max(this.now, t);
    const out: Signal[] = [];
    const th = this.cfg.thresholds;
    if (this.pendingAgentWorking && t - this.pendingAgentWorking.t >= th.unanchored_working_confirm_s) {
      const p = this.pendingAgentWorking;
      this.pendingAgentWorking = null;
      this.emit(out, t, 'run', 1, 'osc7501.working_confirmed', p.line);
    }
    if (this.anchor && !this.anchor.evidence && t - this.anchor.t > th.anchor_evidence_window_s) this.anchor = null;
    if (this.timeMatters(t)) out.push(...this.evaluate(t));
    return out;
  }

  /** Whether this pane needs the fine tick now: a pending candidate, a turn waiting for evidence, a window
   * about to close. Otherwise the next look can wait until nextDeadline(). */
  wantsTicks(t: number): boolean {
    return this.timeMatters(t) || this.pendingAgentWorking !== null || (this.anchor !== null && !this.anchor.evidence);
  }

  /** The earliest time at which a quiet window can close by itself (Infinity if none is running). */
  nextDeadline(t: number): number {
    const th = this.cfg.thresholds;
    // Asked after every tick: no array of marks, just the earliest one still ahead.
    let next = Infinity;
    const mark = (m: number): void => {
      if (m > t && m < next) next = m;
    };
    mark(this.lastMeaningfulAt + th.quiet_done_s);
    mark(this.lastMeaningfulAt + th.quiet_idle_s);
    mark(this.lastMeaningfulAt + th.stall_after_s);
    mark(Math.max(this.lastMeaningfulAt, this.lastIdleEmit) + th.idle_reemit_s);
    const lastTitle = this.titleChanges[this.titleChanges.length - 1];
    if (lastTitle !== undefined) mark(lastTitle + th.title_animation_s);
    mark(this.tier1LastAt + th.prompt_silence_s);
    return next;
  }

  /** Whether the passing of time alone could change a decision now; a tick is skipped otherwise (a quiet pane
   * costs nothing between changes). */
  private timeMatters(t: number): boolean {
    const th = this.cfg.thresholds;
    const phase = this.phase();
    if (this.doneCandidate) return true;
    if (this.waitSince !== null && phase !== 'waiting') return true;
    if (this.workingSince !== null && phase === 'rest') return true;
    const quiet = t - this.lastMeaningfulAt;
    const verdict = this.cls?.verdict;
    if (phase === 'running') {
      if (quiet >= th.stall_after_s && !this.stalled) return true;
      if (verdict === 'unknown' && quiet >= Math.min(th.quiet_done_s, th.quiet_idle_s)) return true;
    }
    // The idle re-emit is due once per window, not on every tick after the first one.
    if (this.state === 'IDLE' && quiet >= th.idle_reemit_s && t - this.lastIdleEmit >= th.idle_reemit_s) return true;
    // A title animation stopping can turn "working" (read from the title alone) into something else.
    const lastTitle = this.titleChanges[this.titleChanges.length - 1];
    const titleDecides = verdict !== 'working' || (this.cls?.rule.endsWith('title_spinner') ?? false);
    if (titleDecides && lastTitle !== undefined && t - lastTitle <= th.title_animation_s + th.tick_s) return true;
    return t - this.tier1LastAt <= th.prompt_silence_s + th.tick_s;
  }

  /** Classify the current screen (the `classify` command and the dashboard's "why"). */
  classifyNow(): Classification | null {
    return this.snap ? this.reclassify(this.now) : null;
  }

  // ---- decisions -----------------------------------------------------------------------------------------

  private phase(): Phase {
    switch (this.state) {
      case 'RUNNING':
      case 'LONG_RUNNING':
        return 'running';
      case 'WAITING_APPROVAL':
        return 'waiting';
      default:
        return 'rest';
    }
  }

  private tier1(t: number): void {
    this.tier1LastAt = t;
  }

  private agentState(t: number, state: string, extra: Record<string, string>, line: string): Signal[] {
    this.tier1(t);
    if (!this.programLocked && extra['app'] === 'codex') this.setProgram('codex', 'detect.codex.osc7501');
    const out: Signal[] = [];
    const shown = line || `state=${state}`;
    const pending = this.pendingAgentWorking;
    if (state !== 'working') this.pendingAgentWorking = null;
    // A turn too short to confirm (working, then done or error within the window) still happened: the launch
    // blip goes back to idle, never to done or error.
    if (pending && (state === 'done' || state === 'error')) this.emit(out, pending.t, 'run', 1, 'osc7501.working', pending.line);
    const action = agentStateAction(state, extra, {
      phase: this.phase(),
      justDone: this.state === 'DONE',
      anchored: this.anchor !== null && t - this.anchor.t <= this.cfg.thresholds.anchor_evidence_window_s,
    });
    if (action.kind === 'signal') this.emit(out, t, action.type, 1, action.rule, shown);
    else if (action.kind === 'pending') this.pendingAgentWorking = { t, line: shown };
    return out;
  }

  /** A prompt submitted: the verdict now is the baseline a later "ready" must differ from. */
  private armAnchor(t: number): void {
    const cls = this.snap ? this.reclassify(t) : null;
    this.anchor = { t, hash: this.hash, evidence: false, baseline: cls ? this.signature(cls) : '', moved: false, row: this.snap ? this.snap.baseY + this.snap.cursorY : undefined };
  }

  /** An agent's hook (Tier 1, delivered by the daemon): mapped through hook-table.ts. */
  private hook(t: number, s: Extract<InBandSignal, { kind: 'hook' }>, line: string): Signal[] {
    this.tier1(t);
    if (!this.programLocked) this.setProgram(s.agent, `detect.${s.agent}.hook`);
    const out: Signal[] = [];
    const action = hookAction(s.agent, s.event, s.detail, this.state);
    if (action.kind === 'none') return out;
    // A menu on screen is a fact: a hook's "working" (a late PreToolUse) does not hide it.
    if (action.type === 'run' && this.menuOnScreen(t)) {
      this.suppress(t, 'run', 1, action.rule, 'menu_on_screen');
      return out;
    }
    // The prompt the hook reports anchors the turn like Enter, unless Enter (seen in the pane) already did.
    if (action.effect === 'turn_start' && (this.anchor === null || t - this.anchor.t > this.cfg.thresholds.anchor_evidence_window_s)) this.armAnchor(t);
    this.emit(out, t, action.type, 1, action.rule, line || s.event);
    return out;
  }

  private menuOnScreen(t: number): boolean {
    if (!this.snap) return false;
    const cls = this.reclassify(t);
    return cls.verdict === 'waiting' && cls.explicit;
  }

  private evaluate(t: number): Signal[] {
    const out: Signal[] = [];
    if (!this.snap) return out;
    const th = this.cfg.thresholds;
    const cls = this.reclassify(t);
    if (this.anchor && !this.anchor.moved && this.signature(cls) !== this.anchor.baseline) this.anchor.moved = true;
    const tier: Tier = cls.program === 'generic' ? 3 : 2;
    const gateClosed = t - this.tier1LastAt < th.prompt_silence_s;
    const jobGated = tier === 3 && this.jobGateBlocks();
    const speak = (type: SignalType, rule: string, line: string, tierOverride?: Tier): void => {
      const tr = tierOverride ?? tier;
      // A menu on screen is a fact no Tier 1 silence can hide; everything else waits for Tier 1 to fall quiet.
      if (gateClosed && !(type === 'wait' && cls.explicit)) return this.suppress(t, type, tr, rule, 'prompt_silence_gate');
      if (jobGated && tr === 3) return this.suppress(t, type, tr, rule, 'job_gate');
      // Debounce guards heuristics that a redraw can re-trigger; a turn the person submitted (Enter) is not one.
      if (tr === 3 && rule !== ANCHOR_RULE && t - (this.lastEmit.get(type) ?? -Infinity) < th.debounce_s) return this.suppress(t, type, tr, rule, 'debounce');
      this.emit(out, t, type, tr, rule, line);
    };

    // Persistence trackers for verdicts that must hold a while before they count.
    this.waitSince = cls.verdict === 'waiting' ? (this.waitSince ?? t) : null;
    this.workingSince = cls.verdict === 'working' ? (this.workingSince ?? t) : null;

    if (this.phase() === 'rest') {
      if (cls.verdict === 'waiting' && this.waitConfirmed(t, cls)) {
        speak('wait', cls.rule, cls.line);
        return out;
      }
      const anchored = this.anchor !== null && this.anchor.evidence;
      if (cls.verdict === 'working' && (this.anchor !== null || t - (this.workingSince ?? t) >= th.unanchored_screen_confirm_s)) {
        speak('run', cls.rule, cls.line);
      } else if (anchored && cls.verdict !== 'waiting') {
        speak('run', ANCHOR_RULE, clip(cls.line || this.cursorRow()), 3);
      } else if (!anchored && cls.verdict === 'unknown' && (tier === 3 || !this.bracketedPasteSeen)) {
        const latest = this.recentOutputGate(t);
        if (latest) speak('run', 'generic.newline_gate', latest, 3);
      }
      if (this.phase() === 'rest') {
        this.maybeReemitIdle(t, out);
        return out;
      }
    }

    if (this.phase() === 'waiting') {
      // Keys typed at the question (echoed, not yet submitted) do not answer it: only Enter or real output does.
      const answered = (this.anchor !== null && this.anchor.t >= this.waitEnteredAt) || this.lastMeaningfulAt > this.waitEnteredAt;
      if (!answered && cls.verdict !== 'waiting') return out;
      switch (cls.verdict) {
        case 'waiting':
          return out;
        case 'working':
          speak('run', `${cls.rule}`, cls.line);
          return out;
        case 'unknown':
          if (this.hash !== this.waitEnteredHash && this.lastMeaningfulAt > this.waitEnteredAt) speak('run', 'wait.content_update', clip(this.cursorRow()), 3);
          return out;
        default:
          break; // ready/failed: the menu was answered and the turn ended; handled below
      }
    }

    // running (or a wait that resolved straight into a ready/failed screen)
    switch (cls.verdict) {
      case 'failed':
        if (cls.explicit || this.stable(t, cls, cls.atPrompt ? th.prompt_stability_s : th.stability_s)) speak('failed', cls.rule, cls.line);
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
        this.doneCandidate = null;
        this.checkStall(t, out);
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
          if (g) speak(g.type, g.rule, g.line, 3);
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
    // A bare "?" or ":" the person typed themselves (`def area(r):`, then a pause) is not a question put to them.
    if (cls.weak && this.lastChange?.echoOnly) return false;
    if (cls.weak) return t - since >= th.quiet_wait_s && t - this.lastOutputAt >= th.quiet_wait_s;
    return t - since >= th.wait_confirm_s;
  }

  /** The ready/failed verdict has held with an unchanged live edge for `window` seconds. */
  private stable(t: number, cls: Classification, window: number): boolean {
    const edgeHash = this.edgeHash(cls);
    if (!this.doneCandidate || this.doneCandidate.edgeHash !== edgeHash) {
      this.doneCandidate = { since: t, edgeHash };
      return window <= 0;
    }
    return t - this.doneCandidate.since >= window;
  }

  /** The live edge and the cursor row, folded, with the verdict: what must hold still through a stability window. */
  private edgeHash(cls: Classification): string {
    const snap = this.snap!;
    const memo = this.edgeHashOf;
    if (memo && memo.cls === cls && memo.snap === snap) return memo.hash;
    const hash = hashLines([...cls.liveEdge, this.cursorRow()], true) + cls.verdict;
    this.edgeHashOf = { cls, snap, hash };
    return hash;
  }

  /** A verdict's identity for "is this still the same screen verdict as before the turn". */
  private signature(cls: Classification): string {
    const memo = this.signatureOf;
    if (memo && memo.cls === cls) return memo.signature;
    const sig = `${cls.verdict}|${cls.rule}|${cls.line}`;
    this.signatureOf = { cls, signature: sig };
    return sig;
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
    if (!jg.enabled || !this.processName) return false;
    return !jg.whitelist.includes(this.processName) && !jg.shells.includes(this.processName);
  }

  private reclassify(t: number): Classification {
    const snap = this.snap!;
    const animating = this.titleAnimating(t);
    const anchorRow = this.anchor?.row;
    // Compared field by field: evaluate runs on every tick, and building a string key each time cost more than
    // the comparison it stood for.
    const k = this.clsInputs;
    if (
      this.cls &&
      k !== null &&
      k.program === this.program &&
      k.hash === this.hash &&
      k.title === snap.title &&
      k.animating === animating &&
      k.bracketedPaste === snap.bracketedPaste &&
      k.cursorX === snap.cursorX &&
      k.cursorY === snap.cursorY &&
      k.baseY === snap.baseY &&
      k.anchorRow === anchorRow &&
      k.bracketedPasteSeen === this.bracketedPasteSeen &&
      k.foregroundPrompted === this.foregroundPrompted
    ) {
      return this.cls;
    }
    const ctx: ProfileContext = { cfg: this.cfg, titleAnimating: animating, bracketedPasteSeen: this.bracketedPasteSeen, foregroundPrompted: this.foregroundPrompted, anchorRow };
    let cls = classifyWith(this.program, snap, ctx);
    if (!this.foregroundPrompted && this.bracketedPasteSeen && !snap.bracketedPaste && cls.atPrompt && cls.rule !== 'shell.prompt_bracketed_paste') {
      // A REPL started from the shell is at its own prompt: from now on read it as a REPL, not a running command.
      this.foregroundPrompted = true;
      cls = classifyWith(this.program, snap, { ...ctx, foregroundPrompted: true });
    }
    this.cls = cls;
    this.clsInputs = {
      program: this.program,
      hash: this.hash,
      title: snap.title,
      animating,
      bracketedPaste: snap.bracketedPaste,
      cursorX: snap.cursorX,
      cursorY: snap.cursorY,
      baseY: snap.baseY,
      anchorRow,
      bracketedPasteSeen: this.bracketedPasteSeen,
      foregroundPrompted: this.foregroundPrompted,
    };
    return this.cls;
  }

  /** The title changed at least twice within title_animation_s: a spinner, not a static icon. */
  private titleAnimating(t: number): boolean {
    let recent = 0;
    for (const x of this.titleChanges) if (t - x <= this.cfg.thresholds.title_animation_s) recent++;
    return recent >= 2;
  }

  private cursorRow(): string {
    return this.snap?.lines[this.snap.cursorY] ?? '';
  }

  private detect(input: Parameters<typeof detectProgram>[1]): void {
    const det = detectProgram(this.cfg, input);
    if (det && det.program !== 'shell' && det.program !== 'generic') this.setProgram(det.program, det.rule);
  }

  private setProgram(program: ProgramId, rule: string): void {
    if (program === this.program) return;
    this.program = program;
    this.programRule = rule;
    this.cls = null;
    this.clsInputs = null;
  }

  private emit(out: Signal[], t: number, type: SignalType, tier: Tier, rule: string, line: string): void {
    const target = targetState(type, this.state);
    if (target === null) return;
    this.lastEmit.set(type, t);
    out.push({ t, type, tier, rule, line: clip(line) });
    this.count(`fired.tier${tier}.${type}.${rule}`);
    if (target !== this.state) this.setState(target);
  }

  private suppress(t: number, type: SignalType, tier: Tier, rule: string, reason: string): void {
    this.count(`suppressed.tier${tier}.${type}.${reason}`);
    if (this.suppressed.length >= 64) this.suppressed.shift();
    this.suppressed.push({ t, type, tier, rule, reason });
  }

  private count(key: string): void {
    this.counters.set(key, (this.counters.get(key) ?? 0) + 1);
  }
}

/** What a signal would do to the state (null = meaningless here and not worth sending). */
function targetState(type: SignalType, state: MachineState): MachineState | null {
  const running = state === 'RUNNING' || state === 'LONG_RUNNING';
  switch (type) {
    case 'run':
      return running ? null : 'RUNNING';
    case 'done':
      return state === 'DONE' ? null : 'DONE';
    case 'failed':
      return state === 'FAILED' ? null : 'FAILED';
    case 'wait':
      return state === 'WAITING_APPROVAL' ? null : 'WAITING_APPROVAL';
    case 'idle':
      return 'IDLE'; // also re-emitted while IDLE (no transition, but counted)
    case 'stall':
    case 'activity':
      return running ? state : null;
  }
}
