// Turns a pane's source vouches for, driven through a real PaneMonitor in virtual time: `run`'s one-shot program
// (its start and its exit reported as one command, Tier 1) and a shell handing the terminal to a job (a foreground
// process change, the only sign a tmux pane gives of the person's Enter).
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';

const driver = useDrivers();

const BP_ON = '\x1b[?2004h';
const BP_OFF = '\x1b[?2004l';

async function command(d: PaneDriver, t: number, ev: { phase: 'executed' } | { phase: 'finished'; exitCode: number }): Promise<void> {
  d.monitor.handle({ kind: 'command', t, ...ev });
  await d.monitor.flush();
}

describe("run's one-shot program: one turn from its start to its exit", () => {
  it('RUNNING at its start and FAILED at its exit, Tier 1, with the exit code and its last line', async () => {
    const d = driver({ command: "bash -c echo compiling; sleep 4; echo '3 tests failed'; exit 1" });
    await command(d, 0.01, { phase: 'executed' });
    await d.out(0.05, 'compiling\r\n');
    await d.out(4.05, '3 tests failed\r\n');
    await command(d, 4.06, { phase: 'finished', exitCode: 1 });
    await d.until(10);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'FAILED']);
    expect(d.transitions[0]).toMatchObject({ t: 0.01, tier: 1, rule: 'run.command_executed', line: expect.stringContaining('bash -c echo compiling') });
    expect(d.transitions[1]).toMatchObject({ t: 4.06, tier: 1, rule: 'run.command_failed', line: 'exit 1: 3 tests failed' });
  });

  it('exit 0 is DONE with "exit 0" in its line', async () => {
    const d = driver({ command: 'npm test' });
    await command(d, 0, { phase: 'executed' });
    await d.out(2, '  12 passing (2s)\r\n');
    await command(d, 2.1, { phase: 'finished', exitCode: 0 });
    await d.until(5);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.transitions[1]).toMatchObject({ tier: 1, rule: 'run.command_finished', line: 'exit 0: 12 passing (2s)' });
  });

  it('the screen cannot end it early: a completion word or a quiet partial line waits for the exit', async () => {
    const d = driver({ command: 'make all' });
    await command(d, 0, { phase: 'executed' });
    await d.out(6, 'Build complete\r\nuploading artifacts...');
    await d.until(30);
    expect(d.states, d.describe()).toEqual(['RUNNING']);
    expect(d.counted(/^suppressed\.tier3\.(done|idle)\.command_running$/)).toBeGreaterThan(0);
    await command(d, 31, { phase: 'finished', exitCode: 0 });
    await d.until(33);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.transitions.at(-1)).toMatchObject({ tier: 1, rule: 'run.command_finished' });
  });

  it('a question it asks right after it started is WAITING_APPROVAL, then RUNNING once answered, then its exit', async () => {
    const d = driver({ command: 'python3 setup.py' });
    await command(d, 0, { phase: 'executed' });
    await d.out(0.2, 'Project name: ');
    await d.until(3);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL']);
    expect(d.first('WAITING_APPROVAL')).toMatchObject({ rule: 'shell.question_at_cursor', line: 'Project name:' });
    // Well inside the Tier 1 silence after the start: a question is no end, and the gate does not hide it.
    expect(d.first('WAITING_APPROVAL')!.t).toBeLessThan(d.cfg.thresholds.prompt_silence_s);
    await d.input(3.5, 'demo\r');
    await d.out(3.51, 'demo\r\ncreating demo/\r\n');
    await d.out(4.5, 'wrote 3 files\r\n');
    await command(d, 4.6, { phase: 'finished', exitCode: 0 });
    await d.until(7);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE']);
  });

  it('an rm -i question is WAITING_APPROVAL at once (explicit y/N questions as for any program)', async () => {
    const d = driver({ command: 'rm -i old.log' });
    await command(d, 0, { phase: 'executed' });
    await d.out(0.05, "rm: remove regular file 'old.log'? ");
    await d.until(3);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL']);
  });

  it('a program that turns out to read the person at a line editor of its own is read by its screen from then on', async () => {
    const d = driver({ command: 'mytool' });
    await command(d, 0, { phase: 'executed' });
    await d.out(0.5, `mytool 1.0\r\n${BP_ON}mytool> `);
    // (An end the screen reads waits out the Tier 1 silence after the start, as after any Tier 1 signal.)
    await d.until(d.cfg.thresholds.prompt_silence_s + 1);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    await command(d, 9, { phase: 'finished', exitCode: 0 });
    await d.until(10);
    // Its exit still reports, with its status: DONE already, so no new transition.
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
  });

  it('an agent found behind it (a wrapper script, npx …) is a session: its own screen ends the start-up turn', async () => {
    const d = driver({ command: 'bash start-gemini.sh' });
    await command(d, 0, { phase: 'executed' });
    // Gemini CLI's title at rest (no bracketed paste, no full screen: only knowing the agent releases the turn).
    await d.out(1, '\x1b]2;◇  Ready (project)\x07Tips for getting started:\r\n');
    await d.until(d.cfg.thresholds.prompt_silence_s + 2);
    expect(d.monitor.analyzer.currentProgram.program).toBe('gemini');
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.transitions[1]).toMatchObject({ tier: 2, rule: 'gemini.title_ready' });
  });
});

