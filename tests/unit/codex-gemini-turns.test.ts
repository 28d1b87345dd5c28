// Codex and Gemini CLI turns where hooks and screens meet (issue 12 items 4, 7, 9), through a real PaneMonitor in
// virtual time: Codex's side-request notify (a task title on its own thread) is not the turn's end; a message the
// person queued makes the turn's end no finish; RUNNING comes back at once when a queued turn starts; a command to
// the CLI itself (/quit) is no turn; the Gemini profile survives the session summary printed after /quit.
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';
import type { HookAgent } from '../../src/hooks/agents.js';
import { loadConfig } from '../../src/config/config.js';
import { classifyText } from '../../src/cli/classify.js';
import { parseCast } from '../../src/attach/asciicast.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/screen.js';

const driver = useDrivers({ cols: 100, rows: 24 });

interface HookOpts {
  detail?: string;
  line?: string;
  session?: string;
  input?: string;
}
async function hook(d: PaneDriver, t: number, agent: HookAgent, event: string, o: HookOpts = {}): Promise<void> {
  d.monitor.hook(t, { kind: 'hook', agent, event, detail: o.detail ?? '', session: o.session ?? '', input: o.input ?? '' }, o.line ?? '');
  await d.monitor.flush();
}

const moves = (d: PaneDriver) => d.transitions.filter((tr) => tr.from !== tr.to).map((tr) => [tr.from, tr.to, tr.rule]);
const frame = (rows: string[], title?: string) => (title === undefined ? '' : `\x1b]0;${title}\x07`) + '\x1b[H\x1b[2J' + rows.join('\r\n');

// ---- Codex 0.169 (its TUI redraws the main screen; OSC 7501 reports its state) ----------------------------------
const CX_FOOT = ['', '  gpt-5.1-codex default · ~/project', '  ← for agents · ? for shortcuts'];
const CX_REST = frame(['', '  >_ OpenAI Codex (v0.169.0)', '', '› Ask Codex to do anything', ...CX_FOOT], 'project');
const cxWorking = (s: number, extra: string[] = []) =>
  frame(['', '› tell me a story', '', `• Working (${s}s • esc to interrupt)`, ...extra, '', '› Ask Codex to do anything', ...CX_FOOT], '⠋ Say hello | project');
const CX_QUEUED = cxWorking(4, ['', '• Queued follow-up inputs', '  ↳ and another one', '    shift+← edit last queued message']);
const CX_DONE = frame(['', '› tell me a story', '', '• Once upon a time.', '', '  Worked for 5s • 16:10', '', '› Ask Codex to do anything', ...CX_FOOT], 'Say hello | project');
const TITLE_PROMPT = 'Generate a concise, single-line task title of at most 36 characters and under five words where possible.';

async function codexSubmitted(d: PaneDriver): Promise<void> {
  await d.out(0.1, CX_REST + '\x1b]7501;state=idle:app=codex\x07');
  await d.input(1.0, '\r');
  await d.out(1.01, cxWorking(0) + '\x1b]7501;state=working:app=codex\x07');
}

describe("Codex notify: only the pane's conversation counts", () => {
  it("the task-title request's notify (its own thread, ~0.3 s in) ends nothing; the turn's own notify does", async () => {
    const d = driver({ agent: 'codex' });
    await codexSubmitted(d);
    await hook(d, 1.3, 'codex', 'agent-turn-complete', { session: 'thread-title', input: TITLE_PROMPT, line: '{"title":"Tell a story"}' });
    await d.out(2.0, cxWorking(1));
    await d.out(4.0, cxWorking(3));
    await d.out(5.0, CX_DONE);
    await hook(d, 5.01, 'codex', 'agent-turn-complete', { session: 'thread-main', input: 'tell me a story', line: 'Once upon a time.' });
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'osc7501.working'],
      ['RUNNING', 'DONE', 'hook.codex.agent_turn_complete'],
    ]);
    expect(d.first('DONE')!.t, d.describe()).toBe(5.01);
    expect(d.counter('suppressed.tier1.done.codex_side_request')).toBe(1);
  });
});

