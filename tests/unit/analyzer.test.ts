// The tiered analyzer and the state machine, driven through a real PaneMonitor in virtual time with synthetic byte
// streams: turn anchors, stability windows, explicit markers, Tier 1 shell integration and OSC 7501, the
// prompt-silence and job gates, stall, LONG_RUNNING, ack, and what each transition records.
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';
import { ReplaySource } from '../../src/attach/replay-source.js';
import { replayCast } from '../../src/daemon/replay.js';
import { loadConfig } from '../../src/config/config.js';
import { castPath } from '../helpers/screen.js';

const driver = useDrivers();

const BP_ON = '\x1b[?2004h';
const BP_OFF = '\x1b[?2004l';
const osc133 = (x: string) => `\x1b]133;${x}\x07`;
const codexState = (s: string) => `\x1b]7501;state=${s}\x1b\\`;
const PS1 = 'user@box:~$ ';

/** A bash-like shell: prompt with bracketed paste on, typed command, Enter, bracketed paste off. */
async function bashCommand(d: PaneDriver, t: number, cmd: string): Promise<number> {
  const end = await d.type(t, cmd);
  await d.input(end + 0.1, '\r');
  await d.out(end + 0.11, `${BP_OFF}\r\n`);
  return end + 0.11;
}

/** A program the analyzer knows nothing about (generic profile): typed command, Enter, newline echo. */
async function plainCommand(d: PaneDriver, t: number, cmd: string): Promise<number> {
  const end = await d.type(t, cmd);
  await d.input(end + 0.1, '\r');
  await d.out(end + 0.11, '\r\n');
  return end + 0.11;
}

describe('turns: Enter, work, prompt', () => {
  it('generic: Enter + output + prompt → RUNNING (Tier 3 anchor) then DONE after the stability window', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, PS1);
    const enter = await plainCommand(d, 1, 'make');
    await d.out(enter + 0.3, 'cc -o app main.c\r\n');
    await d.out(enter + 1.0, 'linking\r\n');
    const prompt = enter + 1.5;
    await d.out(prompt, PS1);
    await d.until(prompt + 5);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    const run = d.first('RUNNING')!;
    expect(run).toMatchObject({ from: 'IDLE', tier: 3, rule: 'turn.anchor_evidence' });
    expect(run.t).toBeLessThan(enter + 0.3);
    const done = d.first('DONE')!;
    expect(done).toMatchObject({ from: 'RUNNING', tier: 3, rule: 'generic.prompt_anchor', line: PS1.trim() });
    expect(done.t).toBeGreaterThanOrEqual(prompt + d.cfg.thresholds.stability_s - 1e-9);
    // The prompt is read once its frame settles (output paused settle_s), then must hold for stability_s.
    expect(done.t).toBeLessThanOrEqual(prompt + d.cfg.thresholds.settle_s + d.cfg.thresholds.stability_s + 0.2);
  });

  it('bash: bracketed paste off at Enter → RUNNING, prompt with bracketed paste back → DONE at once', async () => {
    const d = driver();
    await d.out(0.1, BP_ON + '$ ');
    const enter = await bashCommand(d, 1, 'sleep 3');
    await d.out(enter + 3, `${BP_ON}$ `);
    await d.until(enter + 6);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.first('RUNNING')).toMatchObject({ t: enter, tier: 2, rule: 'shell.command_running' });
    expect(d.first('DONE')).toMatchObject({ t: enter + 3, tier: 2, rule: 'shell.prompt_bracketed_paste' });
  });

  it('typing without Enter is never a turn', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, PS1);
    await d.type(1, 'echo a long command typed slowly but never sent');
    await d.until(20);
    expect(d.states, d.describe()).toEqual([]);
  });

  it('a ready screen that changes inside the stability window retracts the DONE candidate', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, PS1);
    const enter = await plainCommand(d, 1, 'make');
    await d.out(enter + 0.3, 'building a\r\n');
    const firstPrompt = enter + 1;
    await d.out(firstPrompt, PS1);
    // half-way through the window the live edge changes (still ending at a prompt): the candidate restarts
    const change = firstPrompt + d.cfg.thresholds.stability_s / 2;
    await d.out(change, `\r\x1b[Kbuilding b\r\n${PS1}`);
    await d.until(change + 5);
    const done = d.first('DONE');
    expect(done, d.describe()).toBeDefined();
    expect(done!.t).toBeGreaterThanOrEqual(change + d.cfg.thresholds.stability_s - 1e-9);
  });

  it('a ready screen replaced by more output inside the window gives no DONE until the output stops', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, PS1);
    const enter = await plainCommand(d, 1, 'make');
    await d.out(enter + 0.3, 'building a\r\n');
    await d.out(enter + 1, PS1);
    await d.out(enter + 1.5, '\r\x1b[Kbuilding b\r\n');
    await d.out(enter + 2.5, '\x1b[Kbuilding c\r\n');
    const prompt = enter + 3;
    await d.out(prompt, PS1);
    await d.until(prompt + 5);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.first('DONE')!.t).toBeGreaterThanOrEqual(prompt + d.cfg.thresholds.stability_s - 1e-9);
  });

  it('an explicit marker (Claude "✻ Cooked for 2s · done") gives DONE without waiting out a window', async () => {
    const R = '─'.repeat(60);
    const frame = (rows: string[]) => '\x1b[H\x1b[2J' + rows.join('\r\n');
    const d = driver({ agent: 'claude', cols: 80, rows: 20 });
    await d.out(0.1, '\x1b[?1049h' + frame(['', R, '❯ ', R, '  ? for shortcuts']));
    await d.out(1.0, frame(['', R, '❯ hi', R, '  ? for shortcuts']));
    await d.input(1.5, '\r');
    for (let i = 0; i < 10; i++) await d.out(1.6 + i * 0.2, frame(['❯ hi', '', `✶ Pondering… (${i}s)`, '', R, '❯ ', R, '  esc to interrupt']));
    const doneAt = 3.62;
    await d.out(doneAt, frame(['❯ hi', '', '● Hello!', '', '✻ Cooked for 2s · done 12:07 AM', '', R, '❯ ', R, '  ? for shortcuts']));
    await d.until(8);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.first('RUNNING')).toMatchObject({ t: 1.6, tier: 2, rule: 'claude.working_marker' });
    const done = d.first('DONE')!;
    expect(done).toMatchObject({ tier: 2, rule: 'claude.done_marker', line: '✻ Cooked for 2s · done 12:07 AM' });
    expect(done.t - doneAt).toBeLessThan(d.cfg.thresholds.stability_s / 2);
  });
});

