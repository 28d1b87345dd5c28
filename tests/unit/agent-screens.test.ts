// Screens of other versions and other menus of Claude Code, Codex CLI and Gemini CLI (tests/fixtures/screens):
// each is painted into a real headless terminal at its own size and classified by its agent's profile. The
// verdict and rule in its header must come out; the negative screens (a marker in scrollback above the last
// prompt, quoted in an answer, left on screen after the turn) say what the screen must NOT be taken for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { classifyWith, detectProgram } from '../../src/analysis/profiles/index.js';
import { classifyText } from '../../src/cli/classify.js';
import { ctx, ROOT, screenOf } from '../helpers/screen.js';
import { loadScreenFixtures, paint, SCREEN_AGENTS } from '../helpers/screen-fixtures.js';

const cfg = loadConfig();
const fixtures = loadScreenFixtures();

for (const agent of SCREEN_AGENTS) {
  describe(`${agent} screens`, () => {
    for (const f of fixtures.filter((x) => x.agent === agent)) {
      it(`${f.name} (${f.cols}x${f.rows}) → ${f.verdict} ${f.rule}`, async () => {
        const snap = await screenOf(paint(f.body), f.cols, f.rows);
        snap.title = f.title;
        const cls = classifyWith(agent, snap, ctx(cfg));
        const why = `${agent}/${f.name} classified ${cls.verdict} ${cls.rule} "${cls.line}"\n${snap.lines.join('\n')}`;
        expect({ verdict: cls.verdict, rule: cls.rule }, why).toEqual({ verdict: f.verdict, rule: f.rule });
        if (f.line) expect(cls.line, why).toContain(f.line);
      });
    }
  });
}

describe('every screen has its source in docs/agents.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'agents.md'), 'utf8');
  for (const f of fixtures) {
    it(`${f.agent}/${f.name}`, () => {
      expect(doc, `docs/agents.md should list ${f.agent}/${f.name}`).toContain(`\`${f.agent}/${f.name}\``);
    });
  }
});

describe('program detection from these screens never names another agent', () => {
  for (const f of fixtures) {
    it(`${f.agent}/${f.name}`, async () => {
      const snap = await screenOf(paint(f.body), f.cols, f.rows);
      const found = detectProgram(cfg, { title: f.title, lines: snap.lines });
      if (found) expect(found.program).toBe(f.agent);
    });
  }
});

// The screens as issue 12 quotes them from other supervisors' test suites, bare (no banner, no footer), through
// the `classify` command's own reader (classifyText: the text painted into a headless terminal at its size).
describe('classify: the bare screens other supervisors test', () => {
  const CCM = 'kbwo/ccmanager src/services/stateDetector';
  const cases: Array<{ agent: 'claude' | 'codex' | 'gemini'; text: string[]; verdict: string; rule: string; from: string }> = [
    ...['✼', '❇', '❋', '✱', '✿', '❀', '✥', '✧'].map((g) => ({ agent: 'claude' as const, text: [`${g} Kneading…`, '❯'], verdict: 'working', rule: 'claude.working_marker', from: `${CCM}/claude.test.ts` })),
    { agent: 'claude', text: ['Processing...', 'Press ESC to interrupt', '─'.repeat(30), '❯', '─'.repeat(30)], verdict: 'working', rule: 'claude.working_marker', from: `${CCM}/claude.test.ts` },
    { agent: 'claude', text: ['  ( 1m · 500 TOKENS )  ', '─'.repeat(30), '❯', '─'.repeat(30)], verdict: 'working', rule: 'claude.working_marker', from: `${CCM}/claude.test.ts` },
    { agent: 'claude', text: ['(see tokens in docs)', '─'.repeat(30), '❯', '─'.repeat(30)], verdict: 'ready', rule: 'claude.input_box', from: `${CCM}/claude.test.ts` },
    {
      agent: 'claude',
      text: ['─'.repeat(30), ' Claude in Chrome wants to navigate on example.com', '', ' https://example.com/app', '', ' ❯ 1. Allow', '   2. Allow all actions on example.com for this session', '   3. Deny (esc)'],
      verdict: 'waiting',
      rule: 'claude.approval_menu',
      from: `${CCM}/claude.test.ts`,
    },
    { agent: 'claude', text: ['Some previous output', 'Would you like to proceed?', '', '❯ 1. Yes, and auto-accept edits', '  2. Yes, and manually approve edits', '  3. No, keep planning'], verdict: 'waiting', rule: 'claude.approval_menu', from: `${CCM}/claude.test.ts` },
    {
      agent: 'codex',
      text: ['Field 1/1', 'Allow the chrome-devtools MCP server to run tool "new_page"?', '', '› 1. Allow                   Run the tool and continue.', '2. Allow for this session  Run the tool and remember this choice for this session.', '4. Cancel                  Cancel this tool call', 'enter to submit | esc to cancel'],
      verdict: 'waiting',
      rule: 'codex.approval_menu',
      from: `${CCM}/codex.test.ts`,
    },
    { agent: 'codex', text: ['  Question 1/3', '  › 1. Option A', '  tab to add notes | enter to submit answer | esc to interrupt'], verdict: 'waiting', rule: 'codex.approval_menu', from: `${CCM}/codex.test.ts` },
    { agent: 'gemini', text: ['Processing...', 'Waiting for user confirmation...'], verdict: 'waiting', rule: 'gemini.approval_menu', from: `${CCM}/gemini.test.ts` },
    { agent: 'gemini', text: ['Apply this change to the workspace?', 'The operation will modify several files.', '   yes'], verdict: 'waiting', rule: 'gemini.approval_menu', from: `${CCM}/gemini.test.ts` },
  ];
  for (const c of cases) {
    it(`${c.agent}: ${JSON.stringify(c.text.find((l) => l.trim()) ?? '')} → ${c.verdict} (${c.from})`, async () => {
      const cls = await classifyText(c.text.join('\n'), cfg, c.agent);
      expect({ verdict: cls.verdict, rule: cls.rule }, `"${cls.line}"`).toEqual({ verdict: c.verdict, rule: c.rule });
    });
  }
});
