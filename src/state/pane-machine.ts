// One XState machine per pane: the states a person sees and the rules that move between them. Signals come from
// the analyzer (or a person's ack); delays run on the injected clock, so replays move in virtual time. Every
// transition records from, to, tier, rule, the screen line, and whether started_at was kept or reset.
import { assign, setup } from 'xstate';
import type { Signal, Tier, MachineState } from '../analysis/types.js';

export interface Transition {
  /** Pane-clock seconds. */
  t: number;
  from: MachineState;
  to: MachineState;
  tier: Tier | 0;
  rule: string;
  line: string;
  /** When the current piece of work began (kept across RUNNING→WAITING→RUNNING→DONE, reset on a new turn). */
  startedAt: number;
  startedAtKept: boolean;
  stalled: boolean;
  /** The turn's phase and rule that decided it (analysis/turn-rules.ts), when the screen's rules did. */
  step?: string;
}

export interface PaneMachineContext {
  state: MachineState;
  since: number;
  startedAt: number;
  tier: Tier | 0;
  rule: string;
  line: string;
  stalled: boolean;
  /** The tier that put the pane in WAITING (a Tier 3 guess decays by timer; a menu the program drew does not). */
  waitTier: Tier | 0;
  nowMs: () => number;
  onTransition: (tr: Transition) => void;
  longRunningMs: number;
  waitingFallbackMs: number;
  /** The pane's host cannot be reached (HOLD … RESUME): time alone moves nothing, its timers end with no move. */
  held: boolean;
}

/** An analyzer signal as a machine event: its type names the event (`signal.done`), so the machine picks the
 * transition by event type alone, with no guard to evaluate per candidate. */
export type SignalEvent = { [K in Signal['type']]: { type: `signal.${K}`; signal: Signal } }[Signal['type']];

export type PaneMachineEvent =
  | SignalEvent
  /** The person has seen it (dashboard ack, focus): DONE/FAILED/WAITING → IDLE. */
  | { type: 'ACK'; t: number; by: string }
  /** The pane's host became unreachable / reachable again: a screen nobody can see is not a quiet one, so no timer
   * may decide while held; RESUME starts the state's timers afresh. */
  | { type: 'HOLD' }
  | { type: 'RESUME' };

/** The machine event for an analyzer signal. */
export function signalEvent(signal: Signal): SignalEvent {
  return { type: `signal.${signal.type}`, signal } as SignalEvent;
}

export interface PaneMachineInput {
  nowMs: () => number;
  onTransition: (tr: Transition) => void;
  longRunningS: number;
  waitingFallbackIdleS: number;
}

type Ctx = PaneMachineContext;
type Ev = PaneMachineEvent;

/** Build the record and the new context for a move to `to`; `keep` keeps started_at, otherwise it resets to now. */
function move(ctx: Ctx, ev: Ev | null, to: MachineState, keep: boolean, timerRule?: string): Partial<Ctx> {
  const s = ev && 'signal' in ev ? ev.signal : null;
  const t = s ? s.t : ev?.type === 'ACK' ? ev.t : ctx.nowMs() / 1000;
  const tier: Tier | 0 = s ? s.tier : 0;
  const rule = s ? s.rule : ev?.type === 'ACK' ? `ack.${ev.by}` : (timerRule ?? 'timer');
  const line = s ? s.line : '';
  const startedAt = keep ? ctx.startedAt : t;
  // Only the LONG_RUNNING timer keeps a stall: it changes the name of the work, not the work.
  const stalled = to === 'LONG_RUNNING' ? ctx.stalled : false;
  const next: Partial<Ctx> = { state: to, since: t, startedAt, tier, rule, line, stalled };
  if (to === 'WAITING_APPROVAL') next.waitTier = tier;
  const tr: Transition = { t, from: ctx.state, to, tier, rule, line, startedAt, startedAtKept: keep, stalled };
  if (s?.step) tr.step = s.step;
  ctx.onTransition(tr);
  return next;
}

/** RUNNING and LONG_RUNNING react alike: the end of the turn keeps started_at, a stall only marks it. */
const BUSY_SIGNALS = {
  'signal.done': { target: 'DONE', actions: 'toDoneKeep' },
  'signal.failed': { target: 'FAILED', actions: 'toFailedKeep' },
  'signal.wait': { target: 'WAITING_APPROVAL', actions: 'toWaitingKeep' },
  'signal.idle': { target: 'IDLE', actions: 'toIdleReset' },
  'signal.stall': { actions: 'markStalled' },
  'signal.activity': { actions: 'clearStalled' },
} as const;

