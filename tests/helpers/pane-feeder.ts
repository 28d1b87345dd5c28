// Feeds one PaneMonitor (the whole pipeline, virtual time) a long stream of events the way a live source would:
// fire and forget, pausing only when the terminal's queue is past the high-water mark. Cheap per event, so
// megabytes of hostile input in thousands of chunks replay quickly.
import { loadConfig, type AgentChoice, type Config } from '../../src/config/config.js';
import type { PaneEvent } from '../../src/attach/source.js';
import type { PaneMonitor } from '../../src/daemon/pane-monitor.js';
import { virtualPane } from '../../src/daemon/replay.js';
import type { VirtualClock } from '../../src/state/clock.js';
import type { MachineState } from '../../src/analysis/types.js';

export const VALID_STATES: readonly MachineState[] = ['IDLE', 'RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL', 'DONE', 'FAILED'];

/** Distributive Omit: an event of any kind, minus its time. */
type Untimed<E> = E extends PaneEvent ? Omit<E, 't'> : never;

export class PaneFeeder {
  readonly clock: VirtualClock;
  readonly cfg: Config = loadConfig();
  readonly monitor: PaneMonitor;
  /** Pane-clock seconds of the last event fed. */
  t = 0;

  constructor(opts: { cols?: number; rows?: number; agent?: AgentChoice } = {}) {
    ({ clock: this.clock, monitor: this.monitor } = virtualPane({ cfg: this.cfg, cols: opts.cols ?? 80, rows: opts.rows ?? 24, agent: opts.agent ?? 'auto' }));
  }

  /** One event `afterMs` after the previous one. */
  async feed(ev: Untimed<PaneEvent>, afterMs = 5): Promise<void> {
    this.t += afterMs / 1000;
    this.monitor.handle({ ...ev, t: this.t } as PaneEvent);
    if (this.monitor.backlogged) await this.monitor.drain();
  }

  output(data: string | Uint8Array, afterMs = 5): Promise<void> {
    return this.feed({ kind: 'output', data }, afterMs);
  }

  input(data: string, afterMs = 5): Promise<void> {
    return this.feed({ kind: 'input', data }, afterMs);
  }

  /** Wait until everything fed so far is parsed and analysed, then let `ms` more of virtual time run. */
  async settle(ms = 0): Promise<void> {
    await this.monitor.flush();
    this.t += ms / 1000;
    this.clock.advanceTo(this.t * 1000);
  }

  get state(): MachineState {
    return this.monitor.state.state;
  }

  stop(): void {
    this.monitor.stop();
  }
}
