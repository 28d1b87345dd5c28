// `termsupervisor run` tells a session from one thing to do by what the program is and does, not by the word it was
// started with: a REPL-style script (bash or Python) blocked reading the terminal at its `> ` prompt is at rest
// (run.reads_terminal), an agent started by its path or through `node` is known by its npm package, and one-shot
// programs are unchanged. The BUILT wrapper in a real terminal, its program in a real pty, no daemon (its event
// log). No timed assertions: a quiet stretch is only waited through, never measured.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { fakeAgentPackage } from '../helpers/fake-package.js';
import { BASH_REPL, PYTHON_REPL } from '../helpers/repl-scripts.js';
import { BIN, scratch, testEnv, Wrapped, type LogLine } from './harness.js';
import { runCli } from './daemon-harness.js';

/** Long enough for several foreground polls (250 ms) and screen reads: a RUNNING read while the program waits
 * would have come by then. */
const QUIET_LOOK_MS = 1500;

const open: Wrapped[] = [];
const cleanups: Array<() => void> = [];
beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => {
  for (const w of open.splice(0)) w.kill();
  for (const c of cleanups.splice(0)) c();
});

function wrapped(runArgs: string[]): { w: Wrapped; dir: string } {
  const s = scratch();
  cleanups.push(s.cleanup);
  const w = new Wrapped(s.log, ['--no-daemon', ...runArgs], testEnv(s.dir));
  open.push(w);
  return { w, dir: s.dir };
}

function dirWith(files: Record<string, string>): string {
  const s = scratch();
  cleanups.push(s.cleanup);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(s.dir, name), text, { mode: 0o755 });
  return s.dir;
}

