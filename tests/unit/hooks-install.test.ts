// `termsupervisor hooks install|uninstall` on sample settings files in a scratch home: idempotent, the user's own
// settings kept, a backup of each version replaced, reversible; shapes that cannot be edited safely are refused.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan, hookStatus, planInstall, planUninstall, settingsFile } from '../../src/hooks/install.js';
import { CODEX_MARKER, currentNotify, installCodexNotify, uninstallCodexNotify } from '../../src/hooks/codex-toml.js';
import { CLAUDE_EVENTS, GEMINI_EVENTS, QWEN_EVENTS } from '../../src/hooks/agents.js';
import { hooksCommand } from '../../src/cli/hooks.js';
import { ROOT } from '../helpers/screen.js';

const SETTINGS = join(ROOT, 'tests', 'fixtures', 'hooks', 'settings');
const PROGRAM = '/opt/termsupervisor/bin/termsupervisor';

let homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** A scratch home; `files` maps a path under it to a fixture to copy there. */
function home(files: Record<string, string> = {}): string {
  const h = mkdtempSync(join(tmpdir(), 'ts-hooks-'));
  homes.push(h);
  for (const [rel, fixture] of Object.entries(files)) {
    mkdirSync(join(h, rel, '..'), { recursive: true });
    copyFileSync(join(SETTINGS, fixture), join(h, rel));
  }
  return h;
}

const json = (p: string): Record<string, unknown> => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
const backups = (file: string): string[] => readdirSync(join(file, '..')).filter((f) => f.includes('.termsupervisor-backup-'));

function install(agent: 'claude' | 'codex' | 'gemini' | 'qwen', h: string, program = PROGRAM) {
  const plan = planInstall(agent, program, { home: h });
  return { plan, ...applyPlan(plan) };
}

function uninstall(agent: 'claude' | 'codex' | 'gemini' | 'qwen', h: string) {
  const plan = planUninstall(agent, { home: h });
  return { plan, ...applyPlan(plan) };
}

describe('Claude Code settings.json', () => {
  it('adds one hook per event, keeps everything else, backs up, and is idempotent', () => {
    const h = home({ '.claude/settings.json': 'claude-settings.json' });
    const file = join(h, '.claude', 'settings.json');
    const original = readFileSync(file, 'utf8');
    const first = install('claude', h);
    expect(first.plan.result.status).toBe('changed');
    expect(readFileSync(first.backup!, 'utf8')).toBe(original);

    const s = json(file) as { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string; timeout?: number }> }>> } & Record<string, unknown>;
    for (const event of CLAUDE_EVENTS) {
      const ours = s.hooks[event]!.filter((g) => g.hooks.some((x) => x.command.includes(' hook claude ')));
      expect(ours, event).toEqual([
        { ...(event === 'PreToolUse' || event === 'PermissionRequest' ? { matcher: '*' } : {}), hooks: [{ type: 'command', command: `${PROGRAM} hook claude ${event}`, timeout: 5 }] },
      ]);
    }
    // The user's own settings and hooks are all still there.
    const before = JSON.parse(original) as typeof s;
    for (const k of ['$schema', 'model', 'env', 'permissions', 'statusLine']) expect(s[k]).toEqual(before[k]);
    expect(s.hooks['PostToolUse']).toEqual(before.hooks['PostToolUse']);
    expect(s.hooks['Stop']![0]).toEqual(before.hooks['Stop']![0]);

    const again = install('claude', h);
    expect(again.plan.result.status).toBe('unchanged');
    expect(again.backup).toBeNull();
    expect(backups(file)).toHaveLength(1);
    const status = hookStatus('claude', { home: h });
    expect(new Set(status.installed)).toEqual(new Set(CLAUDE_EVENTS));
    expect(status.missing).toEqual([]);

    const removed = uninstall('claude', h);
    expect(removed.plan.result.status).toBe('changed');
    expect(json(file)).toEqual(JSON.parse(original));
    expect(backups(file)).toHaveLength(2);
    expect(uninstall('claude', h).plan.result.status).toBe('unchanged');
  });

  it('a moved program replaces our old hook instead of adding a second one', () => {
    const h = home();
    install('claude', h, '/old/place/termsupervisor');
    install('claude', h, "/new place/termsupervisor");
    const s = json(settingsFile('claude', { home: h })) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(s.hooks['Stop']).toEqual([{ hooks: [{ type: 'command', command: "'/new place/termsupervisor' hook claude Stop", timeout: 5 }] }]);
    expect(uninstall('claude', h).plan.result.status).toBe('changed');
    expect(json(settingsFile('claude', { home: h }))).toEqual({});
  });

  it('creates a missing file owner-only; writes through a symlinked one and keeps its mode', () => {
    const h = home();
    install('claude', h);
    const file = settingsFile('claude', { home: h });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const h2 = home({ 'dotfiles/claude.json': 'claude-settings.json' });
    const real = join(h2, 'dotfiles', 'claude.json');
    chmodSync(real, 0o640);
    mkdirSync(join(h2, '.claude'));
    symlinkSync(real, join(h2, '.claude', 'settings.json'));
    install('claude', h2);
    expect(statSync(join(h2, '.claude', 'settings.json')).isFile()).toBe(true); // still resolves
    expect(readFileSync(real, 'utf8')).toContain('hook claude Stop');
    expect(statSync(real).mode & 0o777).toBe(0o640);
  });

  it('keeps a file with comments as it was around our hooks; refuses one it cannot read, and leaves it as it was', () => {
    const h = home({ '.claude/settings.json': 'claude-settings-comments.json' });
    const file = settingsFile('claude', { home: h });
    const before = readFileSync(file, 'utf8');
    expect(install('claude', h).plan.result.status).toBe('changed');
    expect(readFileSync(file, 'utf8')).toContain('// my model');
    uninstall('claude', h);
    expect(readFileSync(file, 'utf8')).toBe(before);

    for (const [text, why] of [['{"hooks": [1]}', /"hooks" is not an object/], ['{"hooks": {"Stop": {}}}', /hooks\.Stop is not a list/], ['[1]', /not a JSON object/], ['{"a": ', /not valid JSON \(ValueExpected at line 1, column 7\)/]] as const) {
      writeFileSync(file, text);
      const plan = planInstall('claude', PROGRAM, { home: h });
      expect(plan.result, text).toMatchObject({ status: 'refused', reason: expect.stringMatching(why) });
      expect(applyPlan(plan).backup).toBeNull();
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });
});

