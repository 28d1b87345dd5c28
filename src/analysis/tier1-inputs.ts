// Tier 1: the authoritative in-band signals (shell integration's OSC 133/633 marks, Codex's OSC 7501 state reports)
// and the agents' own hooks, turned into signals. Screen tiers stand down while these speak (the Tier 1 silence
// gate reads `lastAt`). Pure: the analyzer hosts it and owns the turn anchor and the state.
import type { Config, ProgramId } from '../config/config.js';
import type { InBandSignal, TimedSignal } from '../screen/types.js';
import type { MachineState, Signal, SignalType, Tier } from './types.js';
import { agentStateAction } from './agent-state.js';
import { endCarriesAnswer, hookAction, hookRule } from './hook-table.js';
import { hookNotAboutPane } from './hook-filter.js';
import { HookTurns } from './hook-turns.js';
import { MarkGate, type MarkVerdict } from './mark-gate.js';
import type { Phase } from './time-windows.js';

/** What Tier 1 needs from the analyzer that hosts it. */
export interface Tier1Host {
  readonly cfg: Config;
  readonly state: MachineState;
  phase(): Phase;
  /** Seconds since the turn anchor was armed (null: none is). */
  anchorAge(t: number): number | null;
  armAnchor(t: number): void;
  clearAnchor(): void;
  claimProgram(program: ProgramId, rule: string): void;
  /** The screen shows an explicit menu or question right now. */
  menuOnScreen(t: number): boolean;
  /** The screen plainly shows this turn failed: the failure's line, else null. */
  failureOnScreen(t: number): string | null;
  /** This turn waited on the person and the wait has ended. */
  readonly waitAnswered: boolean;
  /** A shell mark of this kind, arriving now, cannot be a shell's at its prompt (mark-gate.ts PaneNow.notShell). */
  markNotFromShell(kind: InBandSignal['kind'], t: number): boolean;
  emit(out: Signal[], t: number, type: SignalType, tier: Tier, rule: string, line: string): void;
  suppress(t: number, type: SignalType, tier: Tier, rule: string, reason: string): void;
}

type HookSignal = Extract<InBandSignal, { kind: 'hook' }>;

export class Tier1Inputs {
  /** When a Tier 1 signal last arrived. */
  lastAt = -Infinity;
  /** When an agent's hook last spoke (a Tier 1 signal). */
  private hookAt = -Infinity;
  /** A hook's turn end made the pane DONE: when, and its rule (the screen may show the turn failed a moment later). */
  private hookDone: { t: number; rule: string } | null = null;
  /** Shell integration said a command started and has not said it ended. */
  private running = false;
  /** `run`'s one-shot program runs: its source reports its end for certain, with the exit status. */
  private program = false;
  /** `run` started its program as a turn: its exit is reported (DONE or FAILED with the code) even when the program
   * turned out to be a session and the pane is at rest. */
  private programStarted = false;
  /** Codex's `working` with no prompt submitted, waiting to persist (it blips at launch). */
  private pendingWorking: { t: number; line: string } | null = null;
  /** A hook handed the decision back to the screen at this time (a turn end held for a queued prompt). */
  private yieldedAt = -Infinity;
  private readonly turns = new HookTurns();
  /** Which marks to believe (mark-gate.ts). */
  private readonly marks: MarkGate;

  /** `markNonce`: the nonce a shell we started with integration puts on its marks (null: we started none). */
  constructor(private readonly host: Tier1Host, markNonce: string | null = null) {
    this.marks = new MarkGate(markNonce);
  }

  /** A shell-integration mark was believed: the shell reports its own commands' ends and exit codes. */
  get shellIntegration(): boolean {
    return this.marks.shellIntegration;
  }

  /**
   * Whether an in-band signal is to be believed at all (mark-gate.ts): null yes; 'inert' it changes nothing; a
   * forged or out-of-order mark is refused: ignored whole, counted and kept among the suppressed decisions with its
   * reason (`forged_mark`, `mark_out_of_order`), and the reason returned for the log.
   */
  admit(ts: TimedSignal): MarkVerdict {
    const phase = this.host.phase();
    const refusal = this.marks.check(ts.signal, {
      phase,
      turnOpen: phase !== 'rest' || this.host.anchorAge(ts.t) !== null,
      notShell: this.host.markNotFromShell(ts.signal.kind, ts.t),
    });
    if (refusal && refusal !== 'inert') this.host.suppress(ts.t, markEffect(ts.signal), 1, markRule(ts.signal), refusal);
    return refusal;
  }

  get pending(): boolean {
    return this.pendingWorking !== null;
  }