describe('Tier 1: OSC 133 shell integration', () => {
  async function prompt(d: PaneDriver, t: number): Promise<void> {
    await d.out(t, `${osc133('A')}$ ${osc133('B')}`);
  }
  async function run(d: PaneDriver, t: number, cmd: string, finish: string, after = 1): Promise<{ enter: number; end: number }> {
    const end0 = await d.type(t, cmd);
    await d.input(end0 + 0.1, '\r');
    const enter = end0 + 0.11;
    await d.out(enter, `\r\n${osc133('C')}`);
    const end = enter + after;
    await d.out(end, osc133(finish));
    await prompt(d, end);
    return { enter, end };
  }

  it('C → RUNNING, D;0 → DONE, D;2 → FAILED, D without code → DONE, all Tier 1', async () => {
    const d = driver();
    await prompt(d, 0.1);
    const a = await run(d, 1, 'true', 'D;0');
    const b = await run(d, 10, 'false', 'D;2');
    const c = await run(d, 20, 'x', 'D');
    await d.until(30);
    expect(d.transitions.map((tr) => [tr.t, tr.to, tr.tier, tr.rule]), d.describe()).toEqual([
      [a.enter, 'RUNNING', 1, 'osc133.command_executed'],
      [a.end, 'DONE', 1, 'osc133.command_finished'],
      [b.enter, 'RUNNING', 1, 'osc133.command_executed'],
      [b.end, 'FAILED', 1, 'osc133.command_failed'],
      [c.enter, 'RUNNING', 1, 'osc133.command_executed'],
      [c.end, 'DONE', 1, 'osc133.command_finished'],
    ]);
    expect(d.transitions[3]!.line).toMatch(/exit 2/);
  });

  it('D with nothing run (Enter on an empty bash prompt) moves nothing, also once the silence gate reopens', async () => {
    // bash with OSC 133 (as in shell-bash-osc133): bracketed paste on at the prompt, off when Enter is accepted,
    // and PROMPT_COMMAND's D without an exit code because nothing ran.
    const d = driver();
    await d.out(0.1, `${osc133('A')}$ ${osc133('B')}${BP_ON}`);
    await d.input(1, '\r');
    await d.out(1.01, `${BP_OFF}\r\n${osc133('D')}${osc133('A')}$ ${osc133('B')}${BP_ON}`);
    await d.until(1.01 + d.cfg.thresholds.prompt_silence_s + 5);
    expect(d.states, d.describe()).toEqual([]);
  });

  it('prompt-silence gate: a screen end within 5 s of a Tier 1 signal is suppressed and counted', async () => {
    const d = driver();
    const gate = d.cfg.thresholds.prompt_silence_s;
    expect(gate).toBe(5);
    await prompt(d, 0.1);
    const end = await d.type(1, './build');
    await d.input(end + 0.1, '\r');
    const c = end + 0.11;
    await d.out(c, `\r\n${osc133('C')}`);
    // a completion word at the cursor, which would be DONE after the quiet window if Tier 1 had not spoken
    await d.out(c + 0.5, 'compiling\r\nBuild complete');
    await d.until(c + 12);
    expect(d.counter('suppressed.tier3.done.prompt_silence_gate'), d.describe()).toBeGreaterThan(0);
    const done = d.first('DONE');
    expect(done, d.describe()).toMatchObject({ tier: 3, rule: 'generic.completion_token.complete' });
    expect(done!.t).toBeGreaterThanOrEqual(c + gate - 1e-9);
  });

  it('a question while a command Tier 1 started runs is WAITING at once: the silence gate hides ends, not questions', async () => {
    const d = driver();
    await prompt(d, 0.1);
    const end = await d.type(1, './setup');
    await d.input(end + 0.1, '\r');
    const c = end + 0.11;
    await d.out(c, `\r\n${osc133('C')}`);
    await d.out(c + 0.5, 'installing\r\nEnter your name: ');
    await d.until(c + 12);
    const wait = d.first('WAITING_APPROVAL');
    expect(wait, d.describe()).toMatchObject({ tier: 2, rule: 'shell.question_at_cursor', line: 'Enter your name:' });
    // The quiet window a bare question waits out, and no more: long before the gate (5 s) would have let it through.
    expect(wait!.t).toBeLessThan(c + 0.5 + d.cfg.thresholds.quiet_wait_s + 0.5);
    expect(d.counter('suppressed.tier2.wait.prompt_silence_gate')).toBe(0);
  });

  it('an explicit menu is a fact the prompt-silence gate does not hide', async () => {
    const d = driver();
    await prompt(d, 0.1);
    const end = await d.type(1, 'apt install x');
    await d.input(end + 0.1, '\r');
    const c = end + 0.11;
    await d.out(c, `\r\n${osc133('C')}`);
    const menu = c + 0.5;
    await d.out(menu, 'Do you want to continue? [Y/n] ');
    await d.until(c + 3);
    const wait = d.first('WAITING_APPROVAL');
    expect(wait, d.describe()).toMatchObject({ tier: 2, rule: 'shell.yes_no_prompt' });
    expect(wait!.t).toBeLessThan(c + d.cfg.thresholds.prompt_silence_s);
  });
});

