// Agent hooks (Tier 1) meeting the screen tiers, through a real PaneMonitor in virtual time: a hook-driven turn,
// hooks holding the screen back (prompt-silence gate) except for a menu on screen, the screen catching what no hook
// reports (Esc interrupt), and hook and screen reporting one turn end once.
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';
import type { HookAgent } from '../../src/hooks/agents.js';

const driver = useDrivers({ cols: 80, rows: 20 });

/** Deliver a hook event at pane time t, as the daemon does. */
async function hook(d: PaneDriver, t: number, event: string, opts: { agent?: HookAgent; detail?: string; line?: string } = {}): Promise<void> {
  d.monitor.hook(t, { kind: 'hook', agent: opts.agent ?? 'claude', event, detail: opts.detail ?? '' }, opts.line ?? '');
  await d.monitor.flush();
}

// Claude Code's screens (see ../shared/research/markers.md): input box between rules, spinner, menu, done line.
const R = '─'.repeat(60);
const frame = (rows: string[]) => '\x1b[H\x1b[2J' + rows.join('\r\n');
const AT_REST = frame(['', R, '❯ ', R, '  ? for shortcuts']);
const TYPED = frame(['', R, '❯ fix the test', R, '  ? for shortcuts']);
const spinner = (s: number) => frame(['❯ fix the test', '', `✶ Pondering… (${s}s)`, '', R, '❯ ', R, '  esc to interrupt']);
const MENU = frame(['❯ fix the test', '', '● Bash(rm -rf build)', '', ' Bash command', '   rm -rf build', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', ' Esc to cancel · Tab to amend']);
const DONE_SCREEN = frame(['❯ fix the test', '', '● Fixed.', '', '✻ Cooked for 6s · done 12:07 AM', '', R, '❯ ', R, '  ? for shortcuts']);
const INTERRUPTED = frame(['❯ fix the test', '', '  ⎿  Interrupted · What should Claude do instead?', '', R, '❯ ', R, '  ? for shortcuts']);

/** A Claude pane with a prompt typed and submitted at 1.5 s. */
async function submitted(d: PaneDriver): Promise<void> {
  await d.out(0.1, '\x1b[?1049h' + AT_REST);
  await d.out(1.0, TYPED);
  await d.input(1.5, '\r');
}

const moves = (d: PaneDriver) => d.transitions.filter((tr) => tr.from !== tr.to).map((tr) => [tr.from, tr.to, tr.tier, tr.rule]);

describe('a turn told by hooks', () => {
  it('UserPromptSubmit → RUNNING, PermissionRequest → WAITING, the approval on screen → RUNNING, Stop → DONE', async () => {
    const d = driver({ agent: 'claude' });
    await submitted(d);
    await hook(d, 1.52, 'UserPromptSubmit', { line: 'fix the test' });
    await d.out(1.6, spinner(0));
    await hook(d, 2.0, 'PreToolUse', { line: 'Bash: rm -rf build' });
    await d.out(2.1, MENU);
    await hook(d, 2.1, 'PermissionRequest', { line: 'Bash: rm -rf build' });
    await d.input(5.0, '1');
    await d.input(5.05, '\r');
    await d.out(5.1, spinner(4));
    await hook(d, 5.2, 'PreToolUse', { line: 'Edit: src/parser.ts' });
    await d.out(7.0, DONE_SCREEN);
    await hook(d, 7.05, 'Stop');
    await d.until(20);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'WAITING_APPROVAL', 1, 'hook.claude.permission_request'],
      // The person answered (1, Enter) and the screen shows the agent at work again: that wins over the silence
      // of the PermissionRequest hook (issue 12 item 9).
      ['WAITING_APPROVAL', 'RUNNING', 2, 'claude.working_marker'],
      ['RUNNING', 'DONE', 1, 'hook.claude.stop'],
    ]);
    expect(d.first('RUNNING')).toMatchObject({ t: 1.52, line: 'fix the test' });
    expect(d.first('DONE')).toMatchObject({ t: 7.05, line: 'Stop', startedAtKept: true });
    // The screen's own DONE (the explicit marker at 7.0) stood down: hooks had spoken within the silence window.
    expect(d.counter('suppressed.tier2.done.prompt_silence_gate')).toBeGreaterThan(0);
  });

  it("a hook's RUNNING does not hide an approval menu drawn on screen (no PermissionRequest hook)", async () => {
    const d = driver({ agent: 'claude' });
    await submitted(d);
    await hook(d, 1.52, 'UserPromptSubmit');
    await d.out(1.6, spinner(0));
    await hook(d, 2.0, 'PreToolUse');
    await d.out(2.2, MENU);
    await d.until(4);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'WAITING_APPROVAL', 2, 'claude.approval_menu'],
    ]);
    const wait = d.first('WAITING_APPROVAL')!;
    expect(wait.t).toBeGreaterThanOrEqual(2.2 + d.cfg.thresholds.wait_confirm_s - 1e-9);
    // well inside the silence window of the last hook: the menu went through the gate
    expect(wait.t).toBeLessThan(2.0 + d.cfg.thresholds.prompt_silence_s);
  });

  it('a late PreToolUse arriving while the menu is on screen leaves the pane WAITING', async () => {
    const d = driver({ agent: 'claude' });
    await submitted(d);
    await hook(d, 1.52, 'UserPromptSubmit');
    await d.out(2.1, MENU);
    await hook(d, 2.1, 'PermissionRequest');
    await hook(d, 2.3, 'PreToolUse');
    await d.until(5);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'WAITING_APPROVAL']);
    expect(d.counter('suppressed.tier1.run.menu_on_screen')).toBe(1);
  });

  it('Esc interrupt after UserPromptSubmit, no Stop hook: the screen brings the pane to rest once the gate opens', async () => {
    const d = driver({ agent: 'claude' });
    await submitted(d);
    await hook(d, 1.52, 'UserPromptSubmit');
    for (let i = 0; i < 8; i++) await d.out(1.6 + i * 0.2, spinner(i));
    await d.input(3.2, '\x1b');
    await d.out(3.3, INTERRUPTED);
    await d.until(15);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'DONE', 2, 'claude.interrupted'],
    ]);
    const done = d.first('DONE')!;
    const gateOpens = 1.52 + d.cfg.thresholds.prompt_silence_s;
    expect(done.t).toBeGreaterThanOrEqual(gateOpens - 1e-9);
    expect(done.t).toBeLessThanOrEqual(gateOpens + 2 * d.cfg.thresholds.tick_s);
  });
});

