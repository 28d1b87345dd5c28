// The limits a task runs under, checked before every prompt and after every turn: they are what guarantees a
// supervised run ends even when nothing on the screen ever says so. Pure: times and counts in, verdicts out.
import type { ReasonCode, TaskRecord } from './task-types.js';

/** Characters per token when only text is known (the judge's own usage is counted exactly). */
export const CHARS_PER_TOKEN = 4;
const HOUR_MS = 3_600_000;

export interface Verdict {
  code: ReasonCode;
  reason: string;
}

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** A limit that forbids sending another prompt (EXHAUSTED), or null. */
export function limitBeforeSend(t: TaskRecord): Verdict | null {
  const l = t.spec.limits;
  if (t.iterations >= l.maxIterations) return { code: 'max_iterations', reason: `${t.iterations} of ${l.maxIterations} iterations used without reaching the goal` };
  if (t.agentMs >= l.maxRuntimeS * 1000) return { code: 'max_runtime', reason: `agent time ${Math.round(t.agentMs / 1000)} s reached the limit of ${l.maxRuntimeS} s` };
  return overBudget(t);
}

export function overBudget(t: TaskRecord): Verdict | null {
  const b = t.spec.limits.tokenBudget;
  if (b > 0 && t.tokensUsed >= b) return { code: 'token_budget', reason: `${t.tokensUsed} tokens used of a budget of ${b}` };
  return null;
}

/** Milliseconds until another prompt may be sent: the cooldown after the last turn, and the hourly cap. */
export function waitBeforeSend(t: TaskRecord, lastTurnEnd: number | null, now: number): { ms: number; why: string } {
  const l = t.spec.limits;
  const cool = lastTurnEnd === null ? 0 : lastTurnEnd + l.cooldownS * 1000 - now;
  const recent = t.recentSends.filter((s) => now - s < HOUR_MS);
  const hourly = recent.length >= l.maxActivationsPerHour ? recent[0]! + HOUR_MS - now : 0;
  if (hourly > 0 && hourly >= cool) return { ms: hourly, why: `${recent.length} prompts in the last hour (limit ${l.maxActivationsPerHour})` };
  if (cool > 0) return { ms: cool, why: `cooldown of ${l.cooldownS} s between prompts` };
  return { ms: 0, why: '' };
}

/** Send times older than an hour are no longer needed for the hourly cap. */
export function keepLastHour(sends: number[], now: number): number[] {
  return sends.filter((s) => now - s < HOUR_MS);
}