  /** Whether the screen tiers stand down at `t`: Tier 1 spoke within the silence window and has not since handed
   * the decision to the screen. */
  silent(t: number): boolean {
    return t - this.lastAt < this.host.cfg.thresholds.prompt_silence_s && this.yieldedAt < this.lastAt;
  }

  /** The last Tier 1 word was an agent's hook. Hooks report no API error (Claude Code's, Gemini CLI's none at all;
   * Gemini CLI's AfterAgent fires for a failed turn as for any), so a failure the screen plainly shows is not hidden
   * by their silence; shell marks and OSC 7501 report failures themselves. */
  get hookSpoke(): boolean {
    return this.hookAt === this.lastAt;
  }

  /** The pane is at rest (the hooks' count of a stretch of work starts again). */
  rest(): void {
    this.turns.rest();
  }

  /** A command Tier 1 reported started has not been reported ended: questions it asks are still the screen's. */
  get commandRunning(): boolean {
    return this.running || this.program;
  }

  /** The running command's end will be reported for certain, with its exit status (`run`'s one-shot program): the
   * screen's guesses that it ended (a completion word, quiet) wait for that report. */
  get endAssured(): boolean {
    return this.program;
  }

  /** Handles a Tier 1 in-band signal; returns false for any other kind (the analyzer's own business). */
  signal(ts: TimedSignal, out: Signal[]): boolean {
    const s = ts.signal;
    const h = this.host;
    switch (s.kind) {
      case 'command-executed':
        this.lastAt = ts.t;
        // `run` sees its program exit, so that end is sure to come (see `endAssured`); a shell's marks inside it
        // (a nested integrated shell) are commands of their own.
        if (s.protocol === 'run') this.program = this.programStarted = true;
        else this.running = true;
        h.emit(out, ts.t, 'run', 1, `${s.protocol}.command_executed`, ts.line);
        return true;
      case 'command-finished': {
        this.lastAt = ts.t;
        const wasRunning = (s.protocol === 'run' ? this.programStarted : this.running) || h.phase() !== 'rest';
        if (s.protocol === 'run') this.program = false;
        else this.running = false;
        // The shell says nothing ran (an empty Enter): no turn to complete.
        if (!wasRunning) h.clearAnchor();
        else if (s.exitCode === undefined) h.emit(out, ts.t, 'done', 1, `${s.protocol}.command_finished`, ts.line || 'exit none');
        else h.emit(out, ts.t, s.exitCode === 0 ? 'done' : 'failed', 1, `${s.protocol}.command_${s.exitCode === 0 ? 'finished' : 'failed'}`, exitLine(s.exitCode, ts.line));
        return true;
      }
      case 'prompt-start':
        this.lastAt = ts.t;
        if (h.phase() === 'rest' && !this.running) h.clearAnchor(); // back at the prompt, nothing ran
        return true;
      case 'command-input':
      case 'command-line':
        this.lastAt = ts.t;
        return true;
      case 'agent-state':
        this.agentState(ts.t, s.state, s.extra, ts.line, out);
        return true;
      case 'hook':
        this.hook(ts.t, s, ts.line, out);
        return true;
      default:
        return false;
    }
  }

  /** The one-shot program turned out to be a session (an agent): its end is no longer waited for; its exit, should
   * it come mid-turn, still reports. */
  programIsSession(): void {
    this.program = false;
  }

  /** Tier 1 will not tell this session's turns (the program read the terminal at a prompt: its turns are the
   * screen's to read from now on): the silence after its last signal ends now. */
  yieldToScreen(t: number): void {
    this.yieldedAt = Math.max(t, this.lastAt);
  }

  /** A pending `working` that persisted long enough is believed. */
  tick(t: number, out: Signal[]): void {
    const p = this.pendingWorking;
    if (p && t - p.t >= this.host.cfg.thresholds.unanchored_working_confirm_s) {
      this.pendingWorking = null;
      this.host.emit(out, t, 'run', 1, 'osc7501.working_confirmed', p.line);
    }
  }

  private agentState(t: number, state: string, extra: Record<string, string>, line: string, out: Signal[]): void {
    const h = this.host;
    this.lastAt = t;
    if (extra['app'] === 'codex') h.claimProgram('codex', 'detect.codex.osc7501');
    const shown = line || `state=${state}`;
    const pending = this.pendingWorking;
    if (state !== 'working') this.pendingWorking = null;
    // A turn too short to confirm (working, then done or error within the window) still happened: the launch
    // blip goes back to idle, never to done or error.
    if (pending && (state === 'done' || state === 'error')) h.emit(out, pending.t, 'run', 1, 'osc7501.working', pending.line);
    const age = h.anchorAge(t);
    const action = agentStateAction(state, extra, {
      phase: h.phase(),
      justDone: h.state === 'DONE',
      anchored: age !== null && age <= h.cfg.thresholds.anchor_evidence_window_s,
    });
    if (action.kind === 'signal') h.emit(out, t, action.type, 1, action.rule, shown);
    else if (action.kind === 'pending') this.pendingWorking = { t, line: shown };
  }

