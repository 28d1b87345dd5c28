// Hooks that say less than the screen (issue 24 item 8), through a real PaneMonitor (real @xterm/headless) in virtual
// time: a turn end hook does not say DONE over a failure the screen shows (Gemini CLI's AfterAgent fires for a failed
// turn too), a failure on screen is not held back by the hooks' silence (no hook reports an API error), and the
// notice Gemini CLI leaves after its loop-detection dialog was answered asks nothing. The real sessions are
// recordings: claude-hooks-api-error, gemini-hooks-api-error-400, gemini-hooks-loop-detected.
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';
import type { HookAgent } from '../../src/hooks/agents.js';

const driver = useDrivers({ cols: 120, rows: 20 });

async function hook(d: PaneDriver, t: number, agent: HookAgent, event: string, line = ''): Promise<void> {
  d.monitor.hook(t, { kind: 'hook', agent, event, detail: '' }, line);
  await d.monitor.flush();
}

const moves = (d: PaneDriver) => d.transitions.filter((tr) => tr.from !== tr.to).map((tr) => [tr.from, tr.to, tr.tier, tr.rule]);
const frame = (rows: string[], title = '') => (title ? `\x1b]0;${title}\x07` : '') + '\x1b[H\x1b[2J' + rows.join('\r\n');

// Claude Code 2.1's screens as recorded (claude-hooks-api-error): the spinner while it retries silently, then the
// error it gave up on above the input box.
const R = '─'.repeat(100);
const claudeRows = (prompt: string, status: string, typed = '') => [`❯ ${prompt}`, status, '', R, `❯ ${typed}`, R, '  ⏸ manual mode on · ? for shortcuts'];
const CLAUDE_AT_REST = frame(['', R, '❯ ', R, '  ? for shortcuts']);
const CLAUDE_TYPED = frame(['', R, '❯ refactor utils.ts', R, '  ? for shortcuts']);
const CLAUDE_SPINNER = frame([...claudeRows('refactor utils.ts', '✶ Cooking… ').slice(0, 6), '  ⏸ manual mode on · esc to interrupt']);
const CLAUDE_ERROR = frame(claudeRows('refactor utils.ts', '● API Error: 400 messages.0.content: invalid request'));

describe('Claude Code: an API error on screen while the hooks are silent', () => {
  it('is FAILED as the screen shows it, not when the silence after UserPromptSubmit ends', async () => {
    const d = driver({ agent: 'claude' });
    await d.out(0.1, '\x1b[?1049h' + CLAUDE_AT_REST);
    await d.out(1.0, CLAUDE_TYPED);
    await d.input(1.5, '\r');
    await hook(d, 1.52, 'claude', 'UserPromptSubmit', 'refactor utils.ts');
    await d.out(1.6, CLAUDE_SPINNER);
    await d.out(3.0, CLAUDE_ERROR);
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'FAILED', 2, 'claude.api_error'],
    ]);
    // well inside the silence window of UserPromptSubmit (1.52 + prompt_silence_s)
    expect(d.first('FAILED')!.t, d.describe()).toBeLessThan(3.0 + 0.5);
    expect(d.cfg.thresholds.prompt_silence_s).toBeGreaterThan(3.0 + 0.5 - 1.52);
  });

  it("the last turn's error, still on screen as the next prompt is submitted, is no failure of the new turn", async () => {
    const d = driver({ agent: 'claude' });
    await d.out(0.1, '\x1b[?1049h' + frame(claudeRows('refactor utils.ts', '● API Error: 400 messages.0.content: invalid request', 'try again')));
    await d.input(1.5, '\r');
    await hook(d, 1.52, 'claude', 'UserPromptSubmit', 'try again');
    // the CLI redraws only at 3.0: until then the screen is the one the prompt was submitted on
    await d.out(3.0, frame([...claudeRows('try again', '✶ Cooking… ').slice(0, 6), '  ⏸ manual mode on · esc to interrupt']));
    await d.out(5.0, frame(claudeRows('try again', '● Done, utils.ts is refactored.')));
    await hook(d, 5.05, 'claude', 'Stop');
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'DONE', 1, 'hook.claude.stop'],
    ]);
  });
});