describe('job gate (generic profile, Tier 3): exact process names', () => {
  async function scenario(name: string): Promise<PaneDriver> {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, PS1);
    await d.process(0.5, name);
    const enter = await plainCommand(d, 1, 'go');
    await d.out(enter + 0.3, 'working a\r\nworking b\r\n');
    await d.until(enter + 5);
    return d;
  }

  it.each(['sleep', 'nodemon', 'pythonw'])('%s (not whitelisted) holds Tier 3 back', async (name) => {
    const d = await scenario(name);
    expect(d.states, d.describe()).toEqual([]);
    expect(d.counter('suppressed.tier3.run.job_gate')).toBeGreaterThan(0);
  });

  it.each(['python', 'python3', 'node', 'bash'])('%s (whitelisted or a shell) lets Tier 3 speak', async (name) => {
    const d = await scenario(name);
    expect(d.states, d.describe()).toEqual(['RUNNING']);
    expect(d.counter('suppressed.tier3.run.job_gate')).toBe(0);
  });

  it('a shell running `sleep` stays read as a shell (its prompt still ends the turn)', async () => {
    const d = driver();
    await d.out(0.1, BP_ON + '$ ');
    await d.process(0.2, 'bash');
    const enter = await bashCommand(d, 1, 'sleep 5');
    await d.process(enter + 0.01, 'sleep');
    await d.process(enter + 5, 'bash');
    await d.out(enter + 5, `${BP_ON}$ `);
    await d.until(enter + 8);
    expect(d.monitor.analyzer.currentProgram.program).toBe('shell');
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.first('DONE')!.t).toBeCloseTo(enter + 5, 6);
  });
});