describe('settings files in every style (comments, trailing commas, CRLF, tabs, unicode, minified)', () => {
  const STYLES = ['styles-comments-trailing.jsonc', 'styles-comment-only.jsonc', 'styles-crlf-4space.json', 'styles-minified.json', 'styles-empty-object.json', 'claude-settings.json', 'gemini-settings.json'];
  const AGENTS = [['claude', '.claude/settings.json'], ['gemini', '.gemini/settings.json'], ['qwen', '.qwen/settings.json']] as const;
  for (const style of STYLES) {
    for (const [agent, rel] of AGENTS) {
      it(`${agent}, ${style}: install adds only our entries, is idempotent, and uninstall restores the file byte for byte`, () => {
        const h = home({ [rel]: style });
        const file = settingsFile(agent, { home: h });
        const original = readFileSync(file, 'utf8');
        expect(install(agent, h).plan.result.status).toBe('changed');
        const installed = readFileSync(file, 'utf8');
        // Every line of the person's file is still there, in order (our entries are whole lines or inserted text).
        expect(isSubsequence(original, installed), installed).toBe(true);
        if (original.includes('\r\n')) expect(installed.replace(/\r\n/g, '')).not.toContain('\n');
        expect(new Set(hookStatus(agent, { home: h }).missing)).toEqual(new Set());
        expect(install(agent, h).plan.result.status).toBe('unchanged');
        expect(uninstall(agent, h).plan.result.status).toBe('changed');
        expect(readFileSync(file, 'utf8')).toBe(original);
      });
    }
  }

  it("a group shared by the person's hook and ours keeps theirs, byte for byte, when ours moves to its own group", () => {
    const h = home({ '.claude/settings.json': 'styles-tabs-shared-group-no-eol.json' });
    const file = settingsFile('claude', { home: h });
    expect(install('claude', h).plan.result.status).toBe('changed');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('\t\t\t\t\t{"type": "command", "command": "echo 🔒 guard"}');
    expect(text.endsWith('}')).toBe(true); // no final newline added
    const s = JSON.parse(text) as { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>> };
    expect(s.hooks['PreToolUse']![0]).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo 🔒 guard' }] });
    expect(s.hooks['PreToolUse']!.filter((g) => g.hooks.some((x) => x.command.endsWith('hook claude PreToolUse')))).toHaveLength(1);
    uninstall('claude', h);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ theme: 'Dracula', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo 🔒 guard' }] }] } });
  });
});