// Gemini CLI 0.61's screens as recorded (gemini-hooks-api-error-400): the error above the spinner of the hooks it
// runs as the turn ends (AfterAgent among them), then without the spinner.
const G = '─'.repeat(100);
const geminiRows = (live: string[]) => [' > refactor utils.ts', ...live, G, ' Shift+Tab to accept edits', ' >   Type your message or @path/to/file', ' workspace (/directory)         sandbox         /model'];
const READY_TITLE = '◇  Ready (project)';
const GEMINI_AT_REST = frame([G, ' Shift+Tab to accept edits', ' >   Type your message or @path/to/file', ' workspace (/directory)         sandbox         /model'], READY_TITLE);
const GEMINI_WORKING = frame(geminiRows([' ⠧ Thinking about it (esc to cancel, 0s)']));
const API_ERROR = '✕ [API Error: {"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}]';
const GEMINI_ERROR_HOOKS = frame(geminiRows([API_ERROR, ' ⠇ Executing Hooks: termsupervisor-BeforeAgent, termsupervisor-AfterAgent (esc to cancel, 0s)']));
const GEMINI_ERROR = frame(geminiRows([API_ERROR, '  Executing Hooks: termsupervisor-BeforeAgent, termsupervisor-AfterAgent']));

describe("Gemini CLI: AfterAgent after a turn that failed", () => {
  it('is FAILED (the error on screen), not DONE, though the spinner of the hooks is still drawn below the error', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiTurn(d);
    await d.out(2.2, GEMINI_ERROR_HOOKS);
    await hook(d, 2.25, 'gemini', 'AfterAgent', '[no response text]');
    await d.out(2.4, GEMINI_ERROR);
    await d.until(15);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.gemini.before_agent'],
      ['RUNNING', 'FAILED', 1, 'hook.gemini.after_agent.failure_on_screen'],
    ]);
    expect(d.first('FAILED')).toMatchObject({ t: 2.25 });
  });

  it('is FAILED when the screen showing the error is read just after AfterAgent arrived (a polled tmux screen)', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiTurn(d);
    await hook(d, 2.25, 'gemini', 'AfterAgent', '[no response text]');
    await d.out(2.6, GEMINI_ERROR);
    await d.until(15);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.gemini.before_agent'],
      ['RUNNING', 'DONE', 1, 'hook.gemini.after_agent'],
      ['DONE', 'FAILED', 1, 'hook.gemini.after_agent.failure_on_screen'],
    ]);
    // as the screen is read (after its settle window)
    expect(d.first('FAILED')!.t, d.describe()).toBeGreaterThanOrEqual(2.6);
    expect(d.first('FAILED')!.t, d.describe()).toBeLessThan(2.6 + 0.5);
  });

  it('an error shown long after the DONE AfterAgent made is not read back into that turn', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiTurn(d);
    await hook(d, 2.25, 'gemini', 'AfterAgent', 'Done');
    await d.out(2.3, frame(geminiRows(['✦ Done: utils.ts is refactored.']), READY_TITLE));
    await d.out(2.25 + d.cfg.thresholds.hook_end_failure_s + 1, GEMINI_ERROR);
    await d.until(15);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.gemini.before_agent'],
      ['RUNNING', 'DONE', 1, 'hook.gemini.after_agent'],
    ]);
  });

  it("the next turn's AfterAgent with the model's answer is DONE, the first turn's error still in view above it", async () => {
    const d = driver({ agent: 'gemini' });
    await geminiTurn(d);
    await d.out(2.2, GEMINI_ERROR_HOOKS);
    await hook(d, 2.25, 'gemini', 'AfterAgent', '[no response text]');
    await d.out(2.4, frame(geminiRows([API_ERROR]), READY_TITLE));
    await d.type(5.0, 'try again');
    await d.input(5.5, '\r');
    await hook(d, 5.55, 'gemini', 'BeforeAgent', 'try again');
    const second = (live: string[], title = '') => frame(geminiRows([API_ERROR, ' > try again', ...live]), title);
    await d.out(5.6, second([' ⠧ Thinking about it (esc to cancel, 0s)']));
    await d.out(7.0, second(['✦ Here is utils.ts, refactored.', ' ⠇ Executing Hooks: termsupervisor-AfterAgent (esc to cancel, 0s)']));
    await hook(d, 7.05, 'gemini', 'AfterAgent', 'Here is utils.ts, refactored.');
    await d.out(7.2, second(['✦ Here is utils.ts, refactored.'], READY_TITLE));
    await d.until(20);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.gemini.before_agent'],
      ['RUNNING', 'FAILED', 1, 'hook.gemini.after_agent.failure_on_screen'],
      ['FAILED', 'RUNNING', 1, 'hook.gemini.before_agent'],
      ['RUNNING', 'DONE', 1, 'hook.gemini.after_agent'],
    ]);
  });

  it('a turn whose screen shows no error still ends DONE by AfterAgent', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiTurn(d);
    await d.out(2.2, frame(geminiRows(['✦ Done: utils.ts is refactored.', ' ⠇ Executing Hooks: termsupervisor-AfterAgent (esc to cancel, 0s)'])));
    await hook(d, 2.25, 'gemini', 'AfterAgent', 'Done');
    await d.out(2.4, frame(geminiRows(['✦ Done: utils.ts is refactored.']), READY_TITLE));
    await d.until(15);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.gemini.before_agent'],
      ['RUNNING', 'DONE', 1, 'hook.gemini.after_agent'],
    ]);
  });
});