const brief = (e: LogLine) => `${e.state} t${e.tier} ${e.rule}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks the REPL two things; each answer is followed by a rest that holds while the program waits. */
async function askTwice(w: Wrapped): Promise<void> {
  for (const word of ['hello', 'again']) {
    const before = w.transitions().length;
    await w.typeLine(word);
    await w.waitOutput(`the answer to ${word}`, (o) => o.includes(`answer: ${word}`));
    await w.transition('the rest after the answer', (e) => e.state === 'DONE', before - 1);
    await sleep(QUIET_LOOK_MS);
    expect(w.transitions().at(-1)?.state, w.diag()).toBe('DONE');
  }
}

describe('run: a program waiting on the terminal at a prompt is at rest', () => {
  it.each([
    ['a bash script by its path', (dir: string) => [join(dir, 'agent.sh')]],
    ['a Python script through python3', (dir: string) => ['python3', join(dir, 'agent.py')]],
  ])('%s: DONE at its prompt (Tier 1, run.reads_terminal), DONE after each answer, FAILED with its exit code', async (_, argv) => {
    const dir = dirWith({ 'agent.sh': BASH_REPL, 'agent.py': PYTHON_REPL });
    const cast = join(dir, 'session.cast');
    const { w } = wrapped(['--name', 'ag', '--record', cast, '--', ...argv(dir)]);
    await w.waitOutput('the prompt', (o) => o.includes('> '));
    await w.transition('the rest at the first prompt', (e) => e.state === 'DONE');
    expect(w.transitions().map(brief), w.diag()).toEqual(['RUNNING t1 run.command_executed', 'DONE t1 run.reads_terminal']);
    expect(w.transitions()[1]!.line).toBe('>');
    await sleep(QUIET_LOOK_MS);
    expect(w.transitions().length, w.diag()).toBe(2);
    await askTwice(w);
    // Every turn after the first prompt is the person's: RUNNING only ever follows a line typed.
    const later = w.transitions().slice(2).map((e) => e.state);
    expect(later.filter((s) => s === 'RUNNING').length, w.diag()).toBeLessThanOrEqual(2);
    await w.typeLine('quit');
    expect((await w.exited()).exitCode).toBe(3);
    expect(w.transitions().at(-1), w.diag()).toMatchObject({ state: 'FAILED', tier: 1, rule: 'run.command_failed' });
    expect(w.transitions().at(-1)!.line).toMatch(/^exit 3/);
    // The recording carries the terminal reads: its replay rests at the same prompts.
    const replay = await runCli([process.execPath, BIN, 'replay', cast, '--format', 'jsonl'], testEnv(dir));
    const replayed = replay.stdout.trim().split('\n').map((l) => JSON.parse(l) as LogLine);
    expect(replayed.slice(0, 2).map(brief), replay.stdout + replay.stderr).toEqual(['RUNNING t1 run.command_executed', 'DONE t1 run.reads_terminal']);
    expect(replayed.at(-1), replay.stdout).toMatchObject({ state: 'FAILED', rule: 'run.command_failed' });
  });
});

describe('run: an agent known by what the process is (its npm package), not by its command word', () => {
  it.each([
    ['by its path', (entry: string) => [entry]],
    ['through node', (entry: string) => [process.execPath, entry]],
  ])('a fake @google/gemini-cli %s: a session read as gemini, at rest at its prompt, a turn per line', async (_, argv) => {
    const s = scratch();
    cleanups.push(s.cleanup);
    const entry = fakeAgentPackage(s.dir, '@google/gemini-cli', 'gemini');
    const { w } = wrapped(['--name', 'gem', '--', ...argv(entry)]);
    await w.waitOutput('the input box', (o) => o.includes('▀▀▀'));
    expect(w.events()[0], w.diag()).toMatchObject({ kind: 'pane_start', one_shot: false, identity: expect.arrayContaining(['gemini', '@google/gemini-cli']) });
    await sleep(QUIET_LOOK_MS);
    // No turn at its start: nothing ran before the person asked.
    expect(w.transitions(), w.diag()).toEqual([]);
    await w.typeLine('hello');
    await w.waitOutput('the answer', (o) => o.includes('answer: hello'));
    const done = await w.transition('the turn to end', (e) => e.state === 'DONE');
    expect(w.transitions().slice(0, done + 1).map((e) => `${e.program} ${e.state}`), w.diag()).toEqual(['gemini RUNNING', 'gemini DONE']);
    expect(w.transitions()[done]!.rule).toMatch(/^gemini\./);
    await w.typeLine('/quit');
    expect((await w.exited()).exitCode).toBe(0);
  });
});

describe('run: one-shot programs are unchanged', () => {
  it('bash -c that sleeps and exits 3: RUNNING from its start, FAILED with the code', async () => {
    const { w } = wrapped(['--', 'bash', '-c', 'sleep 1; exit 3']);
    expect((await w.exited()).exitCode).toBe(3);
    expect(w.transitions().map(brief), w.diag()).toEqual(['RUNNING t1 run.command_executed', 'FAILED t1 run.command_failed']);
    expect(w.transitions()[1]!.line).toMatch(/^exit 3/);
  });

  it('make in a folder with a Makefile: RUNNING, then DONE with exit 0', async () => {
    const s = scratch();
    cleanups.push(s.cleanup);
    const dir = join(s.dir, 'proj');
    mkdirSync(dir);
    writeFileSync(join(dir, 'Makefile'), 'all:\n\tsleep 1\n\t@echo built\n');
    const { w } = wrapped(['--', 'make', '-C', dir]);
    expect((await w.exited()).exitCode).toBe(0);
    expect(w.transitions().map(brief), w.diag()).toEqual(['RUNNING t1 run.command_executed', 'DONE t1 run.command_finished']);
  });

  it('python3 -c: RUNNING, then DONE with its last line', async () => {
    const { w } = wrapped(['--', 'python3', '-c', 'import time; time.sleep(1); print("ok")']);
    expect((await w.exited()).exitCode).toBe(0);
    expect(w.transitions().map(brief), w.diag()).toEqual(['RUNNING t1 run.command_executed', 'DONE t1 run.command_finished']);
    expect(w.transitions()[1]!.line).toBe('exit 0: ok');
  });
});