/** `small`'s characters appear in `big` in the same order (what an edit that only inserts leaves). */
function isSubsequence(small: string, big: string): boolean {
  let i = 0;
  for (let j = 0; j < big.length && i < small.length; j++) if (big[j] === small[i]) i++;
  return i === small.length;
}

describe('Gemini CLI settings.json', () => {
  it('adds its events, keeps tabs and the user hook; uninstall restores it exactly', () => {
    const h = home({ '.gemini/settings.json': 'gemini-settings.json' });
    const file = settingsFile('gemini', { home: h });
    const original = readFileSync(file, 'utf8');
    expect(install('gemini', h).plan.result.status).toBe('changed');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('\n\t"general": {');
    const s = JSON.parse(text) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(s.hooks)).toEqual(['BeforeTool', ...GEMINI_EVENTS]);
    expect(s.hooks['AfterAgent']).toEqual([{ hooks: [{ name: 'termsupervisor-AfterAgent', type: 'command', command: `${PROGRAM} hook gemini AfterAgent`, timeout: 5000 }] }]);
    expect(install('gemini', h).plan.result.status).toBe('unchanged');
    uninstall('gemini', h);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('warns when the person turned Gemini hooks off', () => {
    const h = home();
    mkdirSync(join(h, '.gemini'));
    writeFileSync(settingsFile('gemini', { home: h }), '{"hooksConfig": {"enabled": false}}\n');
    expect(planInstall('gemini', PROGRAM, { home: h }).warnings).toEqual([expect.stringMatching(/hooksConfig\.enabled is false/)]);
  });
});

describe('Qwen Code settings.json', () => {
  it('adds its events beside the person\'s own hooks (tool events with matcher *, seconds), idempotent; uninstall restores it exactly', () => {
    const h = home({ '.qwen/settings.json': 'qwen-settings.json' });
    const file = settingsFile('qwen', { home: h });
    expect(file).toBe(join(h, '.qwen', 'settings.json'));
    const original = readFileSync(file, 'utf8');
    const first = install('qwen', h);
    expect(first.plan.result.status).toBe('changed');
    expect(readFileSync(first.backup!, 'utf8')).toBe(original);
    const s = json(file) as { model: unknown; hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>> };
    expect(s.model).toEqual({ name: 'qwen3-coder-plus' });
    expect(Object.keys(s.hooks).sort()).toEqual([...new Set(['PreToolUse', 'Stop', ...QWEN_EVENTS])].sort());
    for (const event of QWEN_EVENTS) {
      const ours = s.hooks[event]!.filter((g) => g.hooks.some((x) => x.command.includes(' hook qwen ')));
      expect(ours, event).toEqual([
        { ...(event === 'PreToolUse' || event === 'PermissionRequest' ? { matcher: '*' } : {}), hooks: [{ type: 'command', command: `${PROGRAM} hook qwen ${event}`, timeout: 5 }] },
      ]);
    }
    // the person's own hooks are still there, first
    expect(s.hooks['PreToolUse']![0]).toEqual({ matcher: 'run_shell_command', hooks: [{ type: 'command', command: '~/.qwen/hooks/guard-shell.sh', timeout: 10 }] });
    expect(s.hooks['Stop']![0]!.hooks[0]!.command).toBe("notify-send 'qwen is done'");
    expect(hookStatus('qwen', { home: h })).toMatchObject({ installed: expect.arrayContaining([...QWEN_EVENTS]), missing: [] });

    expect(install('qwen', h).plan.result.status).toBe('unchanged');
    expect(uninstall('qwen', h).plan.result.status).toBe('changed');
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(uninstall('qwen', h).plan.result.status).toBe('unchanged');
  });

  it('$QWEN_HOME moves the file (unless --home is given); a fresh home gets a new file', () => {
    const h = home();
    expect(settingsFile('qwen', { env: { QWEN_HOME: '/srv/qwen' } })).toBe('/srv/qwen/settings.json');
    expect(settingsFile('qwen', { home: h, env: { QWEN_HOME: '/srv/qwen' } })).toBe(join(h, '.qwen', 'settings.json'));
    expect(install('qwen', h).plan.result.status).toBe('changed');
    expect(Object.keys((json(settingsFile('qwen', { home: h })) as { hooks: object }).hooks)).toEqual([...QWEN_EVENTS]);
  });

  it('warns when the person turned Qwen hooks off', () => {
    const h = home();
    mkdirSync(join(h, '.qwen'));
    writeFileSync(settingsFile('qwen', { home: h }), '{"disableAllHooks": true}\n');
    expect(planInstall('qwen', PROGRAM, { home: h }).warnings).toEqual([expect.stringMatching(/disableAllHooks is true/)]);
  });
});

describe('Codex config.toml notify', () => {
  it('adds notify at the top level (before the first table), touches nothing else, and uninstalls byte for byte', () => {
    const h = home({ '.codex/config.toml': 'codex-config.toml' });
    const file = settingsFile('codex', { home: h });
    const original = readFileSync(file, 'utf8');
    const first = install('codex', h);
    expect(first.plan.result.status).toBe('changed');
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(original.replace('\n# Providers\n', `\n${CODEX_MARKER}\nnotify = ["${PROGRAM}", "hook", "codex"]\n\n# Providers\n`));
    expect(readFileSync(first.backup!, 'utf8')).toBe(original);
    expect(install('codex', h).plan.result.status).toBe('unchanged');
    expect(hookStatus('codex', { home: h })).toMatchObject({ installed: ['notify'], missing: [] });
    uninstall('codex', h);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('keeps a notify that is someone else\'s, and says why and what to do', () => {
    const h = home({ '.codex/config.toml': 'codex-config-notify.toml' });
    const file = settingsFile('codex', { home: h });
    const before = readFileSync(file, 'utf8');
    const plan = planInstall('codex', PROGRAM, { home: h });
    expect(plan.result).toMatchObject({ status: 'refused', reason: expect.stringMatching(/notify is already set to \["python3", "\/home\/user\/.codex\/notify.py"\].*kept.*hook codex/) });
    applyPlan(plan);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(uninstallCodexNotify(before)).toMatchObject({ status: 'unchanged', notes: [expect.stringMatching(/not termsupervisor's/)] });
    expect(hookStatus('codex', { home: h })).toMatchObject({ installed: [], foreign: '["python3","/home/user/.codex/notify.py"]' });
  });

  it('updates our own notify in place when the program moved, keeping its comment', () => {
    const text = `model = "o3"\nnotify = ["/old/termsupervisor", "hook", "codex"] # mine\n`;
    expect(installCodexNotify(text, PROGRAM)).toEqual({ status: 'changed', text: `model = "o3"\nnotify = ["${PROGRAM}", "hook", "codex"] # mine\n`, notes: ['updated the program path in notify'] });
  });

  it('round-trips files without tables, new files and CRLF files', () => {
    for (const original of ['model = "o3"\n', '', '# only a comment\n', 'model = "o3"\r\n\r\n[tui]\r\nx = 1\r\n', '[tui]\nx = 1\n', 'a = 1\n# about tui\n[tui]\n']) {
      const added = installCodexNotify(original || null, PROGRAM);
      if (added.status !== 'changed') throw new Error(JSON.stringify(added));
      expect(added.text).toContain(`notify = ["${PROGRAM}", "hook", "codex"]`);
      if (original.includes('\r\n')) expect(added.text.replace(/\r\n/g, '')).not.toContain('\n');
      // the key is top level: before any table header
      const tableAt = added.text.search(/^\[/m);
      if (tableAt >= 0) expect(added.text.indexOf('notify =')).toBeLessThan(tableAt);
      const removed = uninstallCodexNotify(added.text);
      expect(removed.status === 'changed' && removed.text, JSON.stringify(original)).toBe(original);
    }
  });

  it('refuses shapes it cannot edit safely, naming the place of a syntax error', () => {
    expect(installCodexNotify('[notify]\nprogram = "x"\n', PROGRAM)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/notify as a table/) });
    expect(installCodexNotify('notify.program = "x"\n', PROGRAM)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/dotted key/) });
    expect(installCodexNotify('notify = [\n  "x",\n]\n', PROGRAM)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/already set to \["x"\]/) });
    expect(installCodexNotify('notify = "x"\n', PROGRAM)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/cannot read/) });
    expect(installCodexNotify('model = "unclosed\n', PROGRAM)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/not valid TOML .*line 1, column 18/) });
    expect(installCodexNotify('x = """never closed\n', PROGRAM)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/unfinished string, line 1/) });
    // Our notify spread over lines by a person: read, but not edited in place.
    const spread = `notify = [\n  "${PROGRAM}",\n  "hook", "codex",\n]\n`;
    expect(uninstallCodexNotify(spread)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/several lines/) });
  });

  it('reads notify as TOML spells it (literal and escaped strings, quoted keys), and places our line past header look-alikes', () => {
    expect(currentNotify(`"notify" = ['a', "b\\u00e9"] # c\n`)).toEqual(['a', 'bé']);
    expect(currentNotify('model = "x"\n')).toBeNull();
    expect(currentNotify('[t]\nnotify = ["x"]\n')).toBeNull(); // a table's key, not the top-level one
    // A line starting with "[" inside a multi-line string or array is not a table header.
    const tricky = 'doc = """\n[not a table]\n"""\nxs = [\n  [1, 2],\n]\n\n[tui]\nx = 1\n';
    const added = installCodexNotify(tricky, PROGRAM);
    if (added.status !== 'changed') throw new Error(JSON.stringify(added));
    expect(added.text).toBe(tricky.replace('\n\n[tui]', `\n\n${CODEX_MARKER}\nnotify = ["${PROGRAM}", "hook", "codex"]\n\n[tui]`));
    expect(uninstallCodexNotify(added.text)).toMatchObject({ status: 'changed', text: tricky });
  });
});

