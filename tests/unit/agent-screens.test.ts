// Screens of other versions and other menus of Claude Code, Codex CLI and Gemini CLI (tests/fixtures/screens):
// each is painted into a real headless terminal at its own size and classified by its agent's profile. The
// verdict and rule in its header must come out; the negative screens (a marker in scrollback above the last
// prompt, quoted in an answer, left on screen after the turn) say what the screen must NOT be taken for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { classifyWith, detectProgram } from '../../src/analysis/profiles/index.js';
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
