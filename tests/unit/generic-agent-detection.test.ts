// Agents with no profile of their own (Crush, Cursor Agent, Copilot CLI, Cline, Amp, Aider, Kimi, goose) are still
// named: detected by process, command line, title or a signature on screen (config section `detection`), read by
// the generic tier, and shown under their own name by `classify` and `status` (the pane's current program).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { GENERIC_AGENTS, loadConfig, profileOf } from '../../src/config/config.js';
import { detectProgram } from '../../src/analysis/profiles/index.js';
import { ProgramTracker } from '../../src/analysis/program-tracker.js';
import { programKind } from '../../src/analysis/program-kind.js';
import { classifyText } from '../../src/cli/classify.js';
import { replayCast } from '../../src/daemon/replay.js';
import { ReplaySource } from '../../src/attach/replay-source.js';
import { ROOT } from '../helpers/screen.js';

const cfg = loadConfig();

describe('detection of agents the generic tier reads', () => {
  it.each([
    ['crush', 'crush'],
    ['cursor-agent', 'cursor'],
    ['copilot', 'copilot'],
    ['cline', 'cline'],
    ['amp', 'amp'],
    ['aider', 'aider'],
    ['kimi', 'kimi'],
    ['goose', 'goose'],
  ] as const)('process %s → %s', (proc, program) => {
    expect(detectProgram(cfg, { process: proc })).toEqual({ program, rule: `detect.${program}.process` });
  });

  it.each([
    ['/usr/local/bin/crush --yolo', 'crush'],
    ['cursor-agent --model gpt-5', 'cursor'],
    ['npx @github/copilot', 'copilot'],
    ['node /usr/lib/node_modules/cline/dist/cli.js', 'generic'],
    ['cline --plan', 'cline'],
    ['npx @sourcegraph/amp', 'amp'],
    ['amp', 'amp'],
    ['/home/me/.local/bin/aider --model gpt-4o', 'aider'],
    ['kimi', 'kimi'],
    ['goose session', 'goose'],
  ] as const)('command line %s → %s', (command, program) => {
    const det = detectProgram(cfg, { command, process: program === 'generic' ? 'node' : undefined });
    if (program === 'generic') expect(det?.program).toBe('shell'); // node alone names no agent
    else expect(det).toEqual({ program, rule: `detect.${program}.command` });
  });

  it('words that merely contain an agent name are not that agent', () => {
    for (const command of ['vamp start', 'ampere', 'make crushes', 'copilot-tools lint', 'raider']) {
      const det = detectProgram(cfg, { command });
      expect(det, command).toBeNull();
    }
    for (const proc of ['amplify', 'aider2', 'crushd']) expect(detectProgram(cfg, { process: proc })?.program, proc).toBe('generic');
  });

  it.each([
    ['crush ~/work/app', 'crush'],
    ['Config loading - amp - app', 'amp'],
  ] as const)('title %s → %s', (title, program) => {
    expect(detectProgram(cfg, { title })).toEqual({ program, rule: `detect.${program}.title` });
  });

  it.each([
    [' Charm™ CRUSH ╱╱╱╱╱╱ ~/work/app • 2% • ctrl+d open', 'crush'],
    ['  → Add a follow-up                                      ctrl+c to stop', 'cursor'],
    ['❯ Type @ to mention files, # for issues/PRs, / for commands, or ? for shortcuts', 'copilot'],
    [' Auto-approve all disabled (Shift+Tab)', 'cline'],
    ['┃ [act mode] Cline is ready for your message...', 'cline'],
    ['╭─37% of 168k · $1.24 (free)────────────smart─╮', 'amp'],
    ['Aider v0.86.1', 'aider'],
    [' Welcome to Kimi Code CLI!', 'kimi'],
    ['( O)> Review workspace', 'goose'],
  ] as const)('screen row %s → %s', (line, program) => {
    expect(detectProgram(cfg, { lines: ['', line, ''] })).toEqual({ program, rule: `detect.${program}.screen` });
  });

  it('an agent with a profile wins over one without on the same evidence', () => {
    expect(detectProgram(cfg, { lines: ['Claude Code v2.1.3', 'Aider v0.86.1'] })?.program).toBe('claude');
  });

  it('every agent without a profile has a detection rule and is read by the generic tier', () => {
    for (const a of GENERIC_AGENTS) {
      expect(cfg.detection[a], a).toBeDefined();
      expect(profileOf(a)).toBe('generic');
    }
    expect(profileOf('claude')).toBe('claude');
  });
});

describe('the program tracker: the generic tier reads them, under their own name', () => {
  it('a foreground process names the agent; the profile reading it is generic', () => {
    const tr = new ProgramTracker(cfg, null);
    expect(tr.fromProcess('crush')).toBe(true);
    expect([tr.program, tr.name, tr.rule]).toEqual(['generic', 'crush', 'detect.crush.process']);
    // a child it runs in the foreground (an unknown process) does not rename it
    expect(tr.fromProcess('rg')).toBe(false);
    expect(tr.name).toBe('crush');
  });

  it('a screen signature names it when nothing else does (a recording has no process)', () => {
    const tr = new ProgramTracker(cfg, null);
    expect(tr.fromEvidence({ lines: ['Aider v0.86.1'] })).toBe(true);
    expect([tr.program, tr.name]).toEqual(['generic', 'aider']);
  });

  it('--agent crush forces the generic tier under that name', () => {
    const tr = new ProgramTracker(cfg, 'crush');
    expect([tr.program, tr.name, tr.locked]).toEqual(['generic', 'crush', true]);
  });
});

describe('classify and replay name the program', () => {
  it('classify: a Crush screen is read by the generic tier and named crush', async () => {
    const cls = await classifyText(' Charm™ CRUSH ╱╱╱╱ ~/work/app\n\n  > Ready for instructions\n', cfg, 'auto');
    expect(cls.program).toBe('crush');
    expect(cls.rule.startsWith('generic.')).toBe(true);
  });

  it('classify --agent aider names it whatever the screen', async () => {
    const cls = await classifyText('> \n', cfg, 'aider');
    expect(cls.program).toBe('aider');
  });

  it('a replayed Crush session: the pane current program is crush (what status shows)', async () => {
    const source = await ReplaySource.fromFile(join(ROOT, 'tests', 'fixtures', 'screens', 'crush-turn', 'session.cast'));
    const { monitor } = await replayCast(source, cfg, 'auto');
    expect(monitor.analyzer.currentProgram).toEqual({ program: 'crush', rule: 'detect.crush.title' });
  });
});

describe('one thing to do or a session (config section programs)', () => {
  it.each([
    [['crush'], 'session'],
    [['crush', 'run', 'explain main.go'], 'one-shot'],
    [['cursor-agent'], 'session'],
    [['cursor-agent', '-p', 'fix the bug'], 'one-shot'],
    [['amp'], 'session'],
    [['amp', '-x', 'what files are here?'], 'one-shot'],
    [['aider', '--message', 'add docstrings'], 'one-shot'],
    [['cline'], 'session'],
    [['cline', '-o', 'what is 6 + 8?'], 'one-shot'],
    [['kimi', '--print', '-p', 'hello'], 'one-shot'],
    [['goose', 'session'], 'session'],
    [['goose', 'run', '-t', 'hello'], 'one-shot'],
  ] as const)('%j → %s', (argv, kind) => {
    expect(programKind(cfg.programs, [...argv])).toBe(kind);
  });
});
