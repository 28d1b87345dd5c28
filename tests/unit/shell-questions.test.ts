// Questions put by a shell program without shell integration (issue 12, item 6), driven through the real pipeline
// in virtual time: every question at the cursor is WAITING within half a second of appearing, however soon after
// Enter it appears, in a pane whose keys are seen (`run`) and in one whose keys are not (tmux); text the person
// typed and status lines that pause after a colon are never questions.
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';

const driver = useDrivers({ agent: 'auto' });

const BP_ON = '\x1b[?2004h';
const BP_OFF = '\x1b[?2004l';
const PS1 = 'user@host:project$ ';
/** Issue 12, item 6: WAITING within this long of the question appearing. */
const WITHIN_S = 0.5;

/** bash at its prompt; the person types a command and presses Enter (keys seen, as in a `run` pane). */
async function submit(d: PaneDriver, t: number, cmd: string): Promise<number> {
  await d.out(t, `${BP_ON}${PS1}`);
  const end = await d.type(t + 1, cmd);
  await d.input(end + 0.05, '\r');
  await d.out(end + 0.051, `\r\n${BP_OFF}\r`);
  return end + 0.05;
}

/** The same with no keys seen (a tmux pane): only the echo of each key and of Enter arrives. */
async function submitUnseen(d: PaneDriver, t: number, cmd: string): Promise<number> {
  await d.out(t, `${BP_ON}${PS1}`);
  let at = t + 1;
  for (const ch of cmd) {
    await d.out(at, ch);
    at += 0.06;
  }
  await d.out(at + 0.05, `\r\n${BP_OFF}\r`);
  return at + 0.05;
}

async function expectWaitWithin(d: PaneDriver, shownAt: number): Promise<void> {
  await d.until(shownAt + 3);
  const wait = d.first('WAITING_APPROVAL');
  expect(wait, d.describe()).toBeDefined();
  expect(wait!.t - shownAt, d.describe()).toBeLessThanOrEqual(WITHIN_S);
}

const QUESTIONS: Array<[string, string, string]> = [
  ['rm -i', 'rm -i old.log', "rm: remove regular file 'old.log'? "],
  ['git add -p', 'git add -p', '\x1b[1;34m(1/1) Stage this hunk [y,n,q,a,d,e,?]? \x1b[m'],
  ['a [Y/n] question with a remark after it', './update.sh', 'Reboot now? [Y/n] (default Y in 8 s) '],
  ['ssh, unknown host key', 'ssh box', 'Are you sure you want to continue connecting (yes/no/[fingerprint])? '],
  ['a password prompt', 'ssh box', "demo@127.0.0.1's password: "],
  ["a script's input()", 'python3 new_project.py', 'Scaffolding a new project\r\nProject name: '],
  ['a bare question mark', './deploy.sh', 'Deploy to production? '],
  ['a colon after a clause that starts with a gerund', './init.sh', 'Using the default profile, enter a name: '],
];

describe('a question printed within milliseconds of Enter (keys seen)', () => {
  it.each(QUESTIONS)('%s: WAITING within 0.5 s, not taken for the echo of typing', async (_what, cmd, question) => {
    const d = driver();
    const enter = await submit(d, 0.2, cmd);
    const shown = enter + 0.015;
    await d.out(shown, question);
    await expectWaitWithin(d, shown);
  });
});

describe('a question printed after a spell of work (keys seen)', () => {
  it.each(QUESTIONS)('%s: WAITING within 0.5 s', async (_what, cmd, question) => {
    const d = driver();
    const enter = await submit(d, 0.2, cmd);
    await d.out(enter + 0.3, 'Applying updates...\r\n');
    await d.out(enter + 1.1, '3 packages upgraded\r\n');
    const shown = enter + 1.7;
    await d.out(shown, question);
    await expectWaitWithin(d, shown);
  });
});

describe('the answer', () => {
  it('a question answered within a second of the Enter that started the turn: RUNNING again, then DONE', async () => {
    // a shell with no line editor (sh, dash): no bracketed paste, so the turn is read from Enter and output alone
    const d = driver();
    await d.out(0.1, '$ ');
    const end = await d.type(1, 'rm -ri build');
    const enter = end + 0.05;
    await d.input(enter, '\r');
    await d.out(enter + 0.001, '\r\n');
    await d.out(enter + 0.015, "rm: descend into directory 'build'? ");
    await d.input(enter + 0.5, 'y');
    await d.out(enter + 0.51, 'y');
    await d.input(enter + 0.6, '\r');
    await d.out(enter + 0.61, '\r\n');
    await d.out(enter + 0.9, "removed 'build/app.o'\r\n");
    await d.out(enter + 2.6, "removed directory 'build'\r\n$ ");
    await d.until(enter + 6);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE']);
    // the work after the answer is RUNNING at once, not held back by the debounce of the turn's own start
    const again = d.transitions.find((tr) => tr.from === 'WAITING_APPROVAL')!;
    expect(again.t - (enter + 0.6), d.describe()).toBeLessThan(0.2);
    expect(d.first('DONE')!.t, d.describe()).toBeGreaterThanOrEqual(enter + 2.6);
  });
});

describe('a question in a pane whose keys are not seen (tmux)', () => {
  it.each(QUESTIONS)('%s: WAITING within 0.5 s', async (_what, cmd, question) => {
    const d = driver();
    const enter = await submitUnseen(d, 0.2, cmd);
    const shown = enter + 0.02;
    await d.out(shown, question);
    await expectWaitWithin(d, shown);
  });
});

describe('no question', () => {
  it('output that pauses after a colon (Downloading: , Checking database: ) is never WAITING', async () => {
    const d = driver();
    const enter = await submit(d, 0.2, './sync.sh');
    await d.out(enter + 0.01, 'Downloading: ');
    let t = enter + 0.9;
    for (const p of [10, 35, 60, 85, 100]) {
      await d.out(t, `\rDownloading: ${String(p).padStart(3)}%`);
      t += 0.2;
    }
    await d.out(t, '\r\nChecking database: ');
    await d.out(t + 0.9, 'ok\r\nMigrating schema (3 steps):');
    await d.out(t + 1.8, ' done\r\n');
    await d.out(t + 1.9, `${BP_ON}${PS1}`);
    await d.until(t + 5);
    expect(d.states, d.describe()).not.toContain('WAITING_APPROVAL');
    expect(d.state, d.describe()).toBe('DONE');
  });

  it("the person's own `def area(r):` in a REPL, left a while before Enter, is not a question (keys seen)", async () => {
    const d = driver();
    await d.out(0.1, '>>> ');
    const end = await d.type(1, 'def area(r):');
    await d.until(end + 3);
    expect(d.states, d.describe()).not.toContain('WAITING_APPROVAL');
  });

  it('...nor where the keys are not seen: typing arrives a key at a time (tmux)', async () => {
    const d = driver();
    await d.out(0.1, '>>> ');
    let at = 1;
    for (const ch of 'def area(r):') {
      await d.out(at, ch);
      at += 0.07;
    }
    await d.until(at + 3);
    expect(d.states, d.describe()).not.toContain('WAITING_APPROVAL');
  });

  it('typing a line that ends like a password prompt at the shell prompt is not a question', async () => {
    const d = driver();
    await d.out(0.1, `${BP_ON}${PS1}`);
    const end = await d.type(1, 'echo password:');
    await d.until(end + 3);
    expect(d.states, d.describe()).not.toContain('WAITING_APPROVAL');
  });
});