describe('a queued message: the turn it follows does not finish', () => {
  it('Codex: the first turn’s notify while "Queued follow-up inputs" is on screen is held, and dropped when the queued turn works', async () => {
    const d = driver({ agent: 'codex' });
    await codexSubmitted(d);
    await d.out(3.0, CX_QUEUED);
    // The first turn ends; Codex sends the queued message at once (no OSC 7501 done in between).
    await hook(d, 5.0, 'codex', 'agent-turn-complete', { session: 'thread-main', input: 'tell me a story' });
    await d.out(5.02, cxWorking(0));
    await d.out(6.0, cxWorking(1));
    await d.out(7.0, CX_DONE + '\x1b]7501;state=done:app=codex\x07');
    await hook(d, 7.01, 'codex', 'agent-turn-complete', { session: 'thread-main', input: 'and another one' });
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'osc7501.working'],
      ['RUNNING', 'DONE', 'osc7501.done'],
    ]);
    expect(d.first('DONE')!.t).toBe(7.0);
    expect(d.counter('suppressed.tier1.done.queued_follow_up')).toBe(1);
  });

  it('Gemini: AfterAgent with "Queued (press ↑ to edit)" on screen, BeforeAgent 0.1 s later: RUNNING throughout', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiSubmitted(d);
    await hook(d, 1.02, 'gemini', 'BeforeAgent', { line: 'tell me a story' });
    await d.out(2.0, gmWorking(['  Queued (press ↑ to edit):', '    and another one']));
    await hook(d, 4.0, 'gemini', 'AfterAgent');
    await d.out(4.05, gmReady(), );
    await hook(d, 4.1, 'gemini', 'BeforeAgent', { line: 'and another one' });
    await d.out(4.2, gmWorking());
    await d.out(6.0, gmReady());
    await hook(d, 6.01, 'gemini', 'AfterAgent');
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'hook.gemini.before_agent'],
      ['RUNNING', 'DONE', 'hook.gemini.after_agent'],
    ]);
    expect(d.first('DONE')!.t).toBe(6.01);
  });

  it('Gemini: the screen shows the first turn over, the queued turn starts, then the first AfterAgent arrives late: RUNNING throughout', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiSubmitted(d);
    await hook(d, 1.02, 'gemini', 'BeforeAgent');
    await d.out(2.0, gmWorking(['  Queued (press ↑ to edit):', '    and another one']));
    await d.until(8);
    // the title says Ready for a moment while the queued block is still shown; then the queued turn works
    await d.out(8.0, gmReady().replace('✦ Here is a long answer. The end.', '✦ The end.\r\n  Queued (press ↑ to edit):\r\n    and another one'));
    await d.out(8.05, gmWorking());
    await d.out(8.1, gmWorking());
    await hook(d, 8.15, 'gemini', 'AfterAgent'); // the first turn's end, heard late
    await hook(d, 8.25, 'gemini', 'BeforeAgent');
    await d.out(10.0, gmReady());
    await hook(d, 10.01, 'gemini', 'AfterAgent');
    await d.until(14);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'hook.gemini.before_agent'],
      ['RUNNING', 'DONE', 'hook.gemini.after_agent'],
    ]);
    expect(d.first('DONE')!.t).toBe(10.01);
  });

  it('Gemini: the queued message never goes out (no work within queued_follow_up_s): DONE after all, that much later', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiSubmitted(d);
    await hook(d, 1.02, 'gemini', 'BeforeAgent');
    await d.out(2.0, gmWorking(['  Queued (press ↑ to edit):', '    and another one']));
    await hook(d, 4.0, 'gemini', 'AfterAgent');
    await d.out(4.05, gmReady());
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'hook.gemini.before_agent'],
      ['RUNNING', 'DONE', 'hook.gemini.after_agent'],
    ]);
    expect(d.first('DONE')!.t).toBeCloseTo(4.0 + d.cfg.thresholds.queued_follow_up_s, 1);
  });

  it('Gemini without hooks: the title flashing "◇ Ready" between the turns is no DONE', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiSubmitted(d);
    await d.out(1.2, gmWorking());
    await d.out(2.0, gmWorking(['  Queued (press ↑ to edit):', '    and another one']));
    await d.out(3.0, gmWorking(['  Queued (press ↑ to edit):', '    and another one']));
    await d.out(4.0, gmReady());
    await d.out(4.15, gmWorking());
    await d.out(5.0, gmWorking());
    await d.out(6.0, gmReady());
    await d.until(12);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'gemini.working_marker'],
      ['RUNNING', 'DONE', 'gemini.title_ready'],
    ]);
    expect(d.first('DONE')!.t).toBe(6.0);
  });

  it('work back on screen right after a DONE (a queued turn the agent started, no key): RUNNING at once', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiSubmitted(d);
    await d.out(1.2, gmWorking());
    await d.out(3.0, gmReady());
    await d.out(3.3, gmWorking());
    await d.out(3.4, gmWorking());
    await d.until(8);
    expect(moves(d).slice(0, 3), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'gemini.working_marker'],
      ['RUNNING', 'DONE', 'gemini.title_ready'],
      ['DONE', 'RUNNING', 'gemini.working_marker'],
    ]);
    // at the first working screen, not unanchored_screen_confirm_s later
    expect(d.transitions.filter((tr) => tr.to === 'RUNNING')[1]!.t).toBeLessThan(3.3 + d.cfg.thresholds.unanchored_screen_confirm_s / 2);
  });
});

