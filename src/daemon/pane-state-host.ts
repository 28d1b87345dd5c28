// One pane's XState machine, kept running whatever happens inside it. XState stops an actor whose action threw and,
// with no error observer, rethrows the error outside any handler (the process dies); here the error is reported as
// the pane's fault and the next event finds a new machine in the state the failed one had reached.
import { createActor, type Actor } from 'xstate';
import { paneMachine, type PaneMachineContext, type PaneMachineEvent, type Transition } from '../state/pane-machine.js';
import type { Clock } from '../state/clock.js';
import type { FaultTracker } from './pane-fault.js';

export interface PaneStateHostOptions {
  clock: Clock;
  longRunningS: number;
  waitingFallbackIdleS: number;
  faults: FaultTracker;
  /** Called inside the machine's action for every transition: it must not throw (PaneMonitor guards it). */
  onTransition: (tr: Transition) => void;
}

export class PaneStateHost {
  private actor: Actor<typeof paneMachine>;

  constructor(private readonly opts: PaneStateHostOptions) {
    this.actor = this.start();
  }

  get context(): PaneMachineContext {
    return this.actor.getSnapshot().context;
  }

  send(ev: PaneMachineEvent): void {
    if (this.actor.getSnapshot().status === 'error') this.restart();
    this.actor.send(ev);
  }

  stop(): void {
    this.actor.stop();
  }

  private start(from?: PaneMachineContext): Actor<typeof paneMachine> {
    const o = this.opts;
    const actor = createActor(paneMachine, {
      clock: o.clock,
      input: { nowMs: () => o.clock.now(), onTransition: o.onTransition, longRunningS: o.longRunningS, waitingFallbackIdleS: o.waitingFallbackIdleS },
      // A restart keeps the state the pane was in (its timers start with the next move).
      ...(from && { snapshot: paneMachine.resolveState({ value: from.state, context: from }) }),
    });
    actor.subscribe({ error: (e) => o.faults.report(e, 'state') });
    actor.start();
    return actor;
  }

  /** The machine threw (it is stopped now): a new one takes over from the last state it reached. */
  private restart(): void {
    const failed = this.actor;
    this.actor = this.start(failed.getSnapshot().context);
    failed.stop();
  }
}