  /** An agent's hook (delivered by the daemon): mapped through hook-table.ts. */
  private hook(t: number, s: HookSignal, line: string, out: Signal[]): void {
    const h = this.host;
    // A hook about another conversation (Codex's own side request) is not this pane's word at all.
    const elsewhere = hookNotAboutPane(h.cfg, s);
    if (elsewhere) return h.suppress(t, 'done', 1, hookRule(s.agent, s.event, s.detail), elsewhere);
    h.claimProgram(s.agent, `detect.${s.agent}.hook`);
    let action = hookAction(s.agent, s.event, s.detail, h.state);
    // A turn end with no answer while the screen plainly shows this turn failed (Gemini CLI's AfterAgent after an API
    // error, prompt_response "[no response text]"): the screen's failure is the news, not a DONE. An end carrying the
    // model's answer did not fail, whatever older error the screen still shows.
    const unanswered = !endCarriesAnswer(line);
    if (action.kind === 'signal' && action.effect === 'turn_end' && unanswered) {
      const failure = h.failureOnScreen(t);
      if (failure !== null) {
        action = { kind: 'signal', type: 'failed', rule: `${action.rule}.failure_on_screen`, effect: 'turn_failed' };
        line = failure;
      }
    }
    if (action.kind === 'signal') {
      // In the light of the hooks before it and of the screen (hook-turns.ts): a held or stale hook is no Tier 1 word.
      const review = this.turns.review(action.effect, { state: h.state, menuOnScreen: () => h.menuOnScreen(t), waitAnswered: h.waitAnswered });
      if (review.kind === 'suppress') {
        if (review.toScreen) this.yieldedAt = t;
        return h.suppress(t, action.type, 1, action.rule, review.reason);
      }
    }
    // A hook that says nothing about the state (SessionStart, an unknown event) does not silence the screen.
    if (action.kind === 'none') return;
    this.lastAt = t;
    this.hookAt = t;
    // A menu on screen is a fact: a hook's "working" (a late PreToolUse) does not hide it.
    if (action.type === 'run' && h.menuOnScreen(t)) return h.suppress(t, 'run', 1, action.rule, 'menu_on_screen');
    // The prompt the hook reports anchors the turn like Enter, unless Enter (seen in the pane) already did.
    const age = h.anchorAge(t);
    if (action.effect === 'turn_start' && (age === null || age > h.cfg.thresholds.anchor_evidence_window_s)) h.armAnchor(t);
    h.emit(out, t, action.type, 1, action.rule, line || s.event);
    this.hookDone = action.effect === 'turn_end' && action.type === 'done' && unanswered ? { t, rule: action.rule } : null;
  }

  /** The screen was read: a DONE a hook's turn end just made is FAILED when the screen now shows this turn failed
   * (read a moment after the hook arrived: its error was drawn before the hook ran). */
  screenRead(t: number, out: Signal[]): void {
    const d = this.hookDone;
    if (!d) return;
    const h = this.host;
    if (h.state !== 'DONE' || t - d.t > h.cfg.thresholds.hook_end_failure_s) {
      this.hookDone = null;
      return;
    }
    const failure = h.failureOnScreen(t);
    if (failure === null) return;
    this.hookDone = null;
    h.emit(out, t, 'failed', 1, `${d.rule}.failure_on_screen`, failure);
  }
}

/** What a mark would have done to the pane's state, for the suppressed decision's record. */
function markEffect(s: InBandSignal): SignalType {
  switch (s.kind) {
    case 'command-finished':
      return s.exitCode ? 'failed' : 'done';
    case 'agent-state':
      return s.state === 'working' ? 'run' : s.state === 'blocked' ? 'wait' : s.state === 'error' ? 'failed' : 'done';
    case 'prompt-start':
    case 'command-input':
      return 'idle';
    default:
      return 'run';
  }
}

/** The rule a mark is read by: `osc133.command_finished`, `osc7501.done`. */
function markRule(s: InBandSignal): string {
  if (s.kind === 'agent-state') return `${s.protocol}.${s.state}`;
  const protocol = 'protocol' in s ? s.protocol : 'mark';
  return `${protocol}.${s.kind.replace('-', '_')}`;
}

/** "exit 1: 3 tests failed": the status first, then the line that says why. */
function exitLine(code: number, line: string): string {
  return line.trim() ? `exit ${code}: ${line}` : `exit ${code}`;
}