describe('the hooks command', () => {
  function run(argv: string[]): { code: Promise<number>; out: () => string; err: () => string } {
    let out = '';
    let err = '';
    const sink = (f: (s: string) => void) => new Writable({ write: (c, _e, cb) => (f(String(c)), cb()) });
    const code = hooksCommand(argv, sink((s) => (out += s)), sink((s) => (err += s)));
    return { code, out: () => out, err: () => err };
  }

  it('--dry-run shows the change and writes nothing; install all reports each agent; a refusal exits 1', async () => {
    const h = home({ '.codex/config.toml': 'codex-config-notify.toml' });
    const dry = run(['install', 'claude', '--dry-run', '--home', h, '--command', PROGRAM]);
    expect(await dry.code).toBe(0);
    expect(dry.out()).toContain('claude: would add hooks in');
    expect(dry.out()).toMatch(/^\+ +"command": "\/opt\/termsupervisor\/bin\/termsupervisor hook claude Stop",$/m);
    expect(existsSync(join(h, '.claude'))).toBe(false);

    const all = run(['install', 'all', '--home', h, '--command', PROGRAM]);
    expect(await all.code).toBe(1);
    expect(all.out()).toMatch(/claude: installed hooks in .*settings\.json/);
    expect(all.out()).toMatch(/gemini: installed hooks in .*settings\.json/);
    expect(all.out()).toMatch(/qwen: installed hooks in .*\.qwen\/settings\.json/);
    expect(all.err()).toMatch(/codex: .*config\.toml left alone: notify is already set/);

    const status = run(['status', '--home', h]);
    expect(await status.code).toBe(0);
    expect(status.out()).toMatch(/claude: installed/);
    expect(status.out()).toMatch(/codex: notify belongs to another program/);

    const un = run(['uninstall', 'claude', 'gemini', '--home', h]);
    expect(await un.code).toBe(0);
    expect(un.out()).toMatch(/claude: removed termsupervisor hooks in .*; the previous version is .*termsupervisor-backup-/);
    expect(run(['status', 'claude', '--home', h]).out()).toMatch(/claude: not installed/);
  });

  it('usage errors', async () => {
    await expect(run(['install']).code).rejects.toThrow(/name the agents/);
    await expect(run(['install', 'copilot']).code).rejects.toThrow(/unknown agent/);
    await expect(run(['frobnicate']).code).rejects.toThrow(/install, uninstall or status/);
  });
});
