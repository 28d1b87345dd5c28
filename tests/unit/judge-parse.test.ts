// Reading the judge's answers: lenient about where the JSON sits, strict about what is in it; and the keyword
// fallback, which must never read "INCOMPLETE" or "not complete" as done.
import { describe, expect, it } from 'vitest';
import { extractJsonObject, keywordVerdict, parseCriteria, parseReflection, parseVerdict } from '../../src/tasks/judge-parse.js';

const GOOD = { continuation_prompt: 'run the tests', continuation_prompt_risk: 0.1, task_complete: false, task_complete_reason: 'tests not run yet', confidence: 0.8 };
const json = (o: unknown) => JSON.stringify(o);

describe('parseVerdict', () => {
  it('accepts the bare object, with whitespace around it', () => {
    expect(parseVerdict(json(GOOD))).toEqual({ ok: true, value: GOOD });
    expect(parseVerdict(`\n  ${json(GOOD)}  \n`)).toEqual({ ok: true, value: GOOD });
  });

  it('accepts a ```json fence, a bare ``` fence, and prose around one object', () => {
    expect(parseVerdict('Here you go:\n```json\n' + json(GOOD) + '\n```\nHope it helps.')).toEqual({ ok: true, value: GOOD });
    expect(parseVerdict('```\n' + JSON.stringify(GOOD, null, 2) + '\n```')).toEqual({ ok: true, value: GOOD });
    expect(parseVerdict('My verdict is ' + json(GOOD) + ' based on the screen.')).toEqual({ ok: true, value: GOOD });
  });

  it('finds the object when prose around it has braces inside strings or stray closing braces', () => {
    const tricky = { ...GOOD, continuation_prompt: 'fix `if (x) { return }` in main.ts', task_complete_reason: 'a "}" is unbalanced' };
    expect(parseVerdict('} noise ' + json(tricky) + ' trailing')).toEqual({ ok: true, value: tricky });
  });

  it('drops unknown keys and keeps the boundary values 0 and 1', () => {
    const r = parseVerdict(json({ ...GOOD, confidence: 1, continuation_prompt_risk: 0, extra: 'x' }));
    expect(r).toEqual({ ok: true, value: { ...GOOD, confidence: 1, continuation_prompt_risk: 0 } });
  });

  it.each([
    ['missing key', { ...GOOD, confidence: undefined }, '"confidence" must be a number from 0 to 1, got nothing'],
    ['string boolean', { ...GOOD, task_complete: 'true' }, '"task_complete" must be true or false, got "true"'],
    ['confidence above 1', { ...GOOD, confidence: 1.5 }, '"confidence" must be a number from 0 to 1, got 1.5'],
    ['negative risk', { ...GOOD, continuation_prompt_risk: -0.1 }, '"continuation_prompt_risk" must be a number from 0 to 1, got -0.1'],
    ['risk as a percentage string', { ...GOOD, continuation_prompt_risk: '10%' }, '"continuation_prompt_risk" must be a number from 0 to 1, got "10%"'],
    ['prompt as a number', { ...GOOD, continuation_prompt: 3 }, '"continuation_prompt" must be a string, got 3'],
    ['reason null', { ...GOOD, task_complete_reason: null }, '"task_complete_reason" must be a string, got null'],
  ])('refuses %s with the problem named', (_what, obj, problem) => {
    const r = parseVerdict(json(obj));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toContain(problem);
  });

  it('names every problem at once, so one correction can fix them all', () => {
    const r = parseVerdict(json({ continuation_prompt: 'x' }));
    expect(r.ok).toBe(false);
    if (!r.ok) for (const k of ['continuation_prompt_risk', 'task_complete', 'task_complete_reason', 'confidence']) expect(r.problem).toContain(`"${k}"`);
  });

  it.each([
    ['empty text', '', 'empty'],
    ['plain prose', 'The task is done.', 'no valid JSON object'],
    ['an array', json([GOOD]), 'not an object'],
    ['a JSON string', '"done"', 'not an object'],
    ['truncated JSON', json(GOOD).slice(0, -5), 'no valid JSON object'],
    ['two different objects', json(GOOD) + '\n' + json({ ...GOOD, task_complete: true }), '2 different JSON objects'],
    ['single quotes', "{'task_complete': true}", 'no valid JSON object'],
  ])('refuses %s', (_what, text, problem) => {
    const r = parseVerdict(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toContain(problem);
  });

  it('takes the same object repeated twice as one', () => {
    expect(parseVerdict(`${json(GOOD)} and again ${json(GOOD)}`)).toEqual({ ok: true, value: GOOD });
  });

  it('cuts a huge wrong value in the problem text', () => {
    const r = parseVerdict(json({ ...GOOD, confidence: 'x'.repeat(5000) }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.length).toBeLessThan(200);
  });
});

describe('extractJsonObject', () => {
  it('prefers a fenced object over braces in the prose before it', () => {
    expect(extractJsonObject('use {braces} like this\n```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
  });
});

describe('parseReflection and parseCriteria', () => {
  it('accept the documented shapes', () => {
    const refl = { goal_achieved: false, progress: 'stuck', looping: true, suggestions: ['ask for a smaller step'] };
    expect(parseReflection(json(refl))).toEqual({ ok: true, value: refl });
    expect(parseCriteria(json({ success: ['\\d+ passed'], failure: [] }))).toEqual({ ok: true, value: { success: ['\\d+ passed'], failure: [] } });
  });

  it('refuse an unknown progress word, and non-string patterns', () => {
    const r = parseReflection(json({ goal_achieved: false, progress: 'meh', looping: false, suggestions: [] }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toContain('"progress" must be one of "good", "slow", "stuck"');
    const c = parseCriteria(json({ success: ['ok', 3], failure: [] }));
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.problem).toContain('"success" must be an array of strings');
  });
});

describe('keywordVerdict', () => {
  it.each([
    ['DONE', 'complete'],
    ['The task is done.', 'complete'],
    ['Complete!', 'complete'],
    ['everything COMPLETED', 'complete'],
    ['Finished: all tests pass', 'complete'],
    ['done, done and done', 'complete'],
    ['CONTINUE', 'continue'],
    ['Please continue with the tests.', 'continue'],
    ['next: write the docs', 'continue'],
    ['NEXT', 'continue'],
  ])('%j → %s', (text, decision) => {
    expect(keywordVerdict(text).decision).toBe(decision);
  });

  it.each([
    'INCOMPLETE',
    'The work is incomplete.',
    'not complete',
    'The task is not yet complete.',
    "It isn't done",
    'never finished',
    'unfinished business',
    'half-done',
    'abandoned', // contains "done" inside a word
    'continuation', // contains "continue"-ish letters but is another word
    'nextjs app',
    '{"task_complete": true, "continuation_prompt": "x"', // broken JSON: its keys are not keywords
    '',
    'I cannot tell from the screen.',
  ])('%j → undecided (no keyword counts)', (text) => {
    expect(keywordVerdict(text).decision).toBe('undecided');
  });

  it.each([
    'DONE? No — CONTINUE with the next step',
    'Step 1 is complete; next, run the linter',
    'finished the parser, continue with the tests',
  ])('%j → undecided (both kinds)', (text) => {
    expect(keywordVerdict(text).decision).toBe('undecided');
  });

  it('a negated completion next to a continue word is a continue', () => {
    expect(keywordVerdict('Not complete. Continue with the tests.')).toEqual({ decision: 'continue', matched: ['CONTINUE'] });
    expect(keywordVerdict('INCOMPLETE — next: fix the build')).toEqual({ decision: 'continue', matched: ['NEXT'] });
  });

  it('lists the deciding words in order, upper-cased', () => {
    expect(keywordVerdict('Done. Completed and finished.')).toEqual({ decision: 'complete', matched: ['DONE', 'COMPLETED', 'FINISHED'] });
  });
});
