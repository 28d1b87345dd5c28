// The judge client against a real local HTTP server speaking the OpenAI chat-completions API
// (tests/helpers/fake-openai.ts): what it sends, how it retries invalid answers, how it fails.
import { afterEach, describe, expect, it } from 'vitest';
import { askJudge, JudgeError, proposeCriteria, reflect, SCREEN_TAIL_CHARS, type JudgeConfig, type JudgeRequest } from '../../src/tasks/judge-client.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeScript } from '../helpers/fake-openai.js';

const KEY = 'sk-test-SECRET-4f9a2c';
const ENV = { JUDGE_KEY: KEY };
const GOOD = { continuation_prompt: 'now run npm test', continuation_prompt_risk: 0.1, task_complete: false, task_complete_reason: 'tests not run', confidence: 0.7 };
const DONE = { ...GOOD, continuation_prompt: '', task_complete: true, task_complete_reason: 'RESULT: all tests pass', confidence: 0.95 };
const REQ: JudgeRequest = {
  goal: 'make the tests pass',
  criteria: { success: ['all tests pass'], failure: ['FATAL'], check: 'npm test' },
  screen: '> fix it\n● Task: fix it\n● RESULT: all tests pass\n● Task complete.\n> ',
  iteration: 2,
  recentPrompts: ['fix the parser', 'fix it'],
};

const servers: FakeOpenAI[] = [];
async function serve(script: FakeScript): Promise<{ srv: FakeOpenAI; cfg: JudgeConfig }> {
  const srv = await startFakeOpenAI(script);
  servers.push(srv);
  return { srv, cfg: { baseUrl: srv.baseUrl, model: 'judge-1', apiKeyEnv: 'JUDGE_KEY', timeoutS: 10, maxRetries: 3, temperature: 0 } };
}

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(p: Promise<unknown>): Promise<JudgeError> {
  const r = await p.then(
    (v) => ({ ok: true as const, v }),
    (e: unknown) => ({ ok: false as const, e }),
  );
  if (r.ok) throw new Error(`expected a rejection, got ${JSON.stringify(r.v)}`);
  expect(r.e).toBeInstanceOf(JudgeError);
  return r.e as JudgeError;
}