describe('hook and screen report one turn end once', () => {
  it('screen first (the gate had opened), then the Stop hook: one DONE', async () => {
    const d = driver({ agent: 'claude' });
    await submitted(d);
    await hook(d, 1.52, 'UserPromptSubmit');
    for (let i = 0; i < 40; i++) await d.out(1.6 + i * 0.2, spinner(i));
    await d.out(9.7, DONE_SCREEN);
    await hook(d, 9.8, 'Stop');
    await d.until(20);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'DONE', 2, 'claude.done_marker'],
    ]);
  });

  it('the Stop hook first, then the done marker on screen: one DONE', async () => {
    const d = driver({ agent: 'claude' });
    await submitted(d);
    await hook(d, 1.52, 'UserPromptSubmit');
    await d.out(1.6, spinner(0));
    await hook(d, 3.0, 'Stop');
    await d.out(3.05, DONE_SCREEN);
    await d.until(20);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'DONE', 1, 'hook.claude.stop'],
    ]);
  });

  it('Codex: OSC 7501 done, then the notify hook for the same turn: one DONE', async () => {
    const d = driver({ cols: 80, rows: 12 });
    await d.out(0.5, '\x1b[?1049h\x1b[H >_ OpenAI Codex (v0.169.0)\r\n\r\n\r\n› Ask Codex to do anything\r\n\r\n  gpt · ~/p');
    await d.input(3.0, '\r');
    await d.out(3.05, '\x1b]7501;state=working:app=codex\x1b\\');
    await d.out(6.0, '\x1b]7501;state=done:app=codex\x1b\\');
    await hook(d, 6.1, 'agent-turn-complete', { agent: 'codex' });
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'osc7501.working'],
      ['RUNNING', 'DONE', 1, 'osc7501.done'],
    ]);
  });
});

