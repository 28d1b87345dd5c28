// Reading the LLM judge's answers (pure: no I/O). Models wrap JSON in fences or prose and get types wrong, so the
// object is extracted leniently but validated strictly: a wrong answer is refused with a problem the client can
// send back as a correction, never half-used. keywordVerdict is the last resort when no valid JSON ever came.

/** What the judge must answer after each turn of a supervised run. */
export interface JudgeAnswer {
  /** The next message to type into the agent; "" when there is nothing to continue with. */
  continuation_prompt: string;
  /** 0 harmless … 1 destructive/irreversible: how risky it is to send continuation_prompt unreviewed. */
  continuation_prompt_risk: number;
  task_complete: boolean;
  task_complete_reason: string;
  /** 0–1: how sure the judge is of task_complete. */
  confidence: number;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The judge's view after several iterations (reflect). */
export interface Reflection {
  goal_achieved: boolean;
  progress: 'good' | 'slow' | 'stuck';
  looping: boolean;
  suggestions: string[];
}

/** Success/failure patterns proposed by the judge, before they are compiled. */
export interface ProposedCriteria {
  success: string[];
  failure: string[];
}

/** A problem quotes at most this much of the offending value (a model can return a page where a number belongs). */
const QUOTE_MAX = 60;

const quote = (v: unknown): string => {
  const s = typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'nothing' : JSON.stringify(v) ?? String(v);
  return s.length > QUOTE_MAX ? s.slice(0, QUOTE_MAX) + '…' : s;
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every balanced top-level {...} in text, skipping braces inside JSON strings. Used to find the one object in an
 * answer with prose around it.
 */
function objectSpans(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"' && depth > 0) inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}

const FENCE = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)```/g;

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/**
 * The one JSON object in a model's answer: the whole text, else a ```json fence, else exactly one {...} amid prose.
 * Two different objects are refused: guessing which one the model meant could act on the wrong one.
 */
export function extractJsonObject(text: string): Parsed<Record<string, unknown>> {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problem: 'the answer was empty' };
  const whole = tryParse(trimmed);
  if (isRecord(whole)) return { ok: true, value: whole };
  if (whole !== undefined) return { ok: false, problem: `the answer was JSON but not an object (got ${quote(whole)})` };
  for (const m of trimmed.matchAll(FENCE)) {
    const inFence = tryParse(m[1]!.trim());
    if (isRecord(inFence)) return { ok: true, value: inFence };
  }
  const objects = objectSpans(trimmed)
    .map(tryParse)
    .filter(isRecord);
  const distinct = [...new Set(objects.map((o) => JSON.stringify(o)))];
  if (distinct.length === 1) return { ok: true, value: objects[0]! };
  if (distinct.length > 1) return { ok: false, problem: `the answer held ${distinct.length} different JSON objects; exactly one is expected` };
  return { ok: false, problem: 'no valid JSON object found in the answer' };
}

type Check = (obj: Record<string, unknown>) => string | null;

const str = (key: string): Check => (o) => (typeof o[key] === 'string' ? null : `"${key}" must be a string, got ${quote(o[key])}`);
const bool = (key: string): Check => (o) => (typeof o[key] === 'boolean' ? null : `"${key}" must be true or false, got ${quote(o[key])}`);
const unit = (key: string): Check => (o) => {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 ? null : `"${key}" must be a number from 0 to 1, got ${quote(v)}`;
};
const strings = (key: string): Check => (o) => {
  const v = o[key];
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : `"${key}" must be an array of strings, got ${quote(v)}`;
};
const oneOf = (key: string, allowed: readonly string[]): Check => (o) =>
  typeof o[key] === 'string' && allowed.includes(o[key] as string) ? null : `"${key}" must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${quote(o[key])}`;

/** Extract, then run every check; all problems are reported at once so one correction can fix them all. */
function parseShape<T>(text: string, checks: Check[]): Parsed<T> {
  const obj = extractJsonObject(text);
  if (!obj.ok) return obj;
  const problems = checks.map((c) => c(obj.value)).filter((p): p is string => p !== null);
  if (problems.length) return { ok: false, problem: problems.join('; ') };
  return { ok: true, value: obj.value as T };
}

const ANSWER_CHECKS = [str('continuation_prompt'), unit('continuation_prompt_risk'), bool('task_complete'), str('task_complete_reason'), unit('confidence')];

/** The judge's per-turn verdict, or the problem with it. Unknown extra keys are dropped. */
export function parseVerdict(text: string): Parsed<JudgeAnswer> {
  const r = parseShape<JudgeAnswer>(text, ANSWER_CHECKS);
  if (!r.ok) return r;
  const v = r.value;
  return {
    ok: true,
    value: {
      continuation_prompt: v.continuation_prompt,
      continuation_prompt_risk: v.continuation_prompt_risk,
      task_complete: v.task_complete,
      task_complete_reason: v.task_complete_reason,
      confidence: v.confidence,
    },
  };
}

export const PROGRESS = ['good', 'slow', 'stuck'] as const;

export function parseReflection(text: string): Parsed<Reflection> {
  const r = parseShape<Reflection>(text, [bool('goal_achieved'), oneOf('progress', PROGRESS), bool('looping'), strings('suggestions')]);
  if (!r.ok) return r;
  const v = r.value;
  return { ok: true, value: { goal_achieved: v.goal_achieved, progress: v.progress, looping: v.looping, suggestions: v.suggestions } };
}

export function parseCriteria(text: string): Parsed<ProposedCriteria> {
  const r = parseShape<ProposedCriteria>(text, [strings('success'), strings('failure')]);
  if (!r.ok) return r;
  return { ok: true, value: { success: r.value.success, failure: r.value.failure } };
}

export type KeywordDecision = 'complete' | 'continue' | 'undecided';

export interface KeywordVerdict {
  decision: KeywordDecision;
  /** The whole words that decided it, upper-cased, in order of appearance (for the verdict's reason). */
  matched: string[];
}

// Whole words only: letters, digits, "_" and "-" around a word make it another word ("INCOMPLETE",
// "task_complete" in broken JSON, "half-done"), never the keyword.
const WORD = (alternatives: string) => new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${alternatives})(?![\\p{L}\\p{N}_-])`, 'giu');
const COMPLETE_WORDS = WORD('done|complete|completed|finished');
const CONTINUE_WORDS = WORD('continue|next');
/**
 * A completion word negated in front ("not complete", "isn't done", "never finished", "not yet done", "not
 * fully complete") says the opposite; it is removed before counting.
 */
const NEGATED = WORD(
  "(?:not|never|isn't|isnt|aren't|arent|wasn't|wasnt|hasn't|hasnt|haven't|havent|nothing|no)\\s+(?:(?:yet|quite|fully|entirely|been|really)\\s+)*(?:done|complete|completed|finished)",
);

/**
 * The fallback reading of an answer that never became valid JSON: completion words against continuation words.
 * Both kinds, or neither, is undecided: the caller decides, not a guess.
 */
export function keywordVerdict(text: string): KeywordVerdict {
  const cleaned = text.replace(NEGATED, ' ');
  const complete = [...cleaned.matchAll(COMPLETE_WORDS)].map((m) => ({ i: m.index, w: m[0].toUpperCase() }));
  const cont = [...cleaned.matchAll(CONTINUE_WORDS)].map((m) => ({ i: m.index, w: m[0].toUpperCase() }));
  const matched = [...complete, ...cont].sort((a, b) => a.i - b.i).map((m) => m.w);
  if (complete.length && !cont.length) return { decision: 'complete', matched };
  if (cont.length && !complete.length) return { decision: 'continue', matched };
  return { decision: 'undecided', matched };
}
