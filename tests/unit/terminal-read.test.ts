// A program blocked reading the terminal with a prompt at the cursor is at rest (run.reads_terminal), whatever it was
// taken for; a question is still a question; and a foreground process is known by all the names it goes by.
// A real PaneMonitor in virtual time; the facts are what the sources report (foreground.ts, tty-read.ts).
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';

const driver = useDrivers();

async function command(d: PaneDriver, t: number, ev: { phase: 'executed' } | { phase: 'finished'; exitCode: number }): Promise<void> {
  d.monitor.handle({ kind: 'command', t, ...ev });
  await d.monitor.flush();
}

describe('a program reading the terminal at a prompt', () => {
  it("`run`'s program taken for one thing to do rests at its `> ` prompt; its exit later still reports, with the code", async () => {
    const d = driver({ command: './my-agent.sh' });
    await command(d, 0.01, { phase: 'executed' });
    await d.process(0.02, 'my-agent.sh');
    await d.out(0.1, '> ');
    await d.process(0.3, 'my-agent.sh', { reading: true });
    await d.until(1);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.transitions[1]).toMatchObject({ t: 0.3, tier: 1, rule: 'run.reads_terminal', line: '>' });
    // A line typed: the program has it and works; its answer and the prompt again, read again: at rest.
    await d.type(3, 'hello');
    await d.input(3.3, '\r');
    await d.out(3.31, '\r\n');
    await d.process(3.5, 'my-agent.sh', { reading: false });
    await d.out(3.8, 'thinking...\r\n');
    await d.until(4.5);
    // The person's turn is RUNNING at once: no silence after `run`'s own start hides it now the screen reads turns.
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE', 'RUNNING']);
    await d.out(5.3, 'answer: hello\r\n> ');
    await d.process(5.5, 'my-agent.sh', { reading: true });
    await d.until(8);
    expect(d.state, d.describe()).toBe('DONE');
    await command(d, 9, { phase: 'finished', exitCode: 3 });
    await d.until(10);
    expect(d.transitions.at(-1)).toMatchObject({ to: 'FAILED', rule: 'run.command_failed', line: expect.stringMatching(/^exit 3/) });
  });

  it('the read seen before its prompt reaches the screen: the prompt drawn a moment later ends the turn', async () => {
    const d = driver({ command: 'python3 repl.py' });
    await command(d, 0.01, { phase: 'executed' });
    await d.process(0.2, 'python3', { reading: true });
    expect(d.states).toEqual(['RUNNING']);
    await d.out(0.25, '> ');
    await d.until(1);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.transitions[1]).toMatchObject({ rule: 'run.reads_terminal' });
  });

  it('the read seen while the screen still shows the work (its question not drawn yet) is no end: the question is', async () => {
    // The program cleared its spinner, asked and blocked reading; the source saw the read before those bytes
    // reached the screen, whose cursor still sits at the end of the spinner's row.
    const d = driver({ command: 'python3 agent.py', agent: 'generic' });
    await command(d, 0.01, { phase: 'executed' });
    await d.process(0.02, 'python3');
    await d.out(0.1, '> ');
    await d.process(0.2, 'python3', { reading: true });
    const enter = await d.type(1, 'clean the build dir');
    await d.input(enter, '\r');
    await d.out(enter + 0.01, '\r\n');
    await d.process(enter + 0.05, 'python3', { reading: false });
    await d.out(enter + 0.1, '● Task: clean the build dir\r\n');
    await d.out(enter + 0.2, '\r\x1b[K⠋ Working… (0s · esc to interrupt)');
    await d.out(enter + 0.3, '\r\x1b[K⠙ Working… (0s · esc to interrupt)');
    await d.process(enter + 0.6, 'python3', { reading: true });
    await d.until(enter + 0.7);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE', 'RUNNING']);
    await d.out(enter + 0.75, '\r\x1b[KAllow command `rm -rf build`? [y/n] ');
    await d.until(enter + 3);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE', 'RUNNING', 'WAITING_APPROVAL']);
  });

  it('a question at the cursor is no rest: WAITING_APPROVAL, as before', async () => {
    const d = driver({ command: 'python3 setup.py' });
    await command(d, 0, { phase: 'executed' });
    await d.out(0.2, 'Project name: ');
    await d.process(0.3, 'python3', { reading: true });
    await d.until(3);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL']);
  });

  it('a read on an empty row (cat fed from the terminal) is no prompt: still RUNNING', async () => {
    const d = driver({ command: 'cat' });
    await command(d, 0, { phase: 'executed' });
    await d.process(0.3, 'cat', { reading: true });
    await d.until(20);
    expect(d.states, d.describe()).toEqual(['RUNNING']);
  });

  it("a shell's job reading at its prompt ends the job's turn; the shell reading at its own prompt is left to its screen", async () => {
    const d = driver({ command: 'bash' });
    await d.process(0.1, 'bash', { reading: true });
    await d.out(0.2, '$ ');
    const enter = await d.type(1, 'python3 repl.py');
    await d.input(enter, '\r');
    await d.out(enter + 0.01, '\r\n');
    await d.process(enter + 0.05, 'python3');
    await d.out(enter + 0.3, 'loading\r\n> ');
    await d.process(enter + 0.5, 'python3', { reading: true });
    await d.until(enter + 1);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.transitions[1]).toMatchObject({ rule: 'run.reads_terminal', line: '>' });
  });
});

describe('a foreground process known by its names', () => {
  it('`node` whose package is @google/gemini-cli is Gemini at once; from a shell it is a session, no job turn', async () => {
    const d = driver({ command: 'bash' });
    await d.process(0.1, 'bash');
    await d.out(0.2, '$ ');
    await d.process(2, 'node', { names: ['gemini', 'gemini-cli', '@google/gemini-cli', 'index'] });
    await d.until(4);
    expect(d.monitor.analyzer.currentProgram.program).toBe('gemini');
    expect(d.states, d.describe()).toEqual([]);
  });

  it('without such names `node` from a shell is a job, as before', async () => {
    const d = driver({ command: 'bash' });
    await d.process(0.1, 'bash');
    await d.out(0.2, '$ ');
    await d.process(2, 'node', { names: ['server', 'node'] });
    await d.until(2.5);
    expect(d.monitor.analyzer.currentProgram.program).toBe('shell');
    expect(d.transitions[0]).toMatchObject({ to: 'RUNNING', rule: 'job.started' });
  });
});
