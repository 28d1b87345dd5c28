// A task's ending criteria on the screen: regexes and whole words for success and failure, and the explicit
// `until` regex. Failure wins when both match (a "tests pass" line above a "FATAL" one is not a success). Pure.
import type { TaskCriteria } from './task-types.js';

export interface CriteriaMatch {
  kind: 'failure' | 'until' | 'success';
  /** The pattern or word that matched, as the task was given it. */
  pattern: string;
  /** The screen line it matched on. */
  line: string;
}

export interface CompiledCriteria {
  failure: Array<{ pattern: string; re: RegExp }>;
  until: { pattern: string; re: RegExp } | null;
  success: Array<{ pattern: string; re: RegExp }>;
}

/** Compiles the criteria; each bad regex is a problem naming the option and the reason. */
export function compileCriteria(c: Pick<TaskCriteria, 'success' | 'failure' | 'successWords' | 'failureWords' | 'until'>, problems: string[]): CompiledCriteria {
  const regexes = (list: string[], name: string) => list.flatMap((p) => compilePattern(p, name, problems));
  const words = (list: string[]) => list.map((w) => ({ pattern: w, re: wordRegex(w) }));
  return {
    failure: [...regexes(c.failure, 'failure'), ...words(c.failureWords)],
    until: c.until === null ? null : (compilePattern(c.until, 'until', problems)[0] ?? null),
    success: [...regexes(c.success, 'success'), ...words(c.successWords)],
  };
}

export function hasScreenCriteria(c: CompiledCriteria): boolean {
  return c.failure.length > 0 || c.success.length > 0 || c.until !== null;
}

/** The first criterion that matches the region, failure first, then until, then success. */
export function matchCriteria(c: CompiledCriteria, text: string): CriteriaMatch | null {
  const lines = text.split('\n');
  const find = (kind: CriteriaMatch['kind'], list: Array<{ pattern: string; re: RegExp }>): CriteriaMatch | null => {
    for (const { pattern, re } of list) {
      const line = lines.find((l) => re.test(l));
      if (line !== undefined) return { kind, pattern, line: line.trim() };
    }
    return null;
  };
  return find('failure', c.failure) ?? find('until', c.until ? [c.until] : []) ?? find('success', c.success);
}

/** A whole word or phrase, case-insensitive: "pass" is not in "passwd", and "COMPLETE" is not in "INCOMPLETE". */
export function wordRegex(word: string): RegExp {
  const body = word.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, 'iu');
}

/** One regex, or none and a problem naming the option and the reason. */
export function compilePattern(pattern: string, name: string, problems: string[]): Array<{ pattern: string; re: RegExp }> {
  try {
    return [{ pattern, re: new RegExp(pattern, 'u') }];
  } catch (e) {
    problems.push(`${name}: invalid regular expression ${JSON.stringify(pattern)}: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
    return [];
  }
}
