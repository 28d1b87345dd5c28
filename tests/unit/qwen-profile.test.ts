// Qwen Code 0.24 (a Gemini CLI fork): its profile on real screens (our qwen-* recordings replayed into a headless
// terminal up to a moment), the live edge below the last prompt echo, and its detection as itself, never as Gemini
// CLI, whose input row it shares word for word.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { classifyWith, detectProgram } from '../../src/analysis/profiles/index.js';
import { ProgramTracker } from '../../src/analysis/program-tracker.js';
import { classifyText } from '../../src/cli/classify.js';
import { ctx, screenAt, type ScreenCase } from '../helpers/screen.js';

const cfg = loadConfig();

interface Case extends ScreenCase {
  /** The window title replaced (a named session, a terminal that drops titles). */
  title?: string;
}

const CASES: Record<string, Case> = {
  'at rest after start-up (title)': { rec: 'qwen-idle-start', t: 8, verdict: 'ready', rule: 'qwen.title_ready', explicit: true, shows: /Type your message/ },
  'at rest, no title: the live input box': { rec: 'qwen-idle-start', t: 8, verdict: 'ready', rule: 'qwen.input_box', explicit: false, title: '' },
  'working: the status row (Ns · esc to cancel)': { rec: 'qwen-quick-answer', t: 10, verdict: 'working', rule: 'qwen.working_marker', line: /\(\d+s · (?:.* · )?esc to cancel\)$/ },
  'working: thinking': { rec: 'qwen-long-thinking', t: 15, verdict: 'working', rule: 'qwen.working_marker', shows: /Thinking/ },
  'HTTP 500 being retried is work (1m Ns)': { rec: 'qwen-api-500', t: 70, verdict: 'working', rule: 'qwen.working_marker', line: /\(1m \d+s · esc to cancel\)/ },
  'HTTP 429 being retried is work': { rec: 'qwen-api-429', t: 40, verdict: 'working', rule: 'qwen.working_marker' },
  'HTTP 500 given up: FAILED': { rec: 'qwen-api-500', t: 104.5, verdict: 'failed', rule: 'qwen.api_error', explicit: true, line: /^✕ \[API Error: 500/ },
  'HTTP 429 given up (wrapped hint): FAILED': { rec: 'qwen-api-429', t: 90, verdict: 'failed', rule: 'qwen.api_error', explicit: true, line: /API Error: 429/ },
  'approval menu': { rec: 'qwen-approval', t: 11, verdict: 'waiting', rule: 'qwen.approval_menu', explicit: true, shows: /Allow execution of: 'echo'\?/ },
  'approval menu at 80x24': { rec: 'qwen-approval-80x24', t: 7, verdict: 'waiting', rule: 'qwen.approval_menu', explicit: true, shows: /› 1\. Yes, allow once/ },
  'approval menu, no title': { rec: 'qwen-approval', t: 11, verdict: 'waiting', rule: 'qwen.approval_menu', title: '' },
  'after the approval: working again': { rec: 'qwen-approval', t: 14, verdict: 'working', rule: 'qwen.working_marker', shows: /✓ Shell echo hi/ },
  'denied with Esc: at rest': { rec: 'qwen-approval-deny', t: 17, verdict: 'ready', rule: 'qwen.title_ready', explicit: true },
  'Esc while it answers: cancelled': { rec: 'qwen-interrupt', t: 10.5, verdict: 'ready', rule: 'qwen.cancelled', explicit: true, line: /Request cancelled\./ },
  'done after an answer': { rec: 'qwen-quick-answer', t: 13, verdict: 'ready', rule: 'qwen.title_ready', explicit: true, shows: /◆︎ The capital of France is Paris\./ },
  'done, no title: the input box (the answer above it)': { rec: 'qwen-multi-turn', t: 21, verdict: 'ready', rule: 'qwen.input_box', title: '' },
};

describe('qwen profile (real screens)', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name} (${c.rec} @ ${c.t}s) → ${c.verdict} ${c.rule}`, async () => {
      const { snap } = await screenAt(c.rec, c.t);
      if (c.title !== undefined) snap.title = c.title;
      const cls = classifyWith('qwen', snap, ctx(cfg));
      const text = [...snap.lines, `title: ${snap.title}`].join('\n');
      const why = `${c.rec} @ ${c.t}s classified ${cls.verdict} ${cls.rule} "${cls.line}"\n${text}`;
      if (c.shows) expect(text, `the screen should show ${c.shows}`).toMatch(c.shows);
      expect({ verdict: cls.verdict, rule: cls.rule }, why).toEqual({ verdict: c.verdict, rule: c.rule });
      if (c.explicit !== undefined) expect(cls.explicit, why).toBe(c.explicit);
      if (c.line) expect(cls.line, why).toMatch(c.line);
    });
  }

  it('the title alone tells working (◐︎) and waiting (✳︎) where the rows say nothing', async () => {
    const { snap } = await screenAt('qwen-idle-start', 8);
    expect(classifyWith('qwen', { ...snap, title: '◐︎ Qwen - project' }, ctx(cfg)).rule).toBe('qwen.title_working');
    expect(classifyWith('qwen', { ...snap, title: '✳︎ Qwen - project' }, ctx(cfg)).rule).toBe('qwen.title_action_required');
  });

  it("Gemini CLI's profile reads a retrying Qwen as finished work (why Qwen has its own)", async () => {
    const { snap } = await screenAt('qwen-api-500', 70);
    expect(classifyWith('gemini', snap, ctx(cfg)).verdict).toBe('ready');
    expect(classifyWith('qwen', snap, ctx(cfg)).verdict).toBe('working');
  });
});

describe('qwen live edge: below the last prompt echo', () => {
  const RULE = '─'.repeat(80);
  const BOX = [RULE, '>   Type your message or @path/to/file', RULE, '  ➜ project · qwen3-coder-plus', '  ⏸ Ask permissions (shift + tab to cycle)'];

  it('an old API error above the last prompt is not this turn’s', async () => {
    const rows = ['  > first', '  ✕ [API Error: 500 The server had an error.] (Press Ctrl+Y to retry)', '  > second', '  ◆︎ Done, all tests pass.', ...BOX];
    const cls = await classifyText(rows.join('\n'), cfg, 'qwen');
    expect([cls.verdict, cls.rule]).toEqual(['ready', 'qwen.input_box']);
    expect(cls.liveEdge.join('\n')).not.toContain('API Error');
  });

  it('an old cancellation above; the current turn failed', async () => {
    const rows = ['  > first', '  ●︎ Request cancelled.', '  > second', '  ✕ [API Error: 400 bad request]', ...BOX];
    const cls = await classifyText(rows.join('\n'), cfg, 'qwen');
    expect([cls.verdict, cls.rule]).toEqual(['failed', 'qwen.api_error']);
  });

  it('an old approval menu above the last prompt is not waiting', async () => {
    const rows = ['  > first', "   Allow execution of: 'rm'?", '   › 1. Yes, allow once', '     2. No, suggest changes (esc)', '  - Shell rm -rf build', '  > second', '  ◆︎ ok', ...BOX];
    const cls = await classifyText(rows.join('\n'), cfg, 'qwen');
    expect(cls.verdict).toBe('ready');
  });
});

describe('qwen detection: itself, never Gemini CLI', () => {
  it('the start-up screen names Qwen Code; Gemini CLI’s still names Gemini CLI', async () => {
    const qwen = await screenAt('qwen-idle-start', 8);
    expect(detectProgram(cfg, { lines: qwen.snap.lines })).toEqual({ program: 'qwen', rule: 'detect.qwen.screen' });
    expect(detectProgram(cfg, { title: qwen.snap.title, lines: qwen.snap.lines })).toEqual({ program: 'qwen', rule: 'detect.qwen.title' });
    const gemini = await screenAt('gemini-idle-startup', 6);
    expect(detectProgram(cfg, { title: gemini.snap.title, lines: gemini.snap.lines })?.program).toBe('gemini');
    expect(detectProgram(cfg, { lines: gemini.snap.lines })?.program).toBe('gemini');
  });

  it('at 80 columns (no logo) the banner box still names it', async () => {
    const { snap } = await screenAt('qwen-approval-80x24', 3);
    expect(detectProgram(cfg, { lines: snap.lines })?.program).toBe('qwen');
  });

  it('titles, command lines and process names', () => {
    for (const title of ['Qwen - project', '◐︎ Qwen - project', '✳︎ Qwen - my-app']) expect(detectProgram(cfg, { title })?.program, title).toBe('qwen');
    for (const command of ['qwen', '/usr/local/bin/qwen --yolo', 'npx @qwen-code/qwen-code', 'node /work/tools/qwen/node_modules/@qwen-code/qwen-code/cli-entry.js']) {
      expect(detectProgram(cfg, { command })?.program, command).toBe('qwen');
    }
    expect(detectProgram(cfg, { command: 'qwenify build' })?.program).not.toBe('qwen');
    // its process is node, an interpreter by name: the command line tells
    expect(detectProgram(cfg, { process: 'node' })?.program).toBe('shell');
    expect(detectProgram(cfg, { process: 'node', command: 'qwen' })).toEqual({ program: 'qwen', rule: 'detect.qwen.command' });
  });

  it('a pane started as `qwen` stays Qwen when its foreground process turns out to be node', () => {
    const t = new ProgramTracker(cfg, null, 'qwen');
    expect(t.program).toBe('qwen');
    expect(t.fromProcess('node')).toBe(false);
    expect(t.program).toBe('qwen');
  });

  it('a pane read as Gemini CLI through the shared input row alone turns out Qwen by its title', () => {
    const t = new ProgramTracker(cfg, null);
    expect(t.fromEvidence({ lines: ['>   Type your message or @path/to/file'] })).toBe(true);
    expect([t.program, t.rule]).toEqual(['gemini', 'detect.gemini.screen']);
    expect(t.open).toBe(true);
    expect(t.fromEvidence({ title: '◐︎ Qwen - project' })).toBe(true);
    expect([t.program, t.rule, t.open]).toEqual(['qwen', 'detect.qwen.title', false]);
  });

  it("Gemini CLI's own evidence settles it: nothing turns it into another program after", () => {
    const t = new ProgramTracker(cfg, null);
    t.fromEvidence({ lines: ['>   Type your message or @path/to/file'] });
    expect(t.fromEvidence({ title: '◇  Ready (project)' })).toBe(false);
    expect([t.program, t.rule, t.open]).toEqual(['gemini', 'detect.gemini.title', false]);
    // and a Claude or Codex screen never turns a Gemini pane into them
    const u = new ProgramTracker(cfg, null);
    u.fromEvidence({ lines: ['>   Type your message or @path/to/file'] });
    expect(u.fromEvidence({ lines: ['› Ask Codex to do anything'] })).toBe(false);
    expect(u.program).toBe('gemini');
  });
});
