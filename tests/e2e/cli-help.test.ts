// The BUILT command's help, as a new user meets it, from a directory that is not the project: every command lists
// every option its parser accepts, with examples; `help <command>` and `<command> --help` agree; unknown options
// and commands are refused with exit 2 and a pointer to the help.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt, BIN, ROOT } from './harness.js';
import { START_VALUES } from '../../src/cli/task.js';

const run = promisify(execFile);
beforeAll(() => assertBuilt());

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [BIN, ...args], { cwd: '/' }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/** The options a command's parser accepts, read from its source (`parseArgs(argv, { values: [...], flags: [...] })`,
 * with `multiple: [...]` naming repeatable ones among the values). */
function parserOptions(file: string): string[] {
  const src = readFileSync(join(ROOT, 'src', 'cli', file), 'utf8');
  const spec = /parseArgs\(argv, \{ values: \[([^\]]*)\], flags: \[([^\]]*)\](?:, multiple: \[[^\]]*\])? \}\)/.exec(src);
  if (!spec) throw new Error(`no parseArgs spec in ${file}`);
  return [...`${spec[1]},${spec[2]}`.matchAll(/'([^']+)'/g)].map((m) => m[1]!).filter((o) => o !== 'help');
}

/** Every command, and the options it takes (hook and logs read their own arguments). */
const COMMANDS: Record<string, () => string[]> = {
  run: () => parserOptions('run.ts'),
  daemon: () => parserOptions('daemon.ts'),
  dashboard: () => parserOptions('dashboard.ts'),
  replay: () => parserOptions('replay.ts'),
  classify: () => parserOptions('classify.ts'),
  hooks: () => parserOptions('hooks.ts'),
  service: () => parserOptions('service.ts'),
  'shell-integration': () => parserOptions('shell-integration.ts'),
  hook: () => ['daemon', 'verbose'],
  logs: () => ['follow', 'pane', 'kind', 'file'],
  status: () => parserOptions('status.ts'),
  wait: () => parserOptions('wait.ts'),
  doctor: () => parserOptions('doctor.ts'),
  top: () => parserOptions('top/top.ts'),
  send: () => ['rev', 'json', 'daemon'],
  answer: () => ['rev', 'json', 'daemon'],
  interrupt: () => ['rev', 'json', 'daemon'],
  ack: () => ['all', 'json', 'daemon'],
  focus: () => ['json', 'daemon', 'next'],
  name: () => parserOptions('commands/name.ts'),
  tmux: () => [],
  task: () => [...START_VALUES, 'judge', 'json', 'limit', 'iterations', 'budget', 'daemon'],
};
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('termsupervisor --help', () => {
  it('lists every command with examples, however it is asked for', async () => {
    const outs = await Promise.all([cli('--help'), cli('-h'), cli('help'), cli()]);
    for (const r of outs) {
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(outs[0]!.stdout);
    }
    const top = outs[0]!.stdout;
    for (const cmd of [...Object.keys(COMMANDS), 'help', 'version']) expect(top).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    expect(top).toContain('examples:');
  });

  it('prints the version for --version, -V and version', async () => {
    for (const r of await Promise.all([cli('--version'), cli('-V'), cli('version')])) expect(r).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('refuses an unknown command with exit 2', async () => {
    const r = await cli('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
    expect((await cli('help', 'frobnicate')).code).toBe(2);
  });

  // Issue 26 item 20: a typo gets one line naming the likely command, not 60 lines of help.
  it('answers a mistyped command in one line with the command it likely meant', async () => {
    const [a, b, c] = await Promise.all([cli('stauts'), cli('dameon', '--port', '0'), cli('frobnicate')]);
    expect(a).toMatchObject({ code: 2, stdout: '' });
    expect(a.stderr).toBe(`termsupervisor: unknown command "stauts": did you mean status? (see 'termsupervisor --help')\n`);
    expect(b.stderr).toContain('did you mean daemon?');
    expect(c.stderr.trim().split('\n')).toHaveLength(1);
    expect(c.stderr).not.toContain('did you mean');
  });

  it('knows every command main dispatches, for "did you mean"', () => {
    const src = readFileSync(join(ROOT, 'src', 'cli', 'main.ts'), 'utf8');
    const dispatched = [...src.matchAll(/case '([a-z][a-z-]*)':/g)].map((m) => m[1]!);
    const known = [.../const COMMANDS = \[([^\]]*)\]/.exec(src)![1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    expect([...known].sort()).toEqual([...new Set(dispatched)].sort());
  });
});

describe.each(Object.keys(COMMANDS))('termsupervisor %s', (cmd) => {
  it('prints complete help with examples for --help and for help <command>', async () => {
    const [a, b] = await Promise.all([cli(cmd, '--help'), cli('help', cmd)]);
    expect(a.code).toBe(0);
    expect(b).toEqual(a);
    expect(a.stdout).toContain(`usage: termsupervisor ${cmd}`);
    expect(a.stdout).toMatch(/^examples?:$/m);
    for (const opt of COMMANDS[cmd]!()) expect(a.stdout, `--${opt}`).toContain(`--${opt}`);
  });

  it('refuses an unknown option with exit 2 and a message (hook: ignores it, exit 0, as an agent needs)', async () => {
    const r = await cli(cmd, '--bogus-option');
    if (cmd === 'hook') {
      expect(r.code).toBe(0);
      return;
    }
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option --bogus-option');
    expect(r.stderr).toMatch(/help|usage:/);
  });
});