describe('Tier 1: Codex OSC 7501', () => {
  const SCREEN = '\x1b[?1049h\x1b[H >_ OpenAI Codex (v0.169.0)\r\n\r\n\r\n› Ask Codex to do anything\r\n\r\n  gpt · ~/p';
  const opts = { cols: 80, rows: 12 };

  it('working→idle blip with nothing typed causes no RUNNING', async () => {
    const d = driver(opts);
    await d.out(0.5, SCREEN);
    await d.out(2.0, codexState('working:app=codex'));
    await d.out(2.0 + d.cfg.thresholds.unanchored_working_confirm_s * 0.6, codexState('idle:app=codex'));
    await d.until(12);
    expect(d.states, d.describe()).toEqual([]);
    expect(d.monitor.analyzer.currentProgram.program).toBe('codex');
  });

  it('working with nothing typed must persist 0.5 s before RUNNING', async () => {
    const d = driver(opts);
    await d.out(0.5, SCREEN);
    await d.out(2.0, codexState('working:app=codex'));
    await d.until(4);
    const run = d.first('RUNNING');
    expect(run, d.describe()).toMatchObject({ tier: 1, rule: 'osc7501.working_confirmed' });
    expect(d.cfg.thresholds.unanchored_working_confirm_s).toBe(0.5);
    expect(run!.t).toBeGreaterThanOrEqual(2.5 - 1e-9);
    expect(run!.t).toBeLessThan(2.5 + 0.2);
  });

  it('after Enter: working → RUNNING at once, blocked → WAITING, working → RUNNING, done → DONE, error → FAILED', async () => {
    const d = driver(opts);
    await d.out(0.5, SCREEN);
    await d.input(3.0, '\r');
    await d.out(3.05, codexState('working:app=codex'));
    await d.out(4.0, codexState('blocked:app=codex:kind=permission'));
    await d.input(6.0, '\r');
    await d.out(6.05, codexState('working:app=codex'));
    await d.out(7.0, codexState('done:app=codex'));
    await d.out(9.0, codexState('error:app=codex'));
    await d.until(12);
    expect(d.transitions.map((tr) => [tr.t, tr.from, tr.to, tr.tier, tr.rule]), d.describe()).toEqual([
      [3.05, 'IDLE', 'RUNNING', 1, 'osc7501.working'],
      [4.0, 'RUNNING', 'WAITING_APPROVAL', 1, 'osc7501.blocked.permission'],
      [6.05, 'WAITING_APPROVAL', 'RUNNING', 1, 'osc7501.working'],
      [7.0, 'RUNNING', 'DONE', 1, 'osc7501.done'],
      [9.0, 'DONE', 'FAILED', 1, 'osc7501.error'],
    ]);
  });

  it('idle while running (interrupt or denial) ends the turn', async () => {
    const d = driver(opts);
    await d.out(0.5, SCREEN);
    await d.input(3.0, '\r');
    await d.out(3.05, codexState('working:app=codex'));
    await d.input(5.0, '\x1b');
    await d.out(5.1, codexState('idle:app=codex'));
    await d.until(8);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.first('DONE')).toMatchObject({ t: 5.1, tier: 1, rule: 'osc7501.idle' });
  });
});

