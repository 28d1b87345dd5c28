// Configuration: defaults, a user file (JSONC) overlaid and checked key by key, regexes compiled with their key path
// in every error, and the CLI refusing a bad file with exit 2 before doing anything.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readDefaultRaw } from '../../src/config/config.js';
import { BIN, ensureBuilt } from '../helpers/build.js';
import { castPath, ROOT } from '../helpers/screen.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ts-config-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults', () => {
  it('load, with thresholds as numbers and patterns compiled', () => {
    const cfg = loadConfig();
    expect(cfg.thresholds.stability_s).toBe(1);
    expect(cfg.thresholds.prompt_silence_s).toBe(5);
    expect(cfg.thresholds.long_running_s).toBe(60);
    expect(cfg.patterns.claude.working.length).toBeGreaterThan(0);
    for (const r of cfg.patterns.claude.working) expect(r).toBeInstanceOf(RegExp);
    expect(cfg.patterns.generic.prompt_anchor).toBeInstanceOf(RegExp);
    expect(cfg.detection.codex.process).toBeInstanceOf(RegExp);
  });

  it('literal word lists stay strings', () => {
    const cfg = loadConfig();
    expect(cfg.patterns.generic.completion_tokens).toContain('complete');
    expect(cfg.job_gate.whitelist).toContain('python');
    expect(cfg.job_gate.shells).toContain('bash');
    expect(typeof cfg.patterns.shell.use_bracketed_paste).toBe('boolean');
  });

  it("the keys a program's menu takes are one of the known styles; the question shapes compile", () => {
    const cfg = loadConfig({ overrides: { actions: { keys: { claude: { menu: 'arrows' } } } } });
    expect(cfg.actions.keys['claude']).toEqual({ menu: 'arrows', interrupt: 'Esc' });
    expect(cfg.patterns.questions.numbered_option).toBeInstanceOf(RegExp);
    expect(problemsOf(() => loadConfig({ overrides: { actions: { keys: { codex: { menu: 'mouse' } } } } }))).toEqual([
      'actions.keys.codex.menu: "mouse" is not one of digit, digit_enter, arrows, buttons',
    ]);
  });

  it('a missing default user file is fine', () => {
    expect(loadConfig({ defaultUserPath: join(dir, 'nope', 'config.json') }).thresholds.stability_s).toBe(1);
  });

  it('every default regex compiles with the u flag', () => {
    const cfg = loadConfig();
    expect(cfg.patterns.gemini.working[0]!.flags).toContain('u');
    expect(readDefaultRaw()).toHaveProperty('thresholds');
  });
});

describe('a user file', () => {
  it('overrides a threshold and a pattern; JSONC comments allowed; the rest stays default', () => {
    const p = file(
      'good.jsonc',
      `// my settings
{
  "thresholds": {
    /* slower machine */
    "stability_s": 2.5
  },
  "patterns": {
    "claude": {
      "working": ["esc to interrupt", "^✽ Crunching"] // a newer build's spinner, "//" in a string is fine: "http://x"
    }
  },
  "job_gate": { "whitelist": ["python", "deno"] }
}`,
    );
    const cfg = loadConfig({ path: p });
    expect(cfg.thresholds.stability_s).toBe(2.5);
    expect(cfg.thresholds.prompt_stability_s).toBe(0.3);
    expect(cfg.patterns.claude.working.map((r) => r.source)).toEqual(['esc to interrupt', '^✽ Crunching']);
    expect(cfg.patterns.claude.working[1]!.test('✽ Crunching… (3s)')).toBe(true);
    expect(cfg.patterns.claude.done.length).toBeGreaterThan(0);
    expect(cfg.job_gate.whitelist).toEqual(['python', 'deno']);
  });

  it('a default user path that exists is read', () => {
    const p = file('xdg.json', '{"thresholds": {"tick_s": 0.2}}');
    expect(loadConfig({ defaultUserPath: p }).thresholds.tick_s).toBe(0.2);
  });

  it('in-memory overrides apply after the file', () => {
    const p = file('base.json', '{"thresholds": {"tick_s": 0.2, "stability_s": 3}}');
    const cfg = loadConfig({ path: p, overrides: { thresholds: { stability_s: 4 } } });
    expect([cfg.thresholds.tick_s, cfg.thresholds.stability_s]).toEqual([0.2, 4]);
  });
});

