// Which commands `run` starts are sessions (a turn per thing asked) and which are one thing to do (one turn), from
// argv and the lists in config section `run`; and how a session's shell is started with shell integration.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { programKind, programName } from '../../src/analysis/program-kind.js';
import { BASH_LOGIN_ENV, injectShellIntegration, USER_ZDOTDIR_ENV } from '../../src/shell/inject.js';
import { MARK_NONCE_ENV } from '../../src/shell/snippets.js';

const programs = loadConfig().programs;
const kind = (cmd: string[]) => programKind(programs, cmd);

describe('programKind', () => {
  it.each([
    ['bash'],
    ['/bin/bash', '-l'],
    ['bash', '-i'],
    ['bash', '--rcfile', 'my.rc'],
    ['zsh'],
    ['fish'],
    ['python3'],
    ['python3.12', '-q'],
    ['python3', '-i', 'setup.py'],
    ['python3', '-W', 'ignore'],
    ['node'],
    ['node', '--inspect'],
    ['claude'],
    ['claude', 'fix the failing test'],
    ['codex'],
    ['gemini'],
    ['vim', 'notes.md'],
    ['less', 'README.md'],
    ['ssh', '-p', '22', 'host'],
    ['psql', 'mydb'],
    ['env', 'ANTHROPIC_MODEL=x', 'claude'],
    ['npx', '-y', '@anthropic-ai/claude-code'],
    ['npx', '@google/gemini-cli'],
    ['nice', 'bash'],
  ])('%s … is a session', (...cmd) => {
    expect(kind(cmd)).toBe('session');
  });

  it.each([
    ['bash', '-c', 'echo compiling; sleep 4; exit 1'],
    ['bash', '-lc', 'npm test'],
    ['bash', 'build.sh'],
    ['sh', '-c', 'make'],
    ['python3', 'build.py'],
    ['python3', '-c', 'print(1)'],
    ['python3', '-m', 'pytest'],
    ['/usr/bin/python3.11', '-u', 'train.py'],
    ['node', 'server.js'],
    ['node', '-e', 'console.log(1)'],
    ['npm', 'test'],
    ['make'],
    ['cargo', 'build'],
    ['rm', '-i', 'old.log'],
    ['claude', '-p', 'summarise the diff'],
    ['codex', 'exec', 'fix lint'],
    ['gemini', '--prompt', 'hi'],
    ['psql', '-c', 'select 1'],
    ['bash', '--', 'script.sh'],
    ['env', 'CI=1', 'npm', 'test'],
    ['npx', 'vitest', 'run'],
    ['time', 'make', '-j8'],
  ])('%s … is one turn', (...cmd) => {
    expect(kind(cmd)).toBe('one-shot');
  });

  it('names: base name, no login dash, no trailing version', () => {
    expect(programName('/usr/bin/python3.12')).toBe('python');
    expect(programName('-bash')).toBe('bash');
    expect(programName('lua5.4')).toBe('lua');
    expect(programName('node')).toBe('node');
    expect(programName('7z')).toBe('7z');
  });

  it('what the program is counts, not only its argv: claude.exe by its path, a script whose package is an agent', () => {
    expect(kind(['/home/me/.local/bin/claude.exe'])).toBe('session');
    expect(programKind(programs, ['node', '/x/node_modules/@google/gemini-cli/dist/index.js'], ['gemini', 'gemini-cli', '@google/gemini-cli', 'index'])).toBe('session');
    expect(programKind(programs, ['node', '/x/dist/index.js'], ['my-build', 'index'])).toBe('one-shot');
    // A session's one-shot argument still counts when the session is known by its identity.
    expect(programKind(programs, ['/opt/claude/versions/2.0.31', '-p', 'hi'], ['claude'])).toBe('one-shot');
  });

  it('the lists are configuration: a program added to programs.sessions is a session', () => {
    const cfg = loadConfig({ overrides: { programs: { sessions: [...programs.sessions, 'mytui'] } } });
    expect(programKind(cfg.programs, ['mytui', 'project'])).toBe('session');
    expect(kind(['mytui', 'project'])).toBe('one-shot');
  });
});

describe('injectShellIntegration', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const scratch = () => {
    const d = mkdtempSync(join(tmpdir(), 'ts-inject-'));
    dirs.push(d);
    return d;
  };

  it('bash: --init-file of a file that reads ~/.bashrc, then the snippet; a login shell reads the login files instead', () => {
    const dir = scratch();
    const plain = injectShellIntegration(['bash'], {}, dir)!;
    expect(plain.argv).toEqual(['bash', '--init-file', join(dir, 'bash', 'init.bash')]);
    expect(plain.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(plain.env).toEqual({ [BASH_LOGIN_ENV]: null, [MARK_NONCE_ENV]: plain.nonce });
    const text = readFileSync(join(dir, 'bash', 'init.bash'), 'utf8');
    expect(text).toContain('. ~/.bashrc');
    expect(text).toContain('133;C');
    expect(statSync(join(dir, 'bash', 'init.bash')).mode & 0o777).toBe(0o600);
    const login = injectShellIntegration(['/bin/bash', '-l', '-i'], {}, dir)!;
    expect(login.argv).toEqual(['/bin/bash', '--init-file', join(dir, 'bash', 'init.bash'), '-i']);
    expect(login.env).toEqual({ [BASH_LOGIN_ENV]: '1', [MARK_NONCE_ENV]: login.nonce });
    // Each session its own nonce: one session's marks replayed in another are forged there.
    expect(login.nonce).not.toBe(plain.nonce);
  });

  it('zsh: a ZDOTDIR of ours that hands back the person\'s own', () => {
    const dir = scratch();
    const z = injectShellIntegration(['zsh'], { ZDOTDIR: '/home/me/.config/zsh' }, dir)!;
    expect(z.argv).toEqual(['zsh']);
    expect(z.env).toEqual({ ZDOTDIR: join(dir, 'zsh'), [USER_ZDOTDIR_ENV]: '/home/me/.config/zsh', [MARK_NONCE_ENV]: z.nonce });
    expect(injectShellIntegration(['zsh'], {}, dir)!.env[USER_ZDOTDIR_ENV]).toBeNull();
    for (const f of ['.zshenv', '.zprofile', '.zshrc', '.zlogin']) expect(readFileSync(join(dir, 'zsh', f), 'utf8')).toContain(`source \${ZDOTDIR:-$HOME}/${f}`);
  });

  it('fish: an init command that sources the snippet', () => {
    const dir = scratch();
    const f = injectShellIntegration(['fish', '-l'], {}, dir)!;
    expect(f.argv).toEqual(['fish', '-l', '--init-command', `source '${join(dir, 'fish', 'init.fish')}'`]);
    expect(f.env).toEqual({ [MARK_NONCE_ENV]: f.nonce });
  });

  it('shells started in ways that cannot be mirrored, and other programs, are started as they are', () => {
    const dir = scratch();
    for (const argv of [['bash', '--norc'], ['bash', '--rcfile', 'x'], ['bash', '--posix'], ['zsh', '-f'], ['fish', '-C', 'echo hi'], ['sh'], ['python3'], ['bash', '-c', 'true']]) {
      expect(injectShellIntegration(argv, {}, dir), argv.join(' ')).toBeNull();
    }
  });
});