// ---- Gemini CLI 0.61 (input box between ▄ and ▀ rules; the title is its state report) -----------------------------
const TOP = '▄'.repeat(60);
const BOT = '▀'.repeat(60);
const GM_BOX = [TOP, ' >   Type your message or @path/to/file', BOT, ' workspace (/directory)        sandbox', ' ~/project                      no sandbox'];
const gmWorking = (extra: string[] = []) => frame(['', TOP, ' > tell me a story', BOT, '✦ Here is a long answer', ...extra, ' ⠸ Thinking... (esc to cancel, 4s)', ...GM_BOX], '✦  Working… (project)');
const gmReady = () => frame(['', TOP, ' > tell me a story', BOT, '✦ Here is a long answer. The end.', '', ...GM_BOX], '◇  Ready (project)');
const GM_REST = frame(['', 'Tips for getting started:', '', ...GM_BOX], '◇  Ready (project)');

async function geminiSubmitted(d: PaneDriver): Promise<void> {
  await d.out(0.1, GM_REST);
  await d.input(1.0, '\r');
}

describe('Esc at an approval question ends the turn (issue 12 item 4)', () => {
  const menu = frame(['', TOP, ' > write hello.txt', BOT, '╭──────╮', '│ ? Shell  echo hi > hello.txt', '│ Allow execution of [Shell]?', '│ ● 1. Allow once', '│   2. Allow for this session', '│   3. No, suggest changes (esc)', '╰──────╯'], '✋  Action Required (project)');
  const cancelled = frame(['', TOP, ' > write hello.txt', BOT, '│ -  Shell echo hi > hello.txt', 'ℹ Request cancelled.', '', ...GM_BOX], '◇  Ready (project)');

  it('Gemini: Esc 1 s after the Notification hook: DONE as soon as the screen shows the cancel, not when the hook falls silent', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiSubmitted(d);
    await hook(d, 1.02, 'gemini', 'BeforeAgent');
    await d.out(1.5, gmWorking());
    await hook(d, 2.0, 'gemini', 'Notification', { detail: 'ToolPermission', line: 'Tool Confirm Shell Command requires execution' });
    await d.out(2.5, menu);
    await d.input(3.0, '\x1b');
    await d.out(3.1, cancelled);
    await d.until(10);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'hook.gemini.before_agent'],
      ['RUNNING', 'WAITING_APPROVAL', 'hook.gemini.notification.tool_permission'],
      ['WAITING_APPROVAL', 'DONE', 'gemini.cancelled'],
    ]);
    // well before the hook's silence (prompt_silence_s after 2.0) would have let the screen speak
    expect(d.first('DONE')!.t).toBeLessThan(3.5);
  });
});

