// A failed command in a shell without shell integration (issue 12, item 3), driven through the real pipeline in
// virtual time: a failure the screen shows by its form (a tool's error line, a test runner's count of failures, a
// FAIL line, command not found, a traceback) is FAILED once the prompt is back; a success that merely mentions
// failure stays DONE; in a pane whose keys are not seen (tmux) a REPL statement that raises is FAILED too.
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';

const driver = useDrivers({ agent: 'auto' });

const BP_ON = '\x1b[?2004h';
const BP_OFF = '\x1b[?2004l';
const PS1 = 'user@host:project$ ';

/** bash runs `cmd`, which prints `lines` over a second, and the prompt comes back; the state at the end. */
async function runCommand(cmd: string, lines: string[]): Promise<PaneDriver> {
  const d = driver();
  await d.out(0.1, `${BP_ON}${PS1}`);
  const end = await d.type(1, cmd);
  await d.input(end + 0.05, '\r');
  await d.out(end + 0.051, `\r\n${BP_OFF}\r`);
  let t = end + 0.3;
  for (const l of lines) {
    await d.out(t, `${l}\r\n`);
    t += 0.15;
  }
  await d.out(t + 0.5, `${BP_ON}${PS1}`);
  await d.until(t + 4);
  return d;
}

const FAILURES: Array<[string, string, string[]]> = [
  ['make: *** … Error 2', 'make', ['cc -c main.c', 'main.c:3:1: error: expected ; before }', 'make: *** [all] Error 2']],
  ['make with a file and line', 'make', ['cc -c main.c', 'make: *** [Makefile:5: all] Error 1']],
  ['npm error Missing script', 'npm run nosuchscript', ['npm error Missing script: "nosuchscript"', 'npm error', 'npm error To see a list of scripts, run:', 'npm error   npm run']],
  ['vitest summary', 'npx vitest run', [' ✓ src/math.test.ts (3 tests) 4ms', ' ❯ src/str.test.ts (2 tests | 2 failed) 6ms', '', ' Test Files  1 failed | 1 passed (2)', '      Tests  2 failed | 3 passed (5)', '   Duration  498ms']],
  ['a FAIL line', 'npx jest', [' FAIL  src/str.test.ts', '  ● trims both ends', '', 'Tests:       1 failed, 4 passed, 5 total']],
  ['pytest summary', 'pytest', ['collected 3 items', '', 'test_calc.py .FF', '', '========================= 2 failed, 1 passed in 0.12s ========================='],],
  ["node's test runner", 'node --test', ['✔ adds (0.5ms)', '✖ pads (1.2ms)', 'ℹ tests 2', 'ℹ pass 1', 'ℹ fail 1']],
  ['command not found', 'nosuch', ['bash: nosuch: command not found']],
  ['a Python traceback', 'python3 app.py', ['Traceback (most recent call last):', '  File "app.py", line 1, in <module>', 'ZeroDivisionError: division by zero']],
];

const SUCCESSES: Array<[string, string, string[]]> = [
  ['vitest, all passed', 'npx vitest run', [' ✓ src/math.test.ts (3 tests) 4ms', '', ' Test Files  2 passed (2)', '      Tests  5 passed (5)']],
  ['pytest, all passed', 'pytest', ['collected 3 items', '', 'test_ok.py ...', '', '============================== 3 passed in 0.01s ===============================']],
  ['a summary with 0 failed', 'echo "Tests: 0 failed, 12 passed"', ['Tests: 0 failed, 12 passed']],
  ['no failures', 'npm run lint', ['lint: no failures']],
  ['a file that mentions a failed deploy', 'cat notes.txt', ['monday: deploy failed, rolled back', 'tuesday: fixed the failed migration', 'wednesday: all green']],
  ['make, a good rule', 'make lint', ['checking sources', '0 problems']],
];

describe('a failure the screen shows is FAILED', () => {
  it.each(FAILURES)('%s', async (_what, cmd, lines) => {
    const d = await runCommand(cmd, lines);
    expect(d.state, d.describe()).toBe('FAILED');
    expect(d.transitions.at(-1)!.rule, d.describe()).toBe('shell.failure_line');
  });
});

describe('a success stays DONE, whatever words it prints', () => {
  it.each(SUCCESSES)('%s', async (_what, cmd, lines) => {
    const d = await runCommand(cmd, lines);
    expect(d.state, d.describe()).toBe('DONE');
  });
});

describe('a REPL statement that raises, where the keys are not seen (tmux)', () => {
  it('RUNNING, then FAILED on the traceback; the next statement DONE', async () => {
    const d = driver();
    await d.out(0.1, 'Python 3.11.7\r\n>>> ');
    let at = 1;
    for (const ch of 'x / 0') {
      await d.out(at, ch);
      at += 0.07;
    }
    await d.out(at + 0.1, '\r\n');
    await d.out(at + 0.101, 'Traceback (most recent call last):\r\n  File "<stdin>", line 1, in <module>\r\nZeroDivisionError: division by zero\r\n>>> ');
    await d.until(at + 3);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'FAILED']);
    expect(d.first('FAILED')!.line).toBe('ZeroDivisionError: division by zero');
    at += 4;
    for (const ch of 'print(1)') {
      await d.out(at, ch);
      at += 0.07;
    }
    await d.out(at + 0.1, '\r\n');
    await d.out(at + 0.101, '1\r\n>>> ');
    await d.until(at + 3);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'FAILED', 'RUNNING', 'DONE']);
  });

  it('Enter on an empty prompt, or a continuation line, is no turn', async () => {
    const d = driver();
    await d.out(0.1, '>>> ');
    await d.out(1, '\r\n>>> ');
    await d.out(2, '\r\n>>> ');
    let at = 3;
    for (const ch of 'def f():') {
      await d.out(at, ch);
      at += 0.07;
    }
    await d.out(at + 0.1, '\r\n... ');
    await d.until(at + 3);
    expect(d.states, d.describe()).toEqual([]);
  });
});