describe('askJudge', () => {
  it('good JSON: one request with model, system + user messages, temperature, response_format and the key', async () => {
    const { srv, cfg } = await serve(() => ({ json: DONE, usage: { prompt_tokens: 300, completion_tokens: 40 } }));
    const v = await askJudge(cfg, REQ, { env: ENV });
    expect(v).toEqual({ ...DONE, parsedBy: 'json', attempts: 1, usage: { promptTokens: 300, completionTokens: 40 }, raw: JSON.stringify(DONE) });
    expect(srv.requests).toHaveLength(1);
    const r = srv.requests[0]!;
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.body).toMatchObject({ model: 'judge-1', temperature: 0, response_format: { type: 'json_object' } });
    expect(r.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(r.body.messages[0]!.content).toContain('"continuation_prompt": string');
    const user = r.body.messages[1]!.content;
    for (const s of ['make the tests pass', 'all tests pass', 'FATAL', 'npm test', 'Iteration: 2', 'fix the parser', '● Task complete.']) expect(user).toContain(s);
  });

  it('sends no Authorization header when apiKeyEnv is empty', async () => {
    const { srv, cfg } = await serve(() => ({ json: GOOD }));
    await askJudge({ ...cfg, apiKeyEnv: '' }, REQ, { env: {} });
    expect(srv.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses to start when the key variable is named but unset, without a request', async () => {
    const { srv, cfg } = await serve(() => ({ json: GOOD }));
    const e = await rejection(askJudge(cfg, REQ, { env: {} }));
    expect(e.message).toContain('JUDGE_KEY is not set');
    expect(srv.requests).toHaveLength(0);
  });

  it('sends only the tail of a long screen (the live edge), at most SCREEN_TAIL_CHARS', async () => {
    const { srv, cfg } = await serve(() => ({ json: GOOD }));
    const screen = 'OLD-SCROLLBACK\n' + 'x'.repeat(SCREEN_TAIL_CHARS * 2) + '\nLIVE-EDGE> ';
    await askJudge(cfg, { ...REQ, screen }, { env: ENV });
    const user = srv.requests[0]!.body.messages[1]!.content;
    expect(user).toContain('LIVE-EDGE> ');
    expect(user).not.toContain('OLD-SCROLLBACK');
    expect(user.length).toBeLessThan(SCREEN_TAIL_CHARS + 2000);
  });

  it('fenced JSON with prose is accepted on the first answer', async () => {
    const { srv, cfg } = await serve(() => ({ content: 'Sure.\n```json\n' + JSON.stringify(GOOD) + '\n```' }));
    const v = await askJudge(cfg, REQ, { env: ENV });
    expect(v).toMatchObject({ ...GOOD, parsedBy: 'json', attempts: 1 });
    expect(srv.requests).toHaveLength(1);
  });

  it('malformed then good: the bad answer and a correction naming the problem are sent back', async () => {
    const bad = JSON.stringify({ ...GOOD, confidence: 7 });
    const { srv, cfg } = await serve((_b, i) => (i === 0 ? { content: bad } : { json: GOOD }));
    const v = await askJudge(cfg, REQ, { env: ENV });
    expect(v).toMatchObject({ ...GOOD, parsedBy: 'json', attempts: 2 });
    const msgs = srv.requests[1]!.body.messages;
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(msgs[2]!.content).toBe(bad);
    expect(msgs[3]!.content).toContain('"confidence" must be a number from 0 to 1, got 7');
    // The first request's messages are unchanged (the correction is appended, not rewritten).
    expect(srv.requests[1]!.body.messages.slice(0, 2)).toEqual(srv.requests[0]!.body.messages);
  });

  it('malformed 4× with "DONE": keyword fallback reads complete after 1 + maxRetries requests', async () => {
    const { srv, cfg } = await serve(() => ({ content: 'The task is DONE, all tests pass.' }));
    const v = await askJudge(cfg, REQ, { env: ENV });
    expect(srv.requests).toHaveLength(4);
    expect(srv.requests[3]!.body.messages).toHaveLength(2 + 3 * 2);
    expect(v).toMatchObject({ task_complete: true, parsedBy: 'keywords', attempts: 4, continuation_prompt: '', raw: 'The task is DONE, all tests pass.' });
    expect(v.confidence).toBeGreaterThan(0);
    expect(v.task_complete_reason).toContain('DONE');
  });

  it('malformed 4× with "INCOMPLETE": not complete, undecided, confidence 0', async () => {
    const { srv, cfg } = await serve(() => ({ content: 'INCOMPLETE: the build still fails' }));
    const v = await askJudge(cfg, REQ, { env: ENV });
    expect(srv.requests).toHaveLength(4);
    expect(v).toMatchObject({ task_complete: false, confidence: 0, parsedBy: 'keywords', continuation_prompt: '', attempts: 4 });
    expect(v.task_complete_reason).toContain('undecided');
  });

  it('maxRetries 0: one request, then the keyword reading', async () => {
    const { srv, cfg } = await serve(() => ({ content: 'continue please' }));
    const v = await askJudge({ ...cfg, maxRetries: 0 }, REQ, { env: ENV });
    expect(srv.requests).toHaveLength(1);
    expect(v).toMatchObject({ task_complete: false, parsedBy: 'keywords', attempts: 1 });
    expect(v.confidence).toBeGreaterThan(0);
  });

  it('usage is summed over attempts', async () => {
    const { cfg } = await serve((_b, i) => (i < 2 ? { content: 'nope', usage: { prompt_tokens: 100 + i, completion_tokens: 10 } } : { json: GOOD, usage: { prompt_tokens: 200, completion_tokens: 30 } }));
    const v = await askJudge(cfg, REQ, { env: ENV });
    expect(v.attempts).toBe(3);
    expect(v.usage).toEqual({ promptTokens: 100 + 101 + 200, completionTokens: 50 });
  });

  it('missing usage is estimated at 4 characters per token from what was sent and received', async () => {
    const { srv, cfg } = await serve(() => ({ json: GOOD }));
    const v = await askJudge(cfg, REQ, { env: ENV });
    const sent = srv.requests[0]!.body.messages.reduce((n, m) => n + m.content.length, 0);
    expect(v.usage).toEqual({ promptTokens: Math.ceil(sent / 4), completionTokens: Math.ceil(JSON.stringify(GOOD).length / 4) });
  });

  it('HTTP 500 → JudgeError with the status and an excerpt of the body, no retry', async () => {
    const { srv, cfg } = await serve(() => ({ status: 500, body: 'model crashed: out of memory ' + 'z'.repeat(2000) }));
    const e = await rejection(askJudge(cfg, REQ, { env: ENV }));
    expect(e.status).toBe(500);
    expect(e.message).toContain('HTTP 500');
    expect(e.message).toContain('model crashed: out of memory');
    expect(e.message.length).toBeLessThan(600);
    expect(srv.requests).toHaveLength(1);
  });

  it('401 → JudgeError naming the variable, never the key, even when the server echoes it', async () => {
    const { cfg } = await serve((_b) => ({ status: 401, body: `{"error":{"message":"Incorrect API key provided: ${KEY}"}}` }));
    const e = await rejection(askJudge(cfg, REQ, { env: ENV }));
    expect(e.status).toBe(401);
    expect(e.message).toContain('JUDGE_KEY');
    expect(e.message).toContain('Incorrect API key provided');
    expect(e.message).not.toContain(KEY);
    expect(e.message).not.toContain('SECRET');
    expect(String(e.stack)).not.toContain(KEY);
  });

  it('timeout → JudgeError saying so', async () => {
    const { cfg } = await serve(() => ({ delayMs: 30_000, json: GOOD }));
    const e = await rejection(askJudge({ ...cfg, timeoutS: 0.3 }, REQ, { env: ENV }));
    expect(e.message).toContain('did not answer within 0.3 s');
    expect(e.status).toBeUndefined();
  });

  it('a caller abort → JudgeError "cancelled"', async () => {
    const { cfg } = await serve(() => ({ delayMs: 30_000, json: GOOD }));
    const ac = new AbortController();
    const p = askJudge(cfg, REQ, { env: ENV, signal: ac.signal });
    ac.abort();
    expect((await rejection(p)).message).toContain('cancelled');
  });

  it('an unreachable server → JudgeError naming the URL', async () => {
    const { srv, cfg } = await serve(() => ({ json: GOOD }));
    await srv.close();
    const e = await rejection(askJudge(cfg, REQ, { env: ENV }));
    expect(e.message).toContain(`cannot reach the judge at ${srv.baseUrl}/chat/completions`);
  });

  it('a 400 to response_format: asked again once without it, and the retries leave it off', async () => {
    const { srv, cfg } = await serve((b) => (b.response_format ? { status: 400, body: 'response_format is not supported' } : b.messages.length === 2 ? { content: 'oops' } : { json: GOOD }));
    const v = await askJudge(cfg, REQ, { env: ENV });
    expect(v).toMatchObject({ ...GOOD, parsedBy: 'json', attempts: 2 });
    expect(srv.requests.map((r) => 'response_format' in r.body)).toEqual([true, false, false]);
  });

  it('a 400 without response_format too → JudgeError (only one fallback)', async () => {
    const { srv, cfg } = await serve(() => ({ status: 400, body: 'bad request: messages too long' }));
    const e = await rejection(askJudge(cfg, REQ, { env: ENV }));
    expect(e.status).toBe(400);
    expect(e.message).toContain('messages too long');
    expect(srv.requests).toHaveLength(2);
  });

  it('a 200 that is not a chat completion → JudgeError', async () => {
    const { cfg } = await serve(() => ({ status: 200, body: '<html>proxy login</html>' }));
    expect((await rejection(askJudge(cfg, REQ, { env: ENV }))).message).toContain('not JSON');
  });
});

describe('proposeCriteria', () => {
  it('keeps the patterns that compile and lists the dropped ones with why', async () => {
    const { srv, cfg } = await serve(() => ({ json: { success: ['\\d+ passed', 'all tests pass', '(unclosed', '\\d+ passed'], failure: ['FATAL', '[z-a]', ''] }, usage: { prompt_tokens: 50, completion_tokens: 20 } }));
    const c = await proposeCriteria(cfg, 'make the tests pass', { env: ENV });
    expect(c.success).toEqual(['\\d+ passed', 'all tests pass']);
    expect(c.failure).toEqual(['FATAL']);
    expect(c.dropped.map((d) => [d.pattern, d.problem.split(':')[0]])).toEqual([
      ['(unclosed', 'Invalid regular expression'],
      ['\\d+ passed', 'duplicate'],
      ['[z-a]', 'Invalid regular expression'],
      ['', 'empty'],
    ]);
    expect(c.usage).toEqual({ promptTokens: 50, completionTokens: 20 });
    expect(srv.requests[0]!.body.messages[1]!.content).toContain('make the tests pass');
  });

  it('retries a wrong shape, and gives up with a JudgeError after maxRetries', async () => {
    const { srv, cfg } = await serve(() => ({ json: { success: 'tests pass' } }));
    const e = await rejection(proposeCriteria({ ...cfg, maxRetries: 1 }, 'goal', { env: ENV }));
    expect(srv.requests).toHaveLength(2);
    expect(e.message).toContain('no valid criteria after 2 answers');
    expect(e.message).toContain('"success" must be an array of strings');
  });
});

describe('reflect', () => {
  const refl = { goal_achieved: false, progress: 'stuck', looping: true, suggestions: ['ask for one failing test at a time'] };

  it('returns the reflection with usage, and sends only the latest iterations', async () => {
    const { srv, cfg } = await serve(() => ({ json: refl, usage: { prompt_tokens: 900, completion_tokens: 60 } }));
    const iterations = Array.from({ length: 20 }, (_, i) => ({ prompt: `prompt #${i + 1}`, screenExcerpt: `screen #${i + 1}`, verdict: 'continue' }));
    const r = await reflect(cfg, { goal: 'ship it', iterations }, { env: ENV });
    expect(r).toEqual({ ...refl, usage: { promptTokens: 900, completionTokens: 60 } });
    const user = srv.requests[0]!.body.messages[1]!.content;
    expect(user).toContain('(8 earlier iterations omitted)');
    expect(user).toContain('Iteration 20\nPrompt: prompt #20');
    expect(user).not.toContain('prompt #8\n');
    expect(user).toContain('prompt #9');
  });

  it('an invalid progress word is corrected by a retry', async () => {
    const { srv, cfg } = await serve((_b, i) => ({ json: i === 0 ? { ...refl, progress: 'terrible' } : refl }));
    const r = await reflect(cfg, { goal: 'ship it', iterations: [{ prompt: 'p', screenExcerpt: 's' }] }, { env: ENV });
    expect(r.progress).toBe('stuck');
    expect(srv.requests[1]!.body.messages[3]!.content).toContain('"progress" must be one of');
  });
});