describe('a command to the CLI itself is no turn', () => {
  it('Gemini: "/quit" typed and its session summary drawn: no RUNNING (then SessionEnd → IDLE)', async () => {
    const d = driver({ agent: 'gemini' });
    await geminiSubmitted(d);
    await hook(d, 1.02, 'gemini', 'BeforeAgent');
    await d.out(1.5, gmWorking());
    await d.out(3.0, gmReady());
    await hook(d, 3.01, 'gemini', 'AfterAgent');
    // long after the last hook: the screen tiers listen again
    let t = await d.type(12.0, '/quit');
    await d.input(t, '\r');
    const summary = frame(['', TOP, ' > /quit', BOT, '╭────────────╮', '│  Agent powering down. Goodbye!', '│  Interaction Summary', '│  Tool Calls: 0', '╰────────────╯'], '◇  Ready (project)');
    await d.out(t + 0.05, summary);
    await d.out(t + 0.1, summary + '\r\n');
    await hook(d, t + 0.3, 'gemini', 'SessionEnd', { detail: 'exit' });
    await d.until(t + 5);
    expect(moves(d), d.describe()).toEqual([
      ['IDLE', 'RUNNING', 'hook.gemini.before_agent'],
      ['RUNNING', 'DONE', 'hook.gemini.after_agent'],
      ['DONE', 'IDLE', 'hook.gemini.session_end'],
    ]);
    t = 0;
  });

  it('Codex: "/status" prints a box (a redraw, not work): no RUNNING; a prompt after it is a turn as usual', async () => {
    const d = driver({ agent: 'codex' });
    await d.out(0.1, CX_REST);
    let t = await d.type(1.0, '/status');
    await d.input(t, '\r');
    await d.out(t + 0.05, frame(['', '› /status', '', '╭────────────────╮', '│ Model: gpt-5.1-codex', '│ Directory: ~/project', '╰────────────────╯', '', '› Ask Codex to do anything', ...CX_FOOT], 'project'));
    await d.until(t + 4);
    expect(moves(d), d.describe()).toEqual([]);
    t = await d.type(t + 4, 'hi');
    await d.input(t, '\r');
    await d.out(t + 0.05, cxWorking(0));
    await d.until(t + 1);
    expect(d.state, d.describe()).toBe('RUNNING');
  });
});

describe('the Gemini profile and the session summary below the last input box (issue 14 item 6)', () => {
  it('classifies it (no live input box: not ready) instead of throwing', async () => {
    const text = [TOP, ' > /quit', BOT, ...Array.from({ length: 8 }, (_, i) => `  summary ${i + 1}`)].join('\n');
    const cls = await classifyText(text, loadConfig(), 'gemini');
    expect(cls.program).toBe('gemini');
    expect(cls.verdict).toBe('unknown');
  });
});

describe('Codex under `run`: its launcher is a node process', () => {
  it('the pane started as codex stays a Codex pane when the foreground process reads "node": no turn at launch', async () => {
    // Codex 0.169's own launch bytes (a recording of the real CLI), up to the moment before the first prompt.
    const cast = parseCast(readFileSync(join(ROOT, 'tests', 'fixtures', 'recordings', 'codex-hooks-title', 'session.cast'), 'utf8'));
    const d = driver({ command: '/home/u/.npm-global/bin/codex', cols: cast.header.width, rows: cast.header.height });
    await d.process(0.05, 'node');
    expect(d.monitor.analyzer.currentProgram).toEqual({ program: 'codex', rule: 'detect.codex.command' });
    for (const e of cast.events) if (e.code === 'o' && e.t < 2.5) await d.out(e.t, e.data);
    await d.until(5);
    expect(moves(d), d.describe()).toEqual([]);
    expect(d.monitor.analyzer.currentProgram).toEqual({ program: 'codex', rule: 'detect.codex.command' });
  });

  it('a shell pane running node (a REPL) is still read as a shell', async () => {
    const d = driver({ command: 'bash' });
    await d.process(0.05, 'node');
    expect(d.monitor.analyzer.currentProgram.program).toBe('shell');
  });
});
