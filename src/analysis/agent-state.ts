// Codex's OSC 7501 state reports (Tier 1) as a decision table. Pure.
import type { SignalType } from './types.js';

export type AgentStateAction =
  | { kind: 'signal'; type: SignalType; rule: string }
  /** `working` with no prompt submitted: believe it only if it persists (Codex blips working→idle at launch). */
  | { kind: 'pending' }
  | { kind: 'none' };

export interface AgentStateContext {
  phase: 'rest' | 'running' | 'waiting';
  /** The last state was DONE (an error right after a turn ended still fails that turn). */
  justDone: boolean;
  /** A prompt was submitted recently enough that `working` belongs to it. */
  anchored: boolean;
}

export function agentStateAction(state: string, extra: Record<string, string>, ctx: AgentStateContext): AgentStateAction {
  const rule = `osc7501.${state}`;
  const signal = (type: SignalType, r = rule): AgentStateAction => ({ kind: 'signal', type, rule: r });
  switch (state) {
    case 'working':
      if (ctx.phase === 'waiting') return signal('run');
      if (ctx.phase === 'running') return { kind: 'none' };
      return ctx.anchored ? signal('run') : { kind: 'pending' };
    case 'blocked':
      return signal('wait', extra['kind'] ? `${rule}.${extra['kind']}` : rule);
    case 'done':
      return ctx.phase !== 'rest' ? signal('done') : { kind: 'none' };
    case 'error':
      return ctx.phase !== 'rest' || ctx.justDone ? signal('failed') : { kind: 'none' };
    case 'idle':
      // After an interrupt or a denial Codex goes straight to idle: the turn is over.
      return ctx.phase !== 'rest' ? signal('done') : { kind: 'none' };
    default:
      return { kind: 'none' };
  }
}
