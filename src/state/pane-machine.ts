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
}

export type PaneMachineEvent =
  | { type: 'SIGNAL'; signal: Signal }
  /** The person has seen it (dashboard ack, focus): DONE/FAILED/WAITING → IDLE. */
  | { type: 'ACK'; t: number; by: string };

export interface PaneMachineInput {
  nowMs: () => number;
  onTransition: (tr: Transition) => void;
  longRunningS: number;
  waitingFallbackIdleS: number;
}

type Ctx = PaneMachineContext;
type Ev = PaneMachineEvent;

const sig = (type: Signal['type']) => ({ event }: { event: Ev }) => event.type === 'SIGNAL' && event.signal.type === type;

/** Build the record and the new context for a move to `to`; `keep` keeps started_at, otherwise it resets to now. */
function move(ctx: Ctx, ev: Ev | null, to: MachineState, keep: boolean, timerRule?: string): Partial<Ctx> {
  const t = ev?.type === 'SIGNAL' ? ev.signal.t : ev?.type === 'ACK' ? ev.t : ctx.nowMs() / 1000;
  const tier: Tier | 0 = ev?.type === 'SIGNAL' ? ev.signal.tier : 0;
  const rule = ev?.type === 'SIGNAL' ? ev.signal.rule : ev?.type === 'ACK' ? `ack.${ev.by}` : (timerRule ?? 'timer');
  const line = ev?.type === 'SIGNAL' ? ev.signal.line : '';
  const startedAt = keep ? ctx.startedAt : t;
  // Only the LONG_RUNNING timer keeps a stall: it changes the name of the work, not the work.
  const stalled = to === 'LONG_RUNNING' ? ctx.stalled : false;
  const next: Partial<Ctx> = { state: to, since: t, startedAt, tier, rule, line, stalled };
  if (to === 'WAITING_APPROVAL') next.waitTier = tier;
  ctx.onTransition({ t, from: ctx.state, to, tier, rule, line, startedAt, startedAtKept: keep, stalled });
  return next;
}

/** RUNNING and LONG_RUNNING react alike: the end of the turn keeps started_at, a stall only marks it. */
const BUSY_SIGNALS = [
  { guard: 'isDone', target: 'DONE', actions: 'toDoneKeep' },
  { guard: 'isFailed', target: 'FAILED', actions: 'toFailedKeep' },
  { guard: 'isWait', target: 'WAITING_APPROVAL', actions: 'toWaitingKeep' },
  { guard: 'isIdle', target: 'IDLE', actions: 'toIdleReset' },
  { guard: 'isStall', actions: 'markStalled' },
  { guard: 'isActivity', actions: 'clearStalled' },
] as const;

export const paneMachine = setup({
  types: {} as { context: Ctx; events: Ev; input: PaneMachineInput },
  delays: {
    longRunning: ({ context }) => context.longRunningMs,
    waitingFallback: ({ context }) => context.waitingFallbackMs,
  },
  guards: {
    isRun: sig('run'),
    isDone: sig('done'),
    isFailed: sig('failed'),
    isWait: sig('wait'),
    isIdle: sig('idle'),
    isStall: sig('stall'),
    isActivity: sig('activity'),
    waitWasHeuristic: ({ context }) => context.waitTier === 3 && context.waitingFallbackMs > 0,
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
    waitFallbackIdle: assign(({ context }) => move(context, null, 'IDLE', false, 'timer.waiting_fallback_idle')),
    markStalled: assign(({ context, event }) => {
      const s = event.type === 'SIGNAL' ? event.signal : null;
      const t = s?.t ?? context.nowMs() / 1000;
      context.onTransition({ t, from: context.state, to: context.state, tier: s?.tier ?? 3, rule: s?.rule ?? 'stall', line: s?.line ?? '', startedAt: context.startedAt, startedAtKept: true, stalled: true });
      return { stalled: true };
    }),
    clearStalled: assign(({ context, event }) => {
      const s = event.type === 'SIGNAL' ? event.signal : null;
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
  }),
  states: {
    IDLE: {
      on: {
        SIGNAL: [
          { guard: 'isRun', target: 'RUNNING', actions: 'toRunningReset' },
          { guard: 'isWait', target: 'WAITING_APPROVAL', actions: 'toWaitingReset' },
          { guard: 'isDone', target: 'DONE', actions: 'toDoneKeep' },
          { guard: 'isFailed', target: 'FAILED', actions: 'toFailedKeep' },
        ],
      },
    },
    RUNNING: {
      after: { longRunning: { target: 'LONG_RUNNING', actions: 'toLongRunning' } },
      on: { SIGNAL: BUSY_SIGNALS },
    },
    LONG_RUNNING: {
      on: { SIGNAL: BUSY_SIGNALS },
    },
    WAITING_APPROVAL: {
      after: { waitingFallback: { guard: 'waitWasHeuristic', target: 'IDLE', actions: 'waitFallbackIdle' } },
      on: {
        SIGNAL: [
          { guard: 'isRun', target: 'RUNNING', actions: 'toRunningKeep' },
          { guard: 'isDone', target: 'DONE', actions: 'toDoneKeep' },
          { guard: 'isFailed', target: 'FAILED', actions: 'toFailedKeep' },
          { guard: 'isIdle', target: 'IDLE', actions: 'toIdleReset' },
        ],
        ACK: { target: 'IDLE', actions: 'toIdleReset' },
      },
    },
    DONE: {
      on: {
        SIGNAL: [
          { guard: 'isRun', target: 'RUNNING', actions: 'toRunningReset' },
          { guard: 'isWait', target: 'WAITING_APPROVAL', actions: 'toWaitingReset' },
          { guard: 'isFailed', target: 'FAILED', actions: 'toFailedKeep' },
          { guard: 'isIdle', target: 'IDLE', actions: 'toIdleReset' },
        ],
        ACK: { target: 'IDLE', actions: 'toIdleReset' },
      },
    },
    FAILED: {
      on: {
        SIGNAL: [
          { guard: 'isRun', target: 'RUNNING', actions: 'toRunningReset' },
          { guard: 'isWait', target: 'WAITING_APPROVAL', actions: 'toWaitingReset' },
          { guard: 'isDone', target: 'DONE', actions: 'toDoneKeep' },
          { guard: 'isIdle', target: 'IDLE', actions: 'toIdleReset' },
        ],
        ACK: { target: 'IDLE', actions: 'toIdleReset' },
      },
    },
  },
});