describe('stall and LONG_RUNNING', () => {
  it('stall after stall_after_s without a meaningful change while running; recovers on activity', async () => {
    const d = driver({ overrides: { thresholds: { stall_after_s: 10 } } });
    await d.out(0.1, BP_ON + '$ ');
    const enter = await bashCommand(d, 1, 'job');
    const lastOut = enter + 1;
    await d.out(lastOut, 'starting\r\nelapsed 0s');
    // a ticking timer is no progress: it must not hold the stall off
    for (let s = 1; s <= 5; s++) await d.out(lastOut + s, `\r\x1b[Kelapsed ${s}s`);
    await d.until(lastOut + 15);
    const stall = d.transitions.find((tr) => tr.stalled);
    expect(stall, d.describe()).toMatchObject({ from: 'RUNNING', to: 'RUNNING', stalled: true, rule: 'stall.no_progress' });
    expect(stall!.t).toBeGreaterThanOrEqual(lastOut + 10 - 1e-9);
    expect(stall!.t).toBeLessThanOrEqual(lastOut + 10 + 0.2);
    expect(d.monitor.state.stalled).toBe(true);
    const resume = lastOut + 15;
    await d.out(resume, '\r\nstep 2 of 3\r\n');
    await d.until(resume + 1);
    const recovered = d.transitions.find((tr) => tr.rule === 'stall.recovered');
    expect(recovered, d.describe()).toMatchObject({ from: 'RUNNING', to: 'RUNNING', stalled: false });
    // seen when that output's frame is read: at most settle_s (plus one coalescing window) after it
    expect(recovered!.t).toBeGreaterThanOrEqual(resume);
    expect(recovered!.t).toBeLessThanOrEqual(resume + d.cfg.thresholds.settle_s + d.cfg.thresholds.coalesce_s + 1e-9);
    expect(d.monitor.state.stalled).toBe(false);
    expect(d.state).toBe('RUNNING');
  });

  it('LONG_RUNNING after 60 s, started_at kept', async () => {
    const d = driver();
    expect(d.cfg.thresholds.long_running_s).toBe(60);
    await d.out(0.1, BP_ON + '$ ');
    const enter = await bashCommand(d, 1, 'sleep 100');
    await d.until(enter + 59);
    expect(d.state).toBe('RUNNING');
    await d.until(enter + 61);
    const long = d.first('LONG_RUNNING');
    expect(long, d.describe()).toMatchObject({ from: 'RUNNING', tier: 0, rule: 'timer.long_running', startedAt: enter, startedAtKept: true });
    expect(long!.t).toBeCloseTo(enter + 60, 6);
    await d.out(enter + 100, `${BP_ON}$ `);
    await d.until(enter + 101);
    expect(d.first('DONE'), d.describe()).toMatchObject({ from: 'LONG_RUNNING', startedAt: enter, startedAtKept: true });
  });

  it('held (its host unreachable), no timer moves the pane: LONG_RUNNING only a full window after it is back', async () => {
    const d = driver();
    await d.out(0.1, BP_ON + '$ ');
    const enter = await bashCommand(d, 1, 'sleep 300');
    await d.until(enter + 10);
    d.monitor.hold(true);
    await d.until(enter + 100);
    expect(d.state, d.describe()).toBe('RUNNING');
    d.monitor.hold(false);
    await d.until(enter + 100 + 59);
    expect(d.state, d.describe()).toBe('RUNNING');
    await d.until(enter + 100 + 61);
    expect(d.first('LONG_RUNNING'), d.describe()).toMatchObject({ rule: 'timer.long_running', startedAt: enter });
    expect(d.first('LONG_RUNNING')!.t).toBeCloseTo(enter + 100 + 60, 6);
  });

  it('a stalled pane stays stalled when the LONG_RUNNING timer fires', async () => {
    const d = driver({ overrides: { thresholds: { stall_after_s: 10, long_running_s: 30 } } });
    await d.out(0.1, BP_ON + '$ ');
    const enter = await bashCommand(d, 1, 'job');
    await d.out(enter + 1, 'starting\r\n');
    await d.until(enter + 20);
    expect(d.monitor.state.stalled, d.describe()).toBe(true);
    await d.until(enter + 35);
    expect(d.state).toBe('LONG_RUNNING');
    // nothing has been printed since the stall: LONG_RUNNING is a timer, not a sign of progress
    expect(d.monitor.state.stalled, d.describe()).toBe(true);
  });
});

