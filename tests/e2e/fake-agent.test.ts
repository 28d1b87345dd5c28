// The scripted fake agent (tests/helpers/fake-agent.py) under the BUILT `termsupervisor run --agent generic`:
// it must read like a real agent to the generic heuristic, or supervised-run tests built on it prove nothing.
// RUNNING while it works, DONE after each turn's result (anchored to the typed Enter), WAITING_APPROVAL at its
// y/n question, FAILED on its fatal line. Needs dist/ (npm run build). No timed assertions: events are awaited.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, ROOT, scratch, testEnv, Wrapped, type LogLine } from './harness.js';

const AGENT = join(ROOT, 'tests', 'helpers', 'fake-agent.py');
const open: Wrapped[] = [];
const dirs: Array<() => void> = [];

function start(agentArgs: (dir: string) => string[]) {
  const s = scratch();
  dirs.push(s.cleanup);
  const w = new Wrapped(s.log, ['--agent', 'generic', '--record', join(s.dir, 'session.cast'), '--', 'python3', AGENT, ...agentArgs(s.dir)], testEnv(s.dir));
  open.push(w);
  return { w, dir: s.dir };
}

const is = (state: string) => (e: LogLine) => e.state === state;
/** Prompts typed so far appear on screen as "● Task: <prompt>"; each turn waits for its own. */
const promptSeen = (w: Wrapped, n: number) => w.output.split('● Task: ').length - 1 >= n;

/** One turn: type the prompt, then RUNNING, then a settled state (DONE or FAILED), each after the previous. */
async function turn(w: Wrapped, prompt: string, n: number, after: number, settled: string): Promise<number> {
  await w.typeLine(prompt);
  await w.waitOutput(`the agent to take prompt ${n}`, () => promptSeen(w, n));
  const running = await w.transition(`RUNNING for prompt ${n}`, is('RUNNING'), after);
  return w.transition(`${settled} after prompt ${n}`, (e) => e.state === settled || (e.state !== 'RUNNING' && e.state !== 'LONG_RUNNING'), running);
}

beforeAll(() => assertBuilt());

afterEach(() => {
  for (const w of open.splice(0)) w.kill();
  for (const c of dirs.splice(0)) c();
});

describe('the fake agent read by the generic heuristic', () => {
  it('a finish run: RUNNING then DONE for each prompt, "Task complete." on the 2nd, and the files it keeps', async () => {
    const { w, dir } = start((d) => ['--work', '1.5', '--finish-after', '2', '--state', join(d, 'state'), '--echo-prompts', join(d, 'prompts')]);
    await w.waitOutput('the first prompt', (o) => o.includes('> '));
    let last = -1;
    for (const [n, prompt] of [[1, 'add a parser'], [2, 'now make the tests pass'], [3, 'anything else?']] as const) {
      last = await turn(w, prompt, n, last, 'DONE');
      expect(w.transitions()[last]!.state, w.diag()).toBe('DONE');
    }
    expect(w.output).toContain('RESULT: all tests pass');
    expect(w.output).toContain('Task complete.');
    expect(w.output).toContain('Nothing left to do.');
    expect(readFileSync(join(dir, 'prompts'), 'utf8')).toBe('add a parser\nnow make the tests pass\nanything else?\n');
    expect(readFileSync(join(dir, 'state'), 'utf8').trim().split('\n')).toHaveLength(3);
    // No state but the expected ones: never WAITING or FAILED in a plain finish run.
    for (const e of w.transitions()) expect(['IDLE', 'RUNNING', 'DONE'], w.diag()).toContain(e.state);
    w.term.write('\x04');
    expect((await w.exited()).exitCode).toBe(0);
  });

  it('an approval run: WAITING_APPROVAL at the y/n question, then RUNNING and DONE once approved', async () => {
    const { w } = start(() => ['--work', '2', '--approve-on', '1']);
    await w.waitOutput('the first prompt', (o) => o.includes('> '));
    await w.typeLine('clean the build dir');
    const running = await w.transition('RUNNING', is('RUNNING'));
    // The program reading the terminal at its first prompt may be seen before the line is typed (DONE at rest,
    // run.reads_terminal on the bare prompt) or after (no end: the person's Enter began the turn): either way,
    // nothing else comes before the question.
    const atFirstPrompt = (e: LogLine) => e.state === 'DONE' && e.rule === 'run.reads_terminal' && (e.line ?? '').trim() === '>';
    const waiting = await w.transition('WAITING_APPROVAL', (e) => e.state !== 'RUNNING' && !atFirstPrompt(e), running);
    expect(w.transitions()[waiting]!.state, w.diag()).toBe('WAITING_APPROVAL');
    expect(w.transitions()[waiting]!.line).toContain('Allow command `rm -rf build`? [y/n]');
    await w.typeLine('y');
    await w.waitOutput('the approval', (o) => o.includes('Approved.'));
    // Answering resumes the work (RUNNING again), and the turn then ends like any other.
    const resumed = await w.transition('RUNNING after the answer', (e) => e.state !== 'WAITING_APPROVAL', waiting);
    expect(w.transitions()[resumed]!.state, w.diag()).toBe('RUNNING');
    const done = await w.transition('DONE after the approval', (e) => e.state === 'DONE' || e.state === 'FAILED', resumed);
    expect(w.transitions()[done]!.state, w.diag()).toBe('DONE');
    expect(w.output).toContain('Editing src/main.py');
  });

  it('a fail run: DONE for the 1st prompt, FAILED on "FATAL: build failed" for the 2nd', async () => {
    const { w } = start(() => ['--work', '1.5', '--fail-after', '2']);
    await w.waitOutput('the first prompt', (o) => o.includes('> '));
    const first = await turn(w, 'write the build script', 1, -1, 'DONE');
    expect(w.transitions()[first]!.state, w.diag()).toBe('DONE');
    const second = await turn(w, 'run the build', 2, first, 'FAILED');
    expect(w.transitions()[second]!.state, w.diag()).toBe('FAILED');
    expect(w.transitions()[second]!.line ?? '').toMatch(/FATAL: build failed|Task failed/);
  });
});