export const paneMachine = setup({
  types: {} as { context: Ctx; events: Ev; input: PaneMachineInput },
  delays: {
    longRunning: ({ context }) => context.longRunningMs,
    waitingFallback: ({ context }) => context.waitingFallbackMs,
  },
  guards: {
    waitWasHeuristic: ({ context }) => context.waitTier === 3 && context.waitingFallbackMs > 0 && !context.held,
    notHeld: ({ context }) => !context.held,
  },
  actions: {
    toRunningReset: assign(({ context, event }) => move(context, event, 'RUNNING', false)),
    toRunningKeep: assign(({ context, event }) => move(context, event, 'RUNNING', true)),
    toDoneKeep: assign(({ context, event }) => move(context, event, 'DONE', true)),
    toFailedKeep: assign(({ context, event }) => move(context, event, 'FAILED', true)),
    toWaitingKeep: assign(({ context, event }) => move(context, event, 'WAITING_APPROVAL', true)),
    toWaitingReset: assign(({ context, event }) => move(context, event, 'WAITING_APPROVAL', false)),
    toIdleReset: assign(({ context, event }) => move(context, event, 'IDLE', false)),
    toLongRunning: assign(({ context }) => move(context, null, 'LONG_RUNNING', true, 'timer.long_running')),
    hold: assign({ held: true }),
    resume: assign({ held: false }),
    waitFallbackIdle: assign(({ context }) => move(context, null, 'IDLE', false, 'timer.waiting_fallback_idle')),
    markStalled: assign(({ context, event }) => {
      const s = 'signal' in event ? event.signal : null;
      const t = s?.t ?? context.nowMs() / 1000;
      context.onTransition({ t, from: context.state, to: context.state, tier: s?.tier ?? 3, rule: s?.rule ?? 'stall', line: s?.line ?? '', startedAt: context.startedAt, startedAtKept: true, stalled: true });
      return { stalled: true };
    }),
    clearStalled: assign(({ context, event }) => {
      const s = 'signal' in event ? event.signal : null;
      const t = s?.t ?? context.nowMs() / 1000;
      context.onTransition({ t, from: context.state, to: context.state, tier: s?.tier ?? 3, rule: s?.rule ?? 'activity', line: s?.line ?? '', startedAt: context.startedAt, startedAtKept: true, stalled: false });
      return { stalled: false };
    }),
  },
}).createMachine({
  id: 'pane',
  initial: 'IDLE',
  context: ({ input }) => ({
    state: 'IDLE',
    since: 0,
    startedAt: 0,
    tier: 0,
    rule: 'start',
    line: '',
    stalled: false,
    waitTier: 0,
    nowMs: input.nowMs,
    onTransition: input.onTransition,
    longRunningMs: input.longRunningS * 1000,
    waitingFallbackMs: input.waitingFallbackIdleS * 1000,
    held: false,
  }),
  on: {
    HOLD: { actions: 'hold' },
    RESUME: { actions: 'resume' },
  },
  states: {
    IDLE: {
      on: {
        'signal.run': { target: 'RUNNING', actions: 'toRunningReset' },
        'signal.wait': { target: 'WAITING_APPROVAL', actions: 'toWaitingReset' },
        'signal.done': { target: 'DONE', actions: 'toDoneKeep' },
        'signal.failed': { target: 'FAILED', actions: 'toFailedKeep' },
      },
    },
    RUNNING: {
      after: { longRunning: { guard: 'notHeld', target: 'LONG_RUNNING', actions: 'toLongRunning' } },
      // Back from an outage: the long-running clock starts again (the outage is not time seen running).
      on: { ...BUSY_SIGNALS, RESUME: { target: 'RUNNING', reenter: true, actions: 'resume' } },
    },
    LONG_RUNNING: {
      on: BUSY_SIGNALS,
    },
    WAITING_APPROVAL: {
      after: { waitingFallback: { guard: 'waitWasHeuristic', target: 'IDLE', actions: 'waitFallbackIdle' } },
      on: {
        'signal.run': { target: 'RUNNING', actions: 'toRunningKeep' },
        'signal.done': { target: 'DONE', actions: 'toDoneKeep' },
        'signal.failed': { target: 'FAILED', actions: 'toFailedKeep' },
        'signal.idle': { target: 'IDLE', actions: 'toIdleReset' },
        ACK: { target: 'IDLE', actions: 'toIdleReset' },
        RESUME: { target: 'WAITING_APPROVAL', reenter: true, actions: 'resume' },
      },
    },
    DONE: {
      on: {
        'signal.run': { target: 'RUNNING', actions: 'toRunningReset' },
        'signal.wait': { target: 'WAITING_APPROVAL', actions: 'toWaitingReset' },
        'signal.failed': { target: 'FAILED', actions: 'toFailedKeep' },
        'signal.idle': { target: 'IDLE', actions: 'toIdleReset' },
        ACK: { target: 'IDLE', actions: 'toIdleReset' },
      },
    },
    FAILED: {
      on: {
        'signal.run': { target: 'RUNNING', actions: 'toRunningReset' },
        'signal.wait': { target: 'WAITING_APPROVAL', actions: 'toWaitingReset' },
        'signal.done': { target: 'DONE', actions: 'toDoneKeep' },
        'signal.idle': { target: 'IDLE', actions: 'toIdleReset' },
        ACK: { target: 'IDLE', actions: 'toIdleReset' },
      },
    },
  },
});
