// The fake agent's scripted options (tests/helpers/fake-agent.py), driven through plain pipes: what each option
// prints and the files it leaves. How a real terminal and termsupervisor read it is tests/e2e/fake-agent.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, waitFor } from '../e2e/harness.js';

const AGENT = join(ROOT, 'tests', 'helpers', 'fake-agent.py');
/** Short turns: these tests read what is printed, not how long the work takes. */
const WORK = ['--work', '0.2'];

const procs: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratchDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'fake-agent-'));
  dirs.push(d);
  return d;
}

/** The agent with its stdin fed one line at a time, each after the `> ` prompt that asks for it. */
function agent(args: string[]) {
  const p = spawn('python3', [AGENT, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  procs.push(p);
  const s = { out: '', err: '', code: null as number | null, exited: false };
  p.stdout!.setEncoding('utf8').on('data', (d: string) => (s.out += d));
  p.stderr!.setEncoding('utf8').on('data', (d: string) => (s.err += d));
  p.on('exit', (c) => ((s.code = c), (s.exited = true)));
  const diag = () => `stdout:\n${s.out}\nstderr:\n${s.err}`;
  return {
    s,
    p,
    diag,
    /** Wait for the nth prompt (1-based) or question, then type a line. */
    async send(line: string, nthPrompt: number, marker = '> \x1b[?2004h'): Promise<void> {
      await waitFor(`prompt #${nthPrompt} (${JSON.stringify(marker)})`, () => s.out.split(marker).length - 1 >= nthPrompt, diag);
      p.stdin!.write(line + '\n');
    },
    async end(): Promise<number | null> {
      p.stdin!.end();
      await waitFor('the agent to exit', () => s.exited, diag);
      return s.code;
    },
  };
}

/**
 * The lines as a terminal shows them: escape sequences dropped, and a line rewritten in place with \r shows only
 * its last version (the spinner frames vanish under the line printed over them).
 */
const rendered = (out: string): string[] =>
  out
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split('\n')
    .map((l) => l.replace(/\r+$/, '').split('\r').at(-1)!);

/** The result lines of each turn: the "● " lines after its "● Task:" line. */
const results = (out: string): string[][] => {
  const turns: string[][] = [];
  for (const l of rendered(out)) {
    if (l.includes('● Task: ')) turns.push([]);
    else if (l.startsWith('● ') && turns.length) turns.at(-1)!.push(l);
  }
  return turns;
};

describe('fake-agent.py options', () => {
  it('without --loop each result differs; with --loop every result is identical', async () => {
    for (const loop of [false, true]) {
      const a = agent([...WORK, ...(loop ? ['--loop'] : [])]);
      await a.send('first', 1);
      await a.send('second', 2);
      await a.send('third', 3);
      expect(await a.end()).toBe(0);
      const r = results(a.s.out);
      expect(r, a.diag()).toHaveLength(3);
      expect(r[0]!.length).toBeGreaterThan(0);
      if (loop) expect(r[1]).toEqual(r[0]), expect(r[2]).toEqual(r[0]);
      else expect(r[1]).not.toEqual(r[0]);
    }
  });

  it('--finish-after with --state: counting carries over a restart; --echo-prompts records every prompt', async () => {
    const d = scratchDir();
    const files = ['--state', join(d, 'state'), '--echo-prompts', join(d, 'prompts')];
    const first = agent([...WORK, '--finish-after', '2', ...files]);
    await first.send('step one', 1);
    await first.send('', 2); // an empty line is no prompt: the agent asks again without counting it
    expect(await first.end()).toBe(0);
    expect(first.s.out).not.toContain('Task complete.');
    expect(readFileSync(join(d, 'state'), 'utf8').trim().split('\n')).toEqual(['prompt 1 done']);

    const second = agent([...WORK, '--finish-after', '2', ...files]);
    await second.send('step two', 1);
    await second.send('step three', 2);
    expect(await second.end()).toBe(0);
    const r = results(second.s.out);
    expect(r[0]).toEqual(['● RESULT: all tests pass', '● Task complete.']);
    expect(r[1]).toEqual(['● Nothing left to do.']);
    expect(readFileSync(join(d, 'state'), 'utf8').trim().split('\n')).toHaveLength(3);
    expect(readFileSync(join(d, 'prompts'), 'utf8')).toBe('step one\nstep two\nstep three\n');
  });

  it('--fail-after: the Nth result is the fatal build failure', async () => {
    const a = agent([...WORK, '--fail-after', '2']);
    await a.send('one', 1);
    await a.send('two', 2);
    expect(await a.end()).toBe(0);
    const r = results(a.s.out);
    expect(r[0]).not.toContain('● Task failed.');
    const lines = rendered(a.s.out);
    expect(lines.slice(lines.indexOf('FATAL: build failed'), lines.indexOf('FATAL: build failed') + 2), a.diag()).toEqual(['FATAL: build failed', '● Task failed.']);
    expect(r[1]).toEqual(['● Task failed.']);
  });

  it('--approve-on: asks y/n on the Nth prompt only, re-asks on a bad answer, "n" is Denied and the turn ends', async () => {
    const Q = 'Allow command `rm -rf build`? [y/n] ';
    const a = agent([...WORK, '--approve-on', '2']);
    await a.send('one', 1);
    await a.send('two', 2);
    await a.send('maybe', 1, Q);
    await a.send('n', 2, Q);
    await a.send('three', 3);
    expect(await a.end()).toBe(0);
    expect(a.s.out.split(Q)).toHaveLength(3); // asked twice, both on prompt 2
    expect(a.s.out.indexOf(Q)).toBeGreaterThan(a.s.out.indexOf('● Task: two'));
    expect(a.s.out).toContain('Please answer y or n.');
    expect(a.s.out).toContain('Denied.\r\n');
    expect(a.s.out).toContain('Skipping the cleanup');
    expect(a.s.out).not.toContain('Approved.');
    expect(results(a.s.out)).toHaveLength(3);
  });

  it('--silent-hang-on: the Nth prompt is received, then nothing more is printed and input is no longer read', async () => {
    const d = scratchDir();
    const a = agent([...WORK, '--silent-hang-on', '2', '--echo-prompts', join(d, 'prompts')]);
    await a.send('one', 1);
    await a.send('two', 2);
    await waitFor('the 2nd prompt to be received', () => existsSync(join(d, 'prompts')) && readFileSync(join(d, 'prompts'), 'utf8') === 'one\ntwo\n', a.diag);
    // End of input makes a live agent print "Bye." and exit; a hung one does neither. Absence needs some wait:
    // this is several normal turns (--work 0.2), and a wrong agent shows up as a failure, never a flake.
    a.p.stdin!.end();
    await new Promise((r) => setTimeout(r, 1500));
    expect(a.s.exited, a.diag()).toBe(false);
    // After the 2nd prompt only the paste-mode switch that accepting a line always sends: no text at all.
    expect(a.s.out.slice(a.s.out.lastIndexOf('> \x1b[?2004h')), a.diag()).toBe('> \x1b[?2004h\x1b[?2004l');
    expect(a.s.out).not.toContain('● Task: two');
  });
});