describe('generic completion tokens at the cursor (Tier 3)', () => {
  async function finishWith(row: string): Promise<PaneDriver> {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, PS1);
    const enter = await plainCommand(d, 1, 'build');
    await d.out(enter + 0.3, 'compiling\r\n');
    await d.out(enter + 1, row);
    await d.until(enter + 12);
    return d;
  }

  it('"Build complete" → DONE after the quiet window', async () => {
    const d = await finishWith('Build complete');
    expect(d.first('DONE'), d.describe()).toMatchObject({ tier: 3, rule: 'generic.completion_token.complete' });
  });

  it.each(['Build INCOMPLETE', 'Already up to date', 'Task not complete', 'Job not finished'])('%s is no completion', async (row) => {
    const d = await finishWith(row);
    expect(d.transitions.filter((tr) => tr.rule.startsWith('generic.completion_token')), d.describe()).toEqual([]);
  });
});

describe('ack and what transitions record', () => {
  async function waitingShell(): Promise<{ d: PaneDriver; enter: number }> {
    const d = driver();
    await d.out(0.1, BP_ON + '$ ');
    const enter = await bashCommand(d, 1, './install');
    await d.out(enter + 0.5, 'unpacking\r\nProceed? [y/N] ');
    await d.until(enter + 2);
    return { d, enter };
  }

  it('RUNNING→WAITING→RUNNING→DONE keeps started_at; a new turn resets it', async () => {
    const { d, enter } = await waitingShell();
    await d.input(enter + 3, 'y');
    await d.out(enter + 3.01, 'y');
    await d.input(enter + 3.5, '\r');
    await d.out(enter + 3.51, '\r\n');
    await d.out(enter + 4, 'installing\r\n');
    await d.out(enter + 5, `installed\r\n${BP_ON}$ `);
    const second = await bashCommand(d, enter + 8, 'ls');
    await d.out(second + 0.1, `a b\r\n${BP_ON}$ `);
    await d.until(second + 3);
    const rows = d.transitions.map((tr) => ({ from: tr.from, to: tr.to, tier: tr.tier, rule: tr.rule, line: tr.line, startedAt: tr.startedAt, kept: tr.startedAtKept }));
    expect(rows, d.describe()).toEqual([
      { from: 'IDLE', to: 'RUNNING', tier: 2, rule: 'shell.command_running', line: '', startedAt: enter, kept: false },
      { from: 'RUNNING', to: 'WAITING_APPROVAL', tier: 2, rule: 'shell.yes_no_prompt', line: 'Proceed? [y/N]', startedAt: enter, kept: true },
      { from: 'WAITING_APPROVAL', to: 'RUNNING', tier: 2, rule: 'shell.command_running', line: '', startedAt: enter, kept: true },
      { from: 'RUNNING', to: 'DONE', tier: 2, rule: 'shell.prompt_bracketed_paste', line: '$', startedAt: enter, kept: true },
      { from: 'DONE', to: 'RUNNING', tier: 2, rule: 'shell.command_running', line: '', startedAt: second, kept: false },
      { from: 'RUNNING', to: 'DONE', tier: 2, rule: 'shell.prompt_bracketed_paste', line: '$', startedAt: second, kept: true },
    ]);
    for (const tr of d.transitions) expect(tr.stalled).toBe(false);
  });

  it('ack: WAITING → IDLE', async () => {
    const { d } = await waitingShell();
    expect(d.state).toBe('WAITING_APPROVAL');
    d.monitor.ack('dashboard');
    expect(d.state).toBe('IDLE');
    expect(d.transitions.at(-1)).toMatchObject({ from: 'WAITING_APPROVAL', to: 'IDLE', tier: 0, rule: 'ack.dashboard', startedAtKept: false });
  });

  it('ack: DONE → IDLE and FAILED → IDLE; ack while RUNNING changes nothing', async () => {
    const d = driver();
    await d.out(0.1, BP_ON + '$ ');
    let enter = await bashCommand(d, 1, 'true');
    await d.until(enter + 1);
    expect(d.state).toBe('RUNNING');
    d.monitor.ack();
    expect(d.state).toBe('RUNNING');
    await d.out(enter + 1, `${BP_ON}$ `);
    await d.until(enter + 2);
    expect(d.state).toBe('DONE');
    d.monitor.ack();
    expect(d.transitions.at(-1)).toMatchObject({ from: 'DONE', to: 'IDLE', rule: 'ack.user' });
    enter = await bashCommand(d, enter + 3, 'ls /nope');
    await d.out(enter + 0.1, `ls: cannot access '/nope': No such file or directory\r\n${BP_ON}$ `);
    await d.until(enter + 2);
    expect(d.state, d.describe()).toBe('FAILED');
    expect(d.first('FAILED')).toMatchObject({ tier: 2, rule: 'shell.failure_line', line: "ls: cannot access '/nope': No such file or directory" });
    d.monitor.ack();
    expect(d.state).toBe('IDLE');
    // after an ack the pane is at rest: the same prompt sitting there is no new DONE
    await d.until(enter + 10);
    expect(d.state).toBe('IDLE');
  });

  it('a real approval (claude-approval replayed) keeps started_at from RUNNING through WAITING to DONE', async () => {
    const res = await replayCast(await ReplaySource.fromFile(castPath('claude-approval')), loadConfig(), 'auto');
    const moves = res.transitions.filter((tr) => tr.from !== tr.to);
    expect(moves.map((tr) => tr.to)).toEqual(['RUNNING', 'WAITING_APPROVAL', 'RUNNING', 'DONE']);
    const start = moves[0]!.startedAt;
    expect(moves.map((tr) => tr.startedAt)).toEqual([start, start, start, start]);
    expect(moves.map((tr) => tr.startedAtKept)).toEqual([false, true, true, true]);
    expect(moves[1]).toMatchObject({ tier: 2, rule: 'claude.approval_menu' });
    expect(moves[3]).toMatchObject({ tier: 2, rule: 'claude.done_marker' });
    for (const tr of moves) expect(tr.line.length).toBeGreaterThan(0);
  });
});

