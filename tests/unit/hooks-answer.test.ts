// Claude Code's hooks against what the person does and the screen shows, through a real PaneMonitor in virtual
// time (issue 12 items 4, 7 and 9, as recorded with the real CLI in tests/fixtures/recordings/claude-hooks-*):
// the approval answered (Enter) or dismissed (Esc) wins over the silence of the hook that opened it; the
// permission_prompt reminder that runs as the person answers is stale; a turn end followed by the prompt the person
// queued is no finish; /exit is no turn.
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';
import { HookTurns, type HookFacts } from '../../src/analysis/hook-turns.js';
import { QuestionAnswer } from '../../src/analysis/question-answer.js';
import type { Classification } from '../../src/analysis/types.js';

const driver = useDrivers({ cols: 80, rows: 20, agent: 'claude' });

async function hook(d: PaneDriver, t: number, event: string, detail = '', line = ''): Promise<void> {
  d.monitor.hook(t, { kind: 'hook', agent: 'claude', event, detail }, line);
  await d.monitor.flush();
}

// Claude Code 2.1.331's screens, as recorded (tests/fixtures/recordings/claude-hooks-*).
const R = '─'.repeat(60);
// Drawn as Claude Code draws: each row addressed by the cursor, no newlines (a redraw right after a key then reads
// as that key's echo, as it does with the real CLI).
const frame = (rows: string[]) => '\x1b[2J' + rows.map((r, y) => `\x1b[${y + 1};1H${r}`).join('');
const AT_REST = frame(['', R, '❯ ', R, '  ⏸ manual mode on · ? for shortcuts']);
const TYPED = frame(['', R, '❯ create hello.txt', R, '  ⏸ manual mode on · ? for shortcuts']);
const spinner = (s: number, below: string[] = []) =>
  frame(['❯ create hello.txt', '', ...below, `✶ Pondering… (${s}s)`, '', R, '❯ ', R, '  ⏸ manual mode on · esc to interrupt']);
const MENU = frame([
  '❯ create hello.txt', '', '● Creating hello.txt', '  ⎿  $ touch hello.txt', R, ' Bash command', '   touch hello.txt',
  ' Do you want to proceed?', ' ❯ 1. Yes', '   2. Yes, and always allow access', '   3. No', '', ' Esc to cancel · Tab to amend',
]);
const INTERRUPTED = frame([
  '❯ create hello.txt', '', '  Did not run 1 call', '  ⎿  $ touch hello.txt', '  ⎿  Interrupted · What should Claude do instead?',
  '', R, '❯ ', R, '  ⏸ manual mode on · ? for shortcuts',
]);
const DONE_SCREEN = frame(['❯ create hello.txt', '', '● Created hello.txt.', '', '✻ Cooked for 6s · done 4:03 PM', '', R, '❯ ', R, '  ⏸ manual mode on · ? for shortcuts']);

/** The n-th move into `to` (0 = the first). */
const nth = (d: PaneDriver, to: string, n: number) => d.transitions.filter((tr) => tr.to === to && tr.from !== to)[n];
const moves = (d: PaneDriver) => d.transitions.filter((tr) => tr.from !== tr.to).map((tr) => [tr.from, tr.to, tr.tier, tr.rule]);

/** A prompt submitted at 1.5 s, the Bash approval menu at 3.0 s (PermissionRequest with it). */
async function atMenu(d: PaneDriver): Promise<void> {
  await d.out(0.1, '\x1b[?2004h\x1b[?1049h' + AT_REST);
  await d.out(1.0, TYPED);
  await d.input(1.5, '\r');
  await hook(d, 1.55, 'UserPromptSubmit', '', 'create hello.txt');
  for (let i = 0; i < 6; i++) await d.out(1.6 + i * 0.2, spinner(i));
  await hook(d, 2.9, 'PreToolUse', '', 'Bash: touch hello.txt');
  await d.out(3.0, MENU);
  await hook(d, 3.05, 'PermissionRequest', '', 'Bash: touch hello.txt');
}

