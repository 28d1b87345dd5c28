// Tier 1: the authoritative in-band signals (shell integration's OSC 133/633 marks, Codex's OSC 7501 state reports)
// and the agents' own hooks, turned into signals. Screen tiers stand down while these speak (the Tier 1 silence
// gate reads `lastAt`). Pure: the analyzer hosts it and owns the turn anchor and the state.
import type { Config, ProgramId } from '../config/config.js';
import type { InBandSignal, TimedSignal } from '../screen/types.js';
import type { MachineState, Signal, SignalType, Tier } from './types.js';
import { agentStateAction } from './agent-state.js';
import { hookAction } from './hook-table.js';
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
  emit(out: Signal[], t: number, type: SignalType, tier: Tier, rule: string, line: string): void;
  suppress(t: number, type: SignalType, tier: Tier, rule: string, reason: string): void;
}

type HookSignal = Extract<InBandSignal, { kind: 'hook' }>;

export class Tier1Inputs {
  /** When a Tier 1 signal last arrived. */
  lastAt = -Infinity;
  /** Shell integration said a command started and has not said it ended. */
  private running = false;
  /** Codex's `working` with no prompt submitted, waiting to persist (it blips at launch). */
  private pendingWorking: { t: number; line: string } | null = null;

  constructor(private readonly host: Tier1Host) {}

  get pending(): boolean {
    return this.pendingWorking !== null;
  }

  /** Handles a Tier 1 in-band signal; returns false for any other kind (the analyzer's own business). */
  signal(ts: TimedSignal, out: Signal[]): boolean {
    const s = ts.signal;
    const h = this.host;
    switch (s.kind) {
      case 'command-executed':
        this.lastAt = ts.t;
        this.running = true;
        h.emit(out, ts.t, 'run', 1, `${s.protocol}.command_executed`, ts.line);
        return true;
      case 'command-finished': {
        this.lastAt = ts.t;
        const wasRunning = this.running || h.phase() !== 'rest';
        this.running = false;
        // The shell says nothing ran (an empty Enter): no turn to complete.
        if (!wasRunning) h.clearAnchor();
        else if (s.exitCode === undefined || s.exitCode === 0) h.emit(out, ts.t, 'done', 1, `${s.protocol}.command_finished`, ts.line || `exit ${s.exitCode ?? 'none'}`);
        else h.emit(out, ts.t, 'failed', 1, `${s.protocol}.command_failed`, ts.line.trim() ? `exit ${s.exitCode}: ${ts.line}` : `exit ${s.exitCode}`);
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
    this.lastAt = t;
    h.claimProgram(s.agent, `detect.${s.agent}.hook`);
    const action = hookAction(s.agent, s.event, s.detail, h.state);
    if (action.kind === 'none') return;
    // A menu on screen is a fact: a hook's "working" (a late PreToolUse) does not hide it.
    if (action.type === 'run' && h.menuOnScreen(t)) return h.suppress(t, 'run', 1, action.rule, 'menu_on_screen');
    // The prompt the hook reports anchors the turn like Enter, unless Enter (seen in the pane) already did.
    const age = h.anchorAge(t);
    if (action.effect === 'turn_start' && (age === null || age > h.cfg.thresholds.anchor_evidence_window_s)) h.armAnchor(t);
    h.emit(out, t, action.type, 1, action.rule, line || s.event);
  }
}