describe('other hook events in context', () => {
  it('idle_prompt corrects a turn still thought running to IDLE, and leaves a DONE the person has not seen', async () => {
    const d = driver({ agent: 'claude' });
    await submitted(d);
    await hook(d, 1.52, 'UserPromptSubmit');
    await hook(d, 3.0, 'Notification', { detail: 'idle_prompt', line: 'Claude is waiting for your input' });
    await hook(d, 4.0, 'UserPromptSubmit');
    await hook(d, 5.0, 'Stop');
    await hook(d, 6.0, 'Notification', { detail: 'idle_prompt' });
    await d.until(8);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'IDLE', 1, 'hook.claude.notification.idle_prompt'],
      ['IDLE', 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      ['RUNNING', 'DONE', 1, 'hook.claude.stop'],
    ]);
  });

  it('a Stop after the screen saw the turn fail keeps FAILED; a Stop for a turn joined late is still DONE', async () => {
    const d = driver({ agent: 'claude' });
    await submitted(d);
    await hook(d, 1.52, 'UserPromptSubmit');
    for (let i = 0; i < 27; i++) await d.out(1.6 + i * 0.2, spinner(i));
    await d.out(7.0, frame(['❯ fix the test', '', '● API Error: 500 {"type":"error"}', '', R, '❯ ', R, '  ? for shortcuts']));
    await hook(d, 7.2, 'Stop');
    await d.until(9);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'FAILED']);

    const late = driver({ agent: 'claude' });
    await late.out(0.1, '\x1b[?1049h' + AT_REST);
    await hook(late, 2.0, 'Stop');
    await late.until(3);
    expect(moves(late), late.describe()).toEqual([['IDLE', 'DONE', 1, 'hook.claude.stop']]);
  });

  it('SessionEnd brings any state to IDLE; SessionStart (also sent on compaction, mid-turn) changes nothing', async () => {
    const d = driver({ agent: 'gemini' });
    await hook(d, 1.0, 'BeforeAgent', { agent: 'gemini' });
    await hook(d, 2.0, 'SessionStart', { agent: 'gemini', detail: 'resume' });
    await hook(d, 3.0, 'Notification', { agent: 'gemini', detail: 'ToolPermission', line: 'Tool Edit File requires editing' });
    await hook(d, 4.0, 'SessionEnd', { agent: 'gemini', detail: 'exit' });
    await d.until(6);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 1, 'hook.gemini.before_agent'],
      ['RUNNING', 'WAITING_APPROVAL', 1, 'hook.gemini.notification.tool_permission'],
      ['WAITING_APPROVAL', 'IDLE', 1, 'hook.gemini.session_end'],
    ]);
  });

  it('a hook names the program of a pane detected as a shell (its screen is then read with that profile)', async () => {
    const d = driver({ command: 'bash' });
    await d.out(0.1, '$ ');
    expect(d.monitor.analyzer.currentProgram.program).toBe('shell');
    await hook(d, 1.0, 'SessionStart', { detail: 'startup' });
    expect(d.monitor.analyzer.currentProgram).toEqual({ program: 'claude', rule: 'detect.claude.hook' });
    const forced = driver({ agent: 'generic' });
    await hook(forced, 1.0, 'SessionStart');
    expect(forced.monitor.analyzer.currentProgram.program).toBe('generic');
  });
});