describe('an approval answered by the person (item 9)', () => {
  it('Enter on 1. Yes: RUNNING as soon as the screen shows the agent at work, not 5 s after PermissionRequest', async () => {
    const d = driver();
    await atMenu(d);
    await d.input(4.0, '\r');
    for (let i = 0; i < 10; i++) await d.out(4.1 + i * 0.2, spinner(3 + i, ['● Creating hello.txt']));
    await hook(d, 6.2, 'Stop');
    await d.out(6.25, DONE_SCREEN);
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'WAITING_APPROVAL', 1, 'hook.claude.permission_request'],
      ['WAITING_APPROVAL', 'RUNNING', 2, 'claude.working_marker'],
      ['RUNNING', 'DONE', 1, 'hook.claude.stop'],
    ]);
    expect(nth(d, 'RUNNING', 1)?.t).toBeCloseTo(4.1, 5);
  });

  it('the permission_prompt reminder ran just before the Enter: still RUNNING at once, never WAITING straight to DONE', async () => {
    const d = driver();
    await atMenu(d);
    await hook(d, 9.0, 'Notification', 'permission_prompt', 'Claude needs your permission');
    await d.input(9.1, '\r');
    for (let i = 0; i < 6; i++) await d.out(9.2 + i * 0.2, spinner(8 + i, ['● Creating hello.txt']));
    await hook(d, 10.4, 'Stop');
    await d.out(10.45, DONE_SCREEN);
    await d.until(16);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE']);
    expect(nth(d, 'RUNNING', 1)?.t).toBeCloseTo(9.2, 5);
  });

  it('the reminder reaching the daemon after the screen showed the answer is stale: no WAITING again', async () => {
    const d = driver();
    await atMenu(d);
    await d.input(9.1, '\r');
    await d.out(9.2, spinner(8, ['● Creating hello.txt']));
    await hook(d, 9.3, 'Notification', 'permission_prompt', 'Claude needs your permission');
    for (let i = 1; i < 6; i++) await d.out(9.2 + i * 0.2, spinner(8 + i, ['● Creating hello.txt']));
    await hook(d, 10.4, 'Stop');
    await d.out(10.45, DONE_SCREEN);
    await d.until(16);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE']);
    expect(d.counter('suppressed.tier1.wait.question_answered')).toBe(1);
  });

  it('where keys are not seen (tmux), the menu giving way to the agent at work is the answer', async () => {
    const d = driver();
    await atMenu(d);
    for (let i = 0; i < 6; i++) await d.out(4.1 + i * 0.2, spinner(3 + i, ['● Creating hello.txt']));
    await d.until(6);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING']);
    // read as output with no key to prompt a read is (coalesced), well inside the hook's silence window
    expect(nth(d, 'RUNNING', 1)!.t).toBeLessThan(4.6);
  });

  it('keys that do not answer (an arrow moving the selection) leave it WAITING', async () => {
    const d = driver();
    await atMenu(d);
    await d.input(4.0, '\x1b[B');
    await d.out(4.05, MENU.replace(' ❯ 1. Yes', '   1. Yes').replace('   2. Yes,', ' ❯ 2. Yes,'));
    await d.until(7);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL']);
  });
});

describe('an approval dismissed with Esc (item 4)', () => {
  it('the turn ends at once (DONE, as an interrupted turn): not WAITING until the next prompt', async () => {
    const d = driver();
    await atMenu(d);
    await d.input(5.0, '\x1b');
    await d.out(5.05, INTERRUPTED);
    await d.until(20);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'WAITING_APPROVAL', 1, 'hook.claude.permission_request'],
      ['WAITING_APPROVAL', 'DONE', 2, 'claude.interrupted'],
    ]);
    expect(d.first('DONE')?.t).toBeCloseTo(5.05, 5);
  });

  it('without hooks too: the redraw right after Esc reads as its echo, yet Esc answered the question', async () => {
    const d = driver();
    await d.out(0.1, '\x1b[?2004h\x1b[?1049h' + AT_REST);
    await d.out(1.0, TYPED);
    await d.input(1.5, '\r');
    for (let i = 0; i < 6; i++) await d.out(1.6 + i * 0.2, spinner(i));
    await d.out(3.0, MENU);
    await d.input(5.0, '\x1b');
    await d.out(5.05, INTERRUPTED);
    await d.until(20);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL', 'DONE']);
    expect(d.first('DONE')?.t).toBeCloseTo(5.05, 5);
  });
});

describe('a message queued while a turn runs (item 7)', () => {
  it('the turn end followed by the queued prompt is no finish: one DONE, after the queued turn', async () => {
    const d = driver();
    await d.out(0.1, '\x1b[?2004h\x1b[?1049h' + AT_REST);
    await d.out(1.0, TYPED);
    await d.input(1.5, '\r');
    await hook(d, 1.55, 'UserPromptSubmit', '', 'first question');
    for (let i = 0; i < 40; i++) await d.out(1.6 + i * 0.2, spinner(i, i >= 15 ? ['❯ second question', '  ⎿  Queued · ctrl+x ctrl+s to send now'] : []));
    await d.input(4.4, '\r');
    await hook(d, 4.45, 'UserPromptSubmit', '', 'second question');
    await hook(d, 7.0, 'Stop');
    await hook(d, 9.5, 'Stop');
    await d.out(9.55, DONE_SCREEN);
    await d.until(16);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'DONE', 1, 'hook.claude.stop'],
    ]);
    expect(d.first('DONE')?.t).toBeCloseTo(9.5, 5);
    expect(d.counter('suppressed.tier1.done.queued_prompt_follows')).toBe(1);
  });

  it('the queued message taken into the turn itself (one Stop for both): the screen ends the turn', async () => {
    const d = driver();
    await d.out(0.1, '\x1b[?2004h\x1b[?1049h' + AT_REST);
    await d.out(1.0, TYPED);
    await d.input(1.5, '\r');
    await hook(d, 1.55, 'UserPromptSubmit');
    for (let i = 0; i < 20; i++) await d.out(1.6 + i * 0.2, spinner(i));
    await hook(d, 4.45, 'UserPromptSubmit');
    await d.out(7.0, DONE_SCREEN);
    await hook(d, 7.05, 'Stop');
    await d.until(16);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    // the held Stop handed the decision to the screen, which had the done line already
    expect(d.first('DONE')!.t).toBeLessThan(7.05 + d.cfg.thresholds.stability_s + 0.2);
  });
});