describe('a shell hands the terminal to a job (foreground process change)', () => {
  it('with no keys and no bracketed paste known (a tmux pane just seeded): RUNNING at the job, FAILED from the screen', async () => {
    const d = driver();
    // The seed: the screen as tmux shows it, drawn with cursor moves (no newline, bracketed paste unknown).
    await d.out(0.1, '\x1b[H\x1b[2J\x1b[1;1H$ \x1b[1;3H');
    await d.process(0.2, 'bash');
    await d.until(2);
    // The person's first command: its echo, then bash turns bracketed paste off and runs it.
    await d.out(3.0, `sleep 2; ls /nope\r\n${BP_OFF}`);
    await d.process(3.6, 'sleep');
    await d.process(5.0, 'ls');
    await d.out(5.01, "ls: cannot access '/nope': No such file or directory\r\n");
    await d.process(5.4, 'bash');
    await d.out(5.02, `${BP_ON}$ `);
    await d.until(8);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'FAILED']);
    expect(d.transitions[0]).toMatchObject({ t: 3.6, tier: 1, rule: 'job.started', line: 'sleep' });
    expect(d.transitions[1]).toMatchObject({ rule: 'shell.failure_line', line: expect.stringContaining('No such file or directory') });
  });

  it('the prompt still on screen when the job is seen (its output not read yet) does not end the turn', async () => {
    const d = driver();
    await d.out(0.1, `${BP_ON}$ `);
    await d.process(0.2, 'bash');
    await d.out(1, 'sleep 3');
    await d.process(1.5, 'sleep');
    await d.out(1.51, `${BP_OFF}\r\n`);
    await d.until(4.4);
    expect(d.states, d.describe()).toEqual(['RUNNING']);
    await d.process(4.5, 'bash');
    await d.out(4.5, `${BP_ON}$ `);
    await d.until(6);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
  });

  it('a shell starting a shell is no command; a login shell ("-bash") is a shell', async () => {
    const d = driver();
    await d.out(0.1, `${BP_ON}$ `);
    await d.process(0.2, '-bash');
    await d.process(1, 'zsh');
    await d.until(3);
    expect(d.states, d.describe()).toEqual([]);
    await d.process(3, 'make');
    await d.until(3.5);
    expect(d.transitions[0]).toMatchObject({ to: 'RUNNING', rule: 'job.started', line: 'make' });
  });

  it('a session program started from the shell (an editor, a pager, an agent) is no command: its screen tells its turns', async () => {
    const d = driver();
    await d.out(0.1, `${BP_ON}$ `);
    await d.process(0.2, 'bash');
    for (const [t, name] of [[1, 'vim'], [2, 'bash'], [3, 'less'], [4, 'bash'], [5, 'claude'], [6, 'bash']] as const) await d.process(t, name);
    await d.until(8);
    expect(d.counter('fired.tier1.run.job.started'), d.describe()).toBe(0);
  });

  it("a foreground change in a pane whose program is no shell (an agent's own children) is no command", async () => {
    const d = driver();
    await d.out(0.1, 'working...');
    await d.process(0.2, 'node');
    await d.process(1, 'python3');
    await d.until(3);
    expect(d.counter('fired.tier1.run.job.started')).toBe(0);
  });
});
