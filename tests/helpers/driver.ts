// Drives one PaneMonitor (the real pipeline: terminal → change queue → analyzer → state machine) in virtual time.
// Every event is applied at its own pane-clock time; `until` lets time run on so quiet windows and timers fire.
import { afterEach } from 'vitest';
import { loadConfig, type AgentChoice, type Config, type Raw } from '../../src/config/config.js';
import type { PaneMonitor } from '../../src/daemon/pane-monitor.js';
import { virtualPane } from '../../src/daemon/replay.js';
import type { VirtualClock } from '../../src/state/clock.js';
import type { Transition } from '../../src/state/pane-machine.js';
import type { MachineState } from '../../src/analysis/types.js';

export interface DriverOptions {
  agent?: AgentChoice;
  overrides?: Raw;
  cols?: number;
  rows?: number;
  command?: string;
  /** The nonce of a shell started with integration: its marks without it are forged. */
  markNonce?: string;
}

export class PaneDriver {
  readonly clock: VirtualClock;
  readonly cfg: Config;
  readonly monitor: PaneMonitor;

  constructor(opts: DriverOptions = {}) {
    this.cfg = loadConfig(opts.overrides ? { overrides: opts.overrides } : {});
    ({ clock: this.clock, monitor: this.monitor } = virtualPane({
      cfg: this.cfg,
      cols: opts.cols ?? 100,
      rows: opts.rows ?? 24,
      agent: opts.agent ?? 'auto',
      command: opts.command,
      markNonce: opts.markNonce,
    }));
  }

  async out(t: number, data: string): Promise<void> {
    this.monitor.handle({ kind: 'output', t, data });
    await this.monitor.flush();
  }

  async input(t: number, data: string): Promise<void> {
    this.monitor.handle({ kind: 'input', t, data });
    await this.monitor.flush();
  }

  /** A person typing: each key is input, then its echo 10 ms later. */
  async type(t: number, text: string): Promise<number> {
    for (const ch of text) {
      await this.input(t, ch);
      await this.out(t + 0.01, ch);
      t += 0.05;
    }
    return t;
  }

  /** The foreground process changed (`facts`: its other names, whether it sits reading the terminal). */
  async process(t: number, name: string, facts: { names?: string[]; reading?: boolean } = {}): Promise<void> {
    this.monitor.handle({ kind: 'process', t, name, ...facts });
    await this.monitor.flush();
  }

  /** Let virtual time run on to `t` seconds (ticks, coalescing and machine timers fire on the way). */
  async until(t: number): Promise<void> {
    await this.monitor.flush();
    this.clock.advanceTo(t * 1000);
  }

  get transitions(): Transition[] {
    return this.monitor.transitions;
  }

  /** The states moved into, in order (stall marks, which keep the state, left out). */
  get states(): MachineState[] {
    return this.transitions.filter((tr) => tr.from !== tr.to).map((tr) => tr.to);
  }

  get state(): MachineState {
    return this.monitor.state.state;
  }

  first(to: MachineState): Transition | undefined {
    return this.transitions.find((tr) => tr.to === to && tr.from !== to);
  }

  counter(key: string): number {
    return this.monitor.analyzer.counters.get(key) ?? 0;
  }

  /** Sum of counters whose key matches. */
  counted(pattern: RegExp): number {
    let n = 0;
    for (const [k, v] of this.monitor.analyzer.counters) if (pattern.test(k)) n += v;
    return n;
  }

  describe(): string {
    return this.transitions.map((tr) => `${tr.t.toFixed(3)} ${tr.from}->${tr.to}${tr.stalled ? '*' : ''} t${tr.tier} ${tr.rule} | ${tr.line}`).join('\n');
  }

  stop(): void {
    this.monitor.stop();
  }
}

/** A test file's driver factory: each driver it makes (defaults, then the call's options) is stopped after each test. */
export function useDrivers(defaults: DriverOptions = {}): (opts?: DriverOptions) => PaneDriver {
  const made: PaneDriver[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) d.stop();
  });
  return (opts = {}) => {
    const d = new PaneDriver({ ...defaults, ...opts });
    made.push(d);
    return d;
  };
}