describe('REPL continuation (shell-python-repl replayed)', () => {
  it('the "... " continuation prompt is at rest but no DONE: the statement has not run', async () => {
    // markers.md: "`... ` continuation (not done: the statement has not run)"; truth.json marks 31.18–34.40 IDLE.
    const res = await replayCast(await ReplaySource.fromFile(castPath('shell-python-repl')), loadConfig(), 'auto');
    const at = (t: number) => res.transitions.filter((tr) => tr.t <= t && tr.from !== tr.to).at(-1);
    const shown = res.transitions.map((tr) => `${tr.t.toFixed(3)} ${tr.to} ${tr.rule} ${tr.line}`).join('\n');
    expect(at(33)?.to, shown).toBe('IDLE');
    expect(at(35.5)?.to, shown).toBe('IDLE');
    // and the statement that finally runs ends in DONE at the >>> prompt
    expect(at(40)?.to, shown).toBe('DONE');
  });
});

describe('a pane at rest costs little', () => {
  it('the idle re-emit wants fine ticks once per window, not on every tick after the first', async () => {
    const d = driver();
    await d.out(0, PS1);
    await d.until(45);
    const reemit = 'fired.tier3.idle.generic.idle_reemit';
    expect(d.monitor.analyzer.counters.get(reemit)).toBe(1);
    expect(d.monitor.analyzer.wantsTicks(45)).toBe(false);
    let ticks = 0;
    const tick = d.monitor.analyzer.tick.bind(d.monitor.analyzer);
    d.monitor.analyzer.tick = (t: number) => (ticks++, tick(t));
    await d.until(55);
    expect(ticks).toBeLessThanOrEqual(11); // the rest beat (1 s), not the fine tick (0.1 s)
    await d.until(95);
    expect(d.monitor.analyzer.counters.get(reemit)).toBe(3);
  });
});
