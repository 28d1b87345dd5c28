// A task as a client asks for it (POST /api/tasks, `termsupervisor task start`) made into a TaskSpec: every key
// checked, limits defaulted from config `tasks`, regexes compiled once to refuse bad ones up front. Pure.
import type { TasksConfig } from '../config/config.js';
import { compileCriteria, compilePattern } from './criteria.js';
import { parseRegion, RegionError } from './region.js';
import type { TaskLimits, TaskSpec } from './task-types.js';

export class TaskSpecError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid task: ${problems.join('; ')}`);
  }
}

/** A prompt longer than this is refused: a task types a prompt, it does not paste files. */
export const MAX_PROMPT_CHARS = 8000;

type Kind = 'string' | 'strings' | 'number' | 'boolean';
/** Every key a request may carry, and its type. Limits map onto TaskLimits of the same name. */
const KEYS: Record<string, Kind> = {
  pane: 'string',
  prompt: 'string',
  goal: 'string',
  until: 'string',
  success: 'strings',
  failure: 'strings',
  successWords: 'strings',
  failureWords: 'strings',
  region: 'string',
  check: 'string',
  continue: 'string',
  judge: 'boolean',
  approve: 'strings',
  cwd: 'string',
  maxIterations: 'number',
  maxRuntimeS: 'number',
  heartbeatS: 'number',
  onStall: 'string',
  maxConsecutiveFailures: 'number',
  cooldownS: 'number',
  maxActivationsPerHour: 'number',
  tokenBudget: 'number',
  loopTurns: 'number',
  reflectEvery: 'number',
  riskThreshold: 'number',
};
/** Limits that count things: whole numbers of at least 1. */
const COUNTS = new Set(['maxIterations', 'maxConsecutiveFailures', 'maxActivationsPerHour', 'loopTurns', 'reflectEvery']);

export type TaskRequest = Record<string, unknown>;

export function defaultLimits(cfg: TasksConfig): TaskLimits {
  return {
    maxIterations: cfg.max_iterations,
    maxRuntimeS: cfg.max_runtime_s,
    heartbeatS: cfg.heartbeat_s,
    onStall: cfg.on_stall,
    maxConsecutiveFailures: cfg.max_consecutive_failures,
    cooldownS: cfg.cooldown_s,
    maxActivationsPerHour: cfg.max_activations_per_hour,
    tokenBudget: cfg.token_budget,
    loopTurns: cfg.loop_turns,
    reflectEvery: cfg.reflect_every,
    riskThreshold: cfg.risk_threshold,
  };
}

export function parseTaskRequest(body: unknown, cfg: TasksConfig): TaskSpec {
  const problems: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TaskSpecError(['expected a JSON object']);
  const req = body as TaskRequest;
  for (const [k, v] of Object.entries(req)) {
    const kind = KEYS[k];
    if (!kind) problems.push(`${k}: unknown key`);
    else if (v !== undefined && v !== null && !ofKind(v, kind)) problems.push(`${k}: expected ${kind === 'strings' ? 'a list of strings' : `a ${kind}`}`);
  }
  const str = (k: string): string | null => (typeof req[k] === 'string' ? (req[k] as string) : null);
  const list = (k: string): string[] => (ofKind(req[k], 'strings') ? (req[k] as string[]) : []);
  const pane = str('pane')?.trim() ?? '';
  const prompt = str('prompt') ?? '';
  if (!pane) problems.push('pane: required (the id GET /api/panes shows)');
  if (!prompt.trim()) problems.push('prompt: required');
  if (prompt.length > MAX_PROMPT_CHARS) problems.push(`prompt: longer than ${MAX_PROMPT_CHARS} characters`);
  // A line break typed into an agent's input submits it early; other control characters are keys, not text.
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(prompt.replace(/\r?\n$/, ''))) problems.push('prompt: one line of text (no line breaks or control characters)');

  const limits = defaultLimits(cfg);
  for (const k of Object.keys(limits) as Array<keyof TaskLimits>) {
    const v = req[k];
    if (v === undefined || v === null) continue;
    if (k === 'onStall') {
      if (v !== 'pause' && v !== 'fail') problems.push('onStall: "pause" or "fail"');
      else limits.onStall = v;
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) problems.push(`${k}: expected a non-negative number`);
    else if (COUNTS.has(k) && (!Number.isInteger(v) || v < 1)) problems.push(`${k}: expected a whole number ≥ 1`);
    else if (k === 'riskThreshold' && v > 1) problems.push('riskThreshold: expected a number from 0 to 1');
    else (limits as unknown as Record<string, number>)[k] = v;
  }

  let region: TaskSpec['criteria']['region'] = { kind: 'edge' };
  try {
    region = parseRegion(str('region') ?? 'edge');
  } catch (e) {
    if (e instanceof RegionError) problems.push(`region: ${e.message}`);
    else throw e;
  }
  const criteria = {
    success: list('success'),
    failure: list('failure'),
    successWords: list('successWords').filter((w) => w.trim()),
    failureWords: list('failureWords').filter((w) => w.trim()),
    until: str('until'),
    check: str('check')?.trim() || null,
    region,
  };
  compileCriteria(criteria, problems);
  const approve = list('approve');
  for (const p of approve) compilePattern(p, 'approve', problems);
  if (problems.length) throw new TaskSpecError(problems);
  return {
    pane,
    prompt: prompt.replace(/\r?\n$/, ''),
    goal: str('goal')?.trim() || prompt.trim(),
    criteria,
    continueText: str('continue') ?? cfg.continue_text,
    judge: req['judge'] === true,
    approve,
    cwd: str('cwd'),
    limits,
  };
}

function ofKind(v: unknown, kind: Kind): boolean {
  if (kind === 'strings') return Array.isArray(v) && v.every((x) => typeof x === 'string');
  return typeof v === kind;
}