describe('/exit (item 9)', () => {
  it('leaving the TUI after /exit is no turn: DONE, then IDLE at SessionEnd, no RUNNING between', async () => {
    const d = driver();
    await d.out(0.1, '\x1b[?2004h\x1b[?1049h' + AT_REST);
    await d.out(1.0, TYPED);
    await d.input(1.5, '\r');
    await hook(d, 1.55, 'UserPromptSubmit');
    await d.out(1.6, spinner(0));
    await d.out(3.0, DONE_SCREEN);
    await hook(d, 3.05, 'Stop');
    await d.out(11.0, '\x1b[8;1H❯ /exit');
    await d.input(12.0, '\r');
    await d.out(12.02, '\x1b[?1049l\x1b[?2004l');
    await d.out(12.3, '\r\nResume this session with:\r\nclaude --resume 0f6e0c1a\r\n');
    await hook(d, 12.5, 'SessionEnd', 'prompt_input_exit');
    await d.until(20);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE', 'IDLE']);
  });
});

describe('a hook that says nothing about the state', () => {
  it('SessionStart at launch does not silence the screen: a prompt whose UserPromptSubmit is late is RUNNING from the screen', async () => {
    const d = driver();
    await d.out(0.1, '\x1b[?2004h\x1b[?1049h' + AT_REST);
    await hook(d, 0.3, 'SessionStart', 'startup');
    await d.out(1.0, TYPED);
    await d.input(1.5, '\r');
    for (let i = 0; i < 6; i++) await d.out(1.6 + i * 0.2, spinner(i));
    await hook(d, 2.6, 'UserPromptSubmit');
    await d.until(4);
    expect(moves(d), d.describe()).toEqual([['IDLE', 'RUNNING', 2, 'claude.working_marker']]);
    expect(d.first('RUNNING')!.t).toBeLessThan(2.0);
  });
});

describe('the decisions, one by one', () => {
  const facts = (over: Partial<HookFacts> = {}): HookFacts => ({ state: 'RUNNING', menuOnScreen: () => false, waitAnswered: false, ...over });

  it('turn ends are held while more prompts came than ends; the count starts again at rest', () => {
    const h = new HookTurns();
    expect(h.review('turn_start', facts())).toEqual({ kind: 'apply' });
    expect(h.review('turn_start', facts())).toEqual({ kind: 'apply' });
    expect(h.review('turn_end', facts())).toEqual({ kind: 'suppress', reason: 'queued_prompt_follows', toScreen: true });
    expect(h.review('turn_end', facts())).toEqual({ kind: 'apply' });
    h.review('turn_start', facts());
    h.review('turn_start', facts());
    h.rest();
    h.review('turn_start', facts());
    expect(h.review('turn_end', facts())).toEqual({ kind: 'apply' });
  });

  it('a reminder counts while its question is open, on screen, or never seen answered', () => {
    const h = new HookTurns();
    const stale = { kind: 'suppress', reason: 'question_answered', toScreen: false };
    expect(h.review('wait_reminder', facts({ state: 'WAITING_APPROVAL' }))).toEqual({ kind: 'apply' });
    expect(h.review('wait_reminder', facts({ menuOnScreen: () => true, waitAnswered: true }))).toEqual({ kind: 'apply' });
    expect(h.review('wait_reminder', facts())).toEqual({ kind: 'apply' });
    expect(h.review('wait_reminder', facts({ waitAnswered: true }))).toEqual(stale);
    expect(h.review('wait_reminder', facts({ state: 'DONE' }))).toEqual(stale);
    expect(h.review('wait', facts({ state: 'DONE' }))).toEqual({ kind: 'apply' });
  });

  it('an answer is Enter, Esc or Ctrl-C during the wait, or the menu seen and gone; the screen must show what came of it', () => {
    const cls = (verdict: Classification['verdict'], explicit = false): Classification => ({ verdict, rule: 'r', line: '', explicit, liveEdge: [], program: 'claude' });
    const q = new QuestionAnswer();
    q.begin(1, null);
    expect(q.movedOn(cls('working'))).toBe(false);
    q.noteKey(2, '\x1b[B');
    expect(q.movedOn(cls('working'))).toBe(false);
    q.noteKey(2.5, '\x1b');
    expect(q.dismissed).toBe(true);
    expect(q.movedOn(cls('ready'))).toBe(true);
    expect(q.movedOn(cls('unknown'))).toBe(false);
    expect(q.movedOn(cls('waiting', true))).toBe(false);
    q.begin(3, null);
    expect(q.dismissed).toBe(false);
    q.noteScreen(cls('waiting', true));
    expect(q.movedOn(cls('working'))).toBe(true);
  });
});
