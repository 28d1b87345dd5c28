// Messages between the `run` wrapper's main thread (the person's terminal) and the worker thread that watches its
// pane (src/cli/monitor-worker.ts). Plain data: they cross threads by structured clone.
import type { AgentChoice } from '../config/config.js';
import type { PaneEvent } from '../attach/source.js';
import type { RepaintInput } from '../screen/repaint.js';
import type { Transition } from '../state/pane-machine.js';
import type { MachineState } from '../analysis/types.js';

export interface MonitorWorkerData {
  /** --config as given (the worker loads the same config the wrapper did). */
  configPath: string | undefined;
  /** The wrapper found mistakes in that config and watches with the defaults: the worker does too. */
  defaults?: boolean;
  cols: number;
  rows: number;
  agent: AgentChoice;
  command: string;
  /** Date.now() at the wrapper's clock's origin: both threads read one pane clock. */
  originMs: number;
  /** The nonce on the marks of the shell started with integration (src/shell/inject.ts). */
  markNonce?: string;
}

/** Where the pane stands, sent with every answer. */
export interface MonitorStatus {
  state: MachineState;
  program: string;
}

/** An exception caught in the pane's pipeline, for the wrapper's event log (repeats thinned by the worker). */
export interface MonitorFault {
  /** Pane-clock seconds. */
  t: number;
  stage: string;
  step: string;
  program: string;
  /** The error's name and message. */
  error: string;
  /** Errors caught in the pane so far. */
  count: number;
}

export type ToWorker =
  | { type: 'event'; ev: PaneEvent }
  | { type: 'flush'; id: number; drawing: boolean }
  | { type: 'stop' };

export type FromWorker =
  /** Sent once the monitor is made: where it starts. */
  | ({ type: 'ready' } & MonitorStatus)
  | ({ type: 'transition'; tr: Transition } & MonitorStatus)
  /** Characters of output the worker has parsed since its last report (the wrapper's backlog accounting). */
  | { type: 'parsed'; chars: number }
  | { type: 'fault'; fault: MonitorFault }
  | ({ type: 'flushed'; id: number; drawing: RepaintInput | null } & MonitorStatus);