// Gemini CLI 0.61's loop-detection dialog and the notice it leaves once answered (gemini-hooks-loop-detected).
const LOOP_DIALOG = frame(
  [
    ' > check the config',
    ' ╭' + '─'.repeat(96) + '╮',
    ' │ ?  A potential loop was detected' + ' '.repeat(62) + '│',
    ' │' + ' '.repeat(96) + '│',
    ' │ This can happen due to repetitive tool calls or other model behavior. Do you want to keep loop  │',
    ' │ ● 1. Keep loop detection enabled (esc)' + ' '.repeat(57) + '│',
    ' │   2. Disable loop detection for this session' + ' '.repeat(51) + '│',
    ' ╰' + '─'.repeat(96) + '╯',
  ],
  '✋  Action Required (project)',
);
const LOOP_NOTICE = frame(
  geminiRows(['ℹ A potential loop was detected. This can happen due to repetitive tool calls or other model behavior. The request', '  has been halted.']).map((l) => l.replace('refactor utils.ts', 'check the config')),
  READY_TITLE,
);

describe('Gemini CLI: the loop-detection dialog, answered', () => {
  it('is WAITING while the dialog asks; the notice left after the answer does not hold WAITING', async () => {
    const d = driver({ agent: 'gemini' });
    await d.out(0.1, GEMINI_AT_REST);
    await d.type(1.0, 'check the config');
    await d.input(1.5, '\r');
    await hook(d, 1.55, 'gemini', 'BeforeAgent', 'check the config');
    await d.out(1.6, GEMINI_WORKING);
    await d.out(3.0, LOOP_DIALOG);
    await d.input(6.0, '\r');
    await d.out(6.05, LOOP_NOTICE);
    await d.until(20);
    const m = moves(d);
    expect(m[0], d.describe()).toEqual(['IDLE', 'RUNNING', 1, 'hook.gemini.before_agent']);
    expect(m[1], d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL', 2, 'gemini.approval_menu']);
    expect(m.length, d.describe()).toBe(3);
    expect(m[2]!.slice(0, 2), d.describe()).toEqual(['WAITING_APPROVAL', 'DONE']);
    expect(d.first('DONE')!.t, d.describe()).toBeLessThan(6.05 + 1);
  });
});

/** Gemini CLI at rest, "refactor utils.ts" typed and submitted, BeforeAgent, its spinner: the turn under way at 1.6. */
async function geminiTurn(d: PaneDriver): Promise<void> {
  await d.out(0.1, GEMINI_AT_REST);
  await d.type(1.0, 'refactor utils.ts');
  await d.input(1.5, '\r');
  await hook(d, 1.55, 'gemini', 'BeforeAgent', 'refactor utils.ts');
  await d.out(1.6, GEMINI_WORKING);
}