describe('refused, with the key path and the reason', () => {
  it('an unknown key', () => {
    const p = file('typo.json', '{"thresholds": {"quiet_dne_s": 2}}');
    const problems = problemsOf(() => loadConfig({ path: p }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('thresholds.quiet_dne_s: unknown key');
    expect(problems[0]).toContain(p);
  });

  it('an unknown key in overrides, top level and nested', () => {
    expect(problemsOf(() => loadConfig({ overrides: { nope: 1 } }))[0]).toMatch(/^nope: unknown key/);
    expect(problemsOf(() => loadConfig({ overrides: { patterns: { claude: { workin: [] } } } }))[0]).toMatch(/^patterns\.claude\.workin: unknown key/);
  });

  it('an invalid regex in a list names the element and the reason', () => {
    const p = file('badre.json', '{"patterns": {"claude": {"working": ["esc to interrupt", "(unclosed"]}}}');
    const problems = problemsOf(() => loadConfig({ path: p }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/patterns\.claude\.working\[1\]: invalid regular expression "\(unclosed": .*Unterminated group/);
  });

  it('an invalid single regex names its key', () => {
    const problems = problemsOf(() => loadConfig({ overrides: { patterns: { generic: { prompt_anchor: '[a-' } } } }));
    expect(problems[0]).toMatch(/^patterns\.generic\.prompt_anchor: invalid regular expression/);
  });

  it('a port and quiet hours are refused in the words their schema gives', () => {
    expect(problemsOf(() => loadConfig({ overrides: { daemon: { port: 70000 } } }))).toEqual(['daemon.port: expected a port number 0-65535, got 70000']);
    expect(problemsOf(() => loadConfig({ overrides: { daemon: { port: 1.5 } } }))).toEqual(['daemon.port: expected a port number 0-65535, got number 1.5']);
    expect(problemsOf(() => loadConfig({ overrides: { notify: { quiet_hours: '25:00-01:00' } } }))).toEqual(['notify.quiet_hours: expected "HH:MM-HH:MM" or "", got "25:00-01:00"']);
  });

  it('wrong types', () => {
    expect(problemsOf(() => loadConfig({ overrides: { thresholds: { stability_s: '1' } } }))[0]).toMatch(/^thresholds\.stability_s: expected a number, got string "1"/);
    expect(problemsOf(() => loadConfig({ overrides: { thresholds: { stability_s: -1 } } }))[0]).toMatch(/^thresholds\.stability_s: expected a non-negative number/);
    expect(problemsOf(() => loadConfig({ overrides: { thresholds: 5 } }))[0]).toMatch(/^thresholds: expected an object/);
    expect(problemsOf(() => loadConfig({ overrides: { patterns: { claude: { working: 'esc' } } } }))[0]).toMatch(/^patterns\.claude\.working: expected a list of strings/);
    expect(problemsOf(() => loadConfig({ overrides: { patterns: { claude: { working: [1] } } } }))[0]).toMatch(/^patterns\.claude\.working: expected a list of strings/);
    expect(problemsOf(() => loadConfig({ overrides: { job_gate: { enabled: 'yes' } } }))[0]).toMatch(/^job_gate\.enabled: expected a boolean/);
  });

  it('every problem is reported at once, nothing half-applied', () => {
    const problems = problemsOf(() => loadConfig({ overrides: { thresholds: { quiet_dne_s: 1, tick_s: 'x' }, patterns: { codex: { done: ['('] } } } }));
    expect(problems).toHaveLength(3);
  });

  it('not JSON, or a missing explicit file', () => {
    const p = file('broken.json', '{\n  "thresholds": {"tick_s": 0.2 "tick_s": 0.3}\n}');
    expect(problemsOf(() => loadConfig({ path: p }))[0]).toMatch(/not valid JSON: CommaExpected at line 2, column 32/);
    // Trailing commas are JSONC, as in VS Code's and the agents' settings files.
    expect(loadConfig({ path: file('trailing.json', '{"thresholds": {"tick_s": 0.2,},}') }).thresholds.tick_s).toBe(0.2);
    expect(problemsOf(() => loadConfig({ path: join(dir, 'missing.json') }))[0]).toContain('cannot read');
  });
});

describe('the CLI with a bad --config', () => {
  beforeAll(() => ensureBuilt());

  function replay(config: string) {
    return spawnSync(process.execPath, [BIN, 'replay', castPath('shell-bash-plain'), '--config', config, '--format', 'jsonl'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  }

  it('unknown key: exits 2, names the key on stderr, prints no transitions', () => {
    const r = replay(file('cli-typo.json', '{"thresholds": {"quiet_dne_s": 2}}'));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('thresholds.quiet_dne_s: unknown key');
    expect(r.stdout).toBe('');
  });

  it('invalid regex: exits 2, names the path and the reason', () => {
    const r = replay(file('cli-re.json', '{"patterns": {"claude": {"working": ["ok", "(unclosed"]}}}'));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/patterns\.claude\.working\[1\]: invalid regular expression .*Unterminated group/);
    expect(r.stdout).toBe('');
  });

  it('a good file replays normally', () => {
    const r = replay(file('cli-good.jsonc', '// fine\n{"thresholds": {"stability_s": 1.0}}'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThan(0);
    expect(JSON.parse(r.stdout.split('\n')[0]!)).toHaveProperty('state');
  });
});
