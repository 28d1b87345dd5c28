// The pure rules of supervised tasks: where criteria look, how they match, the request checks, the limits, loop
// detection and reflection.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { parseRegion, regionText, RegionError, EDGE_FALLBACK_ROWS } from '../../src/tasks/region.js';
import { compileCriteria, matchCriteria, wordRegex } from '../../src/tasks/criteria.js';
import { parseTaskRequest, TaskSpecError } from '../../src/tasks/task-spec.js';
import { estimateTokens, limitBeforeSend, waitBeforeSend } from '../../src/tasks/guardrails.js';
import { loopIn, progressKey, remember } from '../../src/tasks/loop-detect.js';
import { assessProgress } from '../../src/tasks/reflection.js';
import type { TaskRecord } from '../../src/tasks/task-types.js';

const cfg = loadConfig().tasks;

function task(over: Partial<TaskRecord> = {}, limits: Partial<TaskRecord['spec']['limits']> = {}): TaskRecord {
  const spec = parseTaskRequest({ pane: 'p', prompt: 'go' }, cfg);
  Object.assign(spec.limits, limits);
  return {
    id: 't-1', spec, status: 'RUNNING', reason: '', reasonCode: null, phase: 'decided', iterations: 0, nextPrompt: 'go', consecutiveFailures: 0,
    tokensUsed: 0, agentMs: 0, proposed: null, warnings: [], recentSends: [], slowReflections: 0, loop: { edges: [], continuations: [] },
    lastTurnEnd: null, createdAt: 0, updatedAt: 0, endedAt: null, ...over,
  };
}

describe('region', () => {
  const screen = ['old answer: all tests pass', '> make all tests pass', '● Task: make all tests pass', '  Running tests', '● 2 failing', '', ''].join('\n');

  it('edge: the rows below the last row showing the typed prompt, so the prompt never matches itself', () => {
    expect(regionText(screen, { kind: 'edge' }, 'make all tests pass')).toBe('  Running tests\n● 2 failing');
  });

  it('edge falls back to the last rows when the prompt scrolled away', () => {
    const many = Array.from({ length: 40 }, (_, i) => `row ${i}`).join('\n');
    expect(regionText(many, { kind: 'edge' }, 'gone').split('\n')).toHaveLength(EDGE_FALLBACK_ROWS);
  });

  it('last:N and rows:A-B,C', () => {
    expect(regionText(screen, parseRegion('last:2'), '')).toBe('  Running tests\n● 2 failing');
    expect(regionText(screen, parseRegion('rows:1,4-5'), '')).toBe('old answer: all tests pass\n  Running tests\n● 2 failing');
  });

  it('refuses malformed regions with the reason', () => {
    for (const bad of ['last:0', 'rows:5-2', 'rows:x', 'tail']) expect(() => parseRegion(bad)).toThrow(RegionError);
    expect(parseRegion('')).toEqual({ kind: 'edge' });
  });
});

describe('criteria', () => {
  it('failure wins over until and success on the same text; the matching line is reported', () => {
    const c = compileCriteria({ success: ['tests pass'], failure: ['FATAL'], successWords: [], failureWords: [], until: 'done' }, []);
    expect(matchCriteria(c, 'tests pass\nFATAL: oops\ndone')).toEqual({ kind: 'failure', pattern: 'FATAL', line: 'FATAL: oops' });
    expect(matchCriteria(c, 'tests pass\ndone')?.kind).toBe('until');
    expect(matchCriteria(c, 'all tests pass')?.kind).toBe('success');
    expect(matchCriteria(c, 'nothing yet')).toBeNull();
  });

  it('whole words: COMPLETE is not in INCOMPLETE, pass is not in passwd, case does not matter', () => {
    expect(wordRegex('complete').test('Task INCOMPLETE')).toBe(false);
    expect(wordRegex('complete').test('Task Complete.')).toBe(true);
    expect(wordRegex('pass').test('passwd changed')).toBe(false);
    expect(wordRegex('all tests pass').test('all  tests   pass!')).toBe(true);
    expect(wordRegex('a.b').test('axb')).toBe(false);
  });

  it('a bad regex is a problem naming the option', () => {
    const problems: string[] = [];
    compileCriteria({ success: ['('], failure: [], successWords: [], failureWords: [], until: '[' }, problems);
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.startsWith('success:'))).toMatch(/^success: invalid regular expression "\("/);
    expect(problems.find((p) => p.startsWith('until:'))).toMatch(/^until: invalid regular expression "\["/);
  });
});

