// The main thread's side of the `run` wrapper's pane monitor (the monitor itself runs in monitor-worker.ts): hands
// it the pane's events, keeps the last state and program it reported, and tells the wrapper when the worker is so
// far behind that reading the pty should wait (a memory bound, reached only by a sustained flood).
import { Worker } from 'node:worker_threads';
import type { PaneEvent } from '../attach/source.js';
import type { RepaintInput } from '../screen/repaint.js';
import type { Transition } from '../state/pane-machine.js';
import type { MachineState } from '../analysis/types.js';
import type { FromWorker, MonitorFault, MonitorWorkerData, ToWorker } from './monitor-protocol.js';
import type { Config } from '../config/config.js';
import { ProgramTracker } from '../analysis/program-tracker.js';
import { forcedProgram } from '../analysis/profiles/index.js';

/** Output characters handed to the worker and not parsed yet beyond which the wrapper stops reading the pty: far
 * past what any burst a person watches needs (the pass-through never waits below it), small enough to bound the
 * memory a flood of slow-to-parse sequences can pile up. */
export const WORKER_HIGH_WATER = 16 << 20;

export class MonitorThread {
  state: MachineState = 'IDLE';
  /** The program the pane is read as: at first what its command says (as the monitor's own start), then its word. */
  program: string;
  /** Why the monitor stopped watching (its thread failed), or null while it watches. */
  failed: Error | null = null;
  private readonly worker: Worker;
  private readonly transitionListeners: Array<(tr: Transition) => void> = [];
  private readonly faultListeners: Array<(f: MonitorFault) => void> = [];
  private readonly originMs: number;
  private readonly flushes = new Map<number, (drawing: RepaintInput | null) => void>();
  private flushSeq = 0;
  private unparsed = 0;
  private drainWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(data: MonitorWorkerData, cfg: Config) {
    this.program = new ProgramTracker(cfg, forcedProgram(data.agent), data.command).name;
    this.originMs = data.originMs;
    this.worker = new Worker(new URL('./monitor-worker.js', import.meta.url), { workerData: data });
    this.worker.on('message', (m: FromWorker) => this.onMessage(m));
    // Analysis failing never takes the wrapper down: the pane keeps passing through, unwatched.
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) => {
      if (!this.stopped) this.fail(new Error(`the pane monitor's thread exited (${code})`));
    });
  }

  onTransition(l: (tr: Transition) => void): void {
    this.transitionListeners.push(l);
  }

  /** An exception was caught in the pane's pipeline (the worker goes on), or the worker itself failed. */
  onFault(l: (f: MonitorFault) => void): void {
    this.faultListeners.push(l);
  }

  handle(ev: PaneEvent): void {
    if (this.failed || this.stopped) return;
    if (ev.kind === 'output') this.unparsed += ev.data.length;
    this.post({ type: 'event', ev });
  }

  /** The worker is this far behind: stop reading the pty until drain() resolves. */
  get backlogged(): boolean {
    return this.unparsed > WORKER_HIGH_WATER;
  }

  drain(): Promise<void> {
    if (!this.backlogged) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Resolves once everything handed in so far is parsed and analysed, with the screen drawn if asked. */
  flush(drawing = false): Promise<RepaintInput | null> {
    if (this.failed || this.stopped) return Promise.resolve(null);
    const id = ++this.flushSeq;
    return new Promise((resolve) => {
      this.flushes.set(id, resolve);
      this.post({ type: 'flush', id, drawing });
    });
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.post({ type: 'stop' });
    this.release();
    await this.worker.terminate();
  }

  private post(m: ToWorker): void {
    try {
      this.worker.postMessage(m);
    } catch (e) {
      this.fail(e as Error);
    }
  }

  private onMessage(m: FromWorker): void {
    switch (m.type) {
      case 'ready':
        this.state = m.state;
        this.program = m.program;
        break;
      case 'transition':
        this.state = m.state;
        this.program = m.program;
        for (const l of this.transitionListeners) l(m.tr);
        break;
      case 'fault':
        for (const l of this.faultListeners) l(m.fault);
        break;
      case 'parsed':
        this.unparsed = Math.max(0, this.unparsed - m.chars);
        if (this.unparsed < WORKER_HIGH_WATER / 2) this.release();
        break;
      case 'flushed':
        this.state = m.state;
        this.program = m.program;
        this.flushes.get(m.id)?.(m.drawing);
        this.flushes.delete(m.id);
        break;
    }
  }

  private fail(e: Error): void {
    if (this.failed) return;
    this.failed = e;
    this.release();
    const fault: MonitorFault = { t: (Date.now() - this.originMs) / 1000, stage: 'analysis', step: 'thread', program: this.program, error: `${e.name}: ${e.message}`, count: 1 };
    for (const l of this.faultListeners) l(fault);
    for (const resolve of this.flushes.values()) resolve(null);
    this.flushes.clear();
  }

  private release(): void {
    const w = this.drainWaiters;
    this.drainWaiters = [];
    for (const r of w) r();
  }
}