describe('task requests', () => {
  it('fills limits from config and keeps overrides', () => {
    const s = parseTaskRequest({ pane: ' p ', prompt: 'fix it\n', maxIterations: 3, onStall: 'fail', region: 'last:5' }, cfg);
    expect(s.pane).toBe('p');
    expect(s.prompt).toBe('fix it');
    expect(s.goal).toBe('fix it');
    expect(s.limits.maxIterations).toBe(3);
    expect(s.limits.onStall).toBe('fail');
    expect(s.limits.maxRuntimeS).toBe(cfg.max_runtime_s);
    expect(s.continueText).toBe(cfg.continue_text);
    expect(s.criteria.region).toEqual({ kind: 'last', lines: 5 });
  });

  it('refuses every problem at once: unknown keys, types, ranges, control characters, bad regexes', () => {
    let err: TaskSpecError | null = null;
    try {
      parseTaskRequest({ pane: '', prompt: 'a\nb', bogus: 1, maxIterations: 1.5, riskThreshold: 2, approve: ['('], success: 'x', onStall: 'explode' }, cfg);
    } catch (e) {
      err = e as TaskSpecError;
    }
    expect(err).toBeInstanceOf(TaskSpecError);
    const p = err!.problems.join('\n');
    for (const want of ['bogus: unknown key', 'pane: required', 'prompt: one line', 'maxIterations: expected a whole number', 'riskThreshold', 'approve: invalid', 'success: expected a list', 'onStall']) expect(p).toContain(want);
    expect(() => parseTaskRequest([], cfg)).toThrow(/expected a JSON object/);
  });
});

describe('guardrails', () => {
  it('iterations, agent time and budget stop new prompts', () => {
    expect(limitBeforeSend(task({ iterations: 2 }, { maxIterations: 2 }))?.code).toBe('max_iterations');
    expect(limitBeforeSend(task({ agentMs: 10_000 }, { maxRuntimeS: 10 }))?.code).toBe('max_runtime');
    expect(limitBeforeSend(task({ tokensUsed: 100 }, { tokenBudget: 100 }))?.code).toBe('token_budget');
    expect(limitBeforeSend(task({ tokensUsed: 100 }, { tokenBudget: 0 }))).toBeNull();
    expect(estimateTokens(9)).toBe(3);
  });

  it('cooldown after a turn and the hourly cap delay the next prompt', () => {
    expect(waitBeforeSend(task({}, { cooldownS: 5 }), 1000, 3000)).toMatchObject({ ms: 3000 });
    expect(waitBeforeSend(task({}, { cooldownS: 5 }), 1000, 7000).ms).toBe(0);
    const sends = [10_000, 20_000];
    expect(waitBeforeSend(task({ recentSends: sends }, { maxActivationsPerHour: 2, cooldownS: 0 }), null, 30_000).ms).toBe(3_600_000 - 20_000);
    expect(waitBeforeSend(task({ recentSends: sends }, { maxActivationsPerHour: 2, cooldownS: 0 }), null, 3_700_000).ms).toBe(0);
  });
});

describe('loop detection', () => {
  it('ignores numbers and spinner frames, and needs the same key N turns in a row', () => {
    expect(progressKey('⠋ Working… (12s)')).toBe(progressKey('⠙ Working… (13s)'));
    let edges: string[] = [];
    for (const e of ['a', 'b', 'b']) edges = remember(edges, e);
    expect(loopIn({ edges, continuations: [] }, 3)).toBeNull();
    edges = remember(edges, 'b');
    expect(loopIn({ edges, continuations: [] }, 3)?.kind).toBe('edge');
    expect(loopIn({ edges: [], continuations: ['x', 'x', 'x'] }, 3)?.kind).toBe('continuation');
  });
});

describe('reflection without a judge', () => {
  it('new lines are progress; the same excerpts again are a loop', () => {
    expect(assessProgress(['step 1 done\nmore', 'step 2: wrote tests', 'step 3: fixed bug'], [])).toMatchObject({ progress: 'good', looping: false });
    const same = 'I made the change.\nRan the checks.';
    expect(assessProgress([same, same, same], [same])).toMatchObject({ progress: 'stuck', looping: true });
  });
});
