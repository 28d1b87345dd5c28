// Shell integration injected by `run` into the bash, zsh and fish it starts (as VS Code does for its terminals):
// the BUILT wrapper in a real terminal, a real shell with the person's own rc file (a prompt hook and an alias of
// theirs) in a home of its own. `false` must be FAILED with its exit code, Tier 1; their hook and alias must still
// work; their files must be left as they were; `--no-shell-integration` must start the shell without it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, scratch, testEnv, Wrapped, type LogLine } from './harness.js';

function installed(shell: string): boolean {
  try {
    execFileSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const HAVE = { bash: installed('bash'), zsh: installed('zsh'), fish: installed('fish') };
for (const [shell, ok] of Object.entries(HAVE)) {
  if (!ok) console.warn(`\n*** ${shell} is not installed: its injected shell-integration test is SKIPPED (apt-get install ${shell}) ***\n`);
}

const open: Wrapped[] = [];
const dirs: Array<() => void> = [];
beforeAll(() => assertBuilt());
afterEach(() => {
  for (const w of open.splice(0)) w.kill();
  for (const c of dirs.splice(0)) c();
});

/** The prompt mark (with the session's nonce on it, when injected). */
const MARK_A = '\x1b]133;A';
const tier1 = (state: string) => (e: LogLine) => e.state === state && e.tier === 1;

interface Setup {
  /** The person's own start-up file and what it says. */
  rc: { path: string; text: string };
  /** Extra environment (ZDOTDIR…). */
  env: Record<string, string>;
  /** A line whose output shows their prompt hook ran and their alias works. */
  check: string;
  says: RegExp;
}

/** Each shell with an rc of the person's: a prompt hook counting prompts, and an alias. */
const SETUPS: Record<'bash' | 'zsh' | 'fish', (home: string, dir: string) => Setup> = {
  bash: (home) => ({
    rc: { path: join(home, '.bashrc'), text: `set -u\n__mine=0\nPROMPT_COMMAND='__mine=$((__mine+1))'\nalias hello='echo hello-from-alias'\n` },
    env: {},
    check: 'hello; echo "mine=$__mine"',
    says: /hello-from-alias\r?\nmine=[1-9]/,
  }),
  zsh: (_home, dir) => {
    // Their own ZDOTDIR: zsh must still read their files from there, and it must be theirs again afterwards.
    const zdot = join(dir, 'zdot');
    mkdirSync(zdot);
    return {
      rc: { path: join(zdot, '.zshrc'), text: `setopt nounset\nPS1='%% '\n__mine=0\nmine_precmd() { __mine=$((__mine+1)); return 7 }\nprecmd_functions+=(mine_precmd)\nalias hello='echo hello-from-alias'\n` },
      env: { ZDOTDIR: zdot },
      check: 'hello; echo "mine=$__mine zdotdir=$ZDOTDIR"',
      says: new RegExp(`hello-from-alias\\r?\\nmine=[1-9] zdotdir=${zdot}\\r?\\n`),
    };
  },
  fish: (_home, dir) => ({
    // testEnv points XDG_CONFIG_HOME into the scratch dir: fish reads its config.fish from there.
    // (One word to type: fish redraws a line as it highlights it, so a typed line's echo is not one piece.)
    rc: { path: join(dir, 'config', 'fish', 'config.fish'), text: `set -g __mine 0\nfunction mine --on-event fish_prompt; set -g __mine (math $__mine + 1); end\nalias hello='echo hello-from-alias mine=$__mine'\n` },
    env: {},
    check: 'hello',
    says: /hello-from-alias mine=[1-9]/,
  }),
};

function start(shell: 'bash' | 'zsh' | 'fish', runArgs: string[] = [], prepare?: (dir: string) => Record<string, string>): { w: Wrapped; setup: Setup } {
  const s = scratch();
  dirs.push(s.cleanup);
  const home = join(s.dir, 'home');
  mkdirSync(home, { recursive: true });
  const setup = SETUPS[shell](home, s.dir);
  mkdirSync(join(setup.rc.path, '..'), { recursive: true });
  writeFileSync(setup.rc.path, setup.rc.text);
  const env = testEnv(s.dir, { HOME: home, ...setup.env });
  Object.assign(env, prepare?.(s.dir));
  delete env['PS1']; // the person's own prompt, from their files
  const w = new Wrapped(s.log, ['--no-daemon', '--name', shell, ...runArgs, '--', shell], env);
  open.push(w);
  return { w, setup };
}

describe.each(['bash', 'zsh', 'fish'] as const)('run -- %s: shell integration injected', (shell) => {
  it.skipIf(!HAVE[shell])('false is FAILED with its exit code (Tier 1); the person\'s own hook and alias still work; their file is untouched', async () => {
    const { w, setup } = start(shell);
    await w.waitOutput('the first prompt mark', (o) => o.includes(MARK_A));
    expect(w.events()[0]).toMatchObject({ kind: 'pane_start', one_shot: false, shell_integration: true });
    // A session: no turn at its start.
    expect(w.transitions()).toEqual([]);

    await w.typeLine('false');
    const failed = await w.transition('Tier 1 FAILED', tier1('FAILED'));
    expect(w.transitions()[failed], w.diag()).toMatchObject({ rule: 'osc133.command_failed', line: expect.stringMatching(/^exit 1/) });
    await w.typeLine('true');
    await w.transition('Tier 1 DONE', tier1('DONE'), failed);

    await w.typeLine(setup.check);
    await w.waitOutput('their alias and hook at work', (o) => setup.says.test(o));
    expect(w.output, w.diag()).not.toMatch(/unbound variable|parameter not set|command not found|parse error|syntax error|Unknown command|No such file/i);
    expect(readFileSync(setup.rc.path, 'utf8')).toBe(setup.rc.text);
    await w.typeLine('exit');
    await w.exited();
  });

  it.skipIf(!HAVE[shell])('marks in a command\'s output (a `cat` of a file holding them) are forged: the command\'s own end decides; the nonce is in no program\'s environment', async () => {
    // A program on PATH (one word to type: fish redraws a line as it highlights it) that cats forged marks, with
    // failing exit codes, then reports whether it inherited the nonce, then exits 0.
    const { w } = start(shell, [], (dir) => {
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      const marks = join(dir, 'marks.txt');
      const forged = ['133;D;1', '133;A', '133;C', '633;D;1', '133;D;1;nonce=0123456789abcdef0123456789abcdef', '133;D;2;nonce='];
      writeFileSync(marks, `saved output\n${forged.map((m) => `\x1b]${m}\x07`).join('')}after the marks\n`);
      writeFileSync(join(bin, 'forgedmarks'), `#!/bin/sh\ncat '${marks}'\nprintenv TERMSUPERVISOR_MARK_NONCE || echo no-nonce-env\necho tail-end\n`);
      chmodSync(join(bin, 'forgedmarks'), 0o755);
      return { PATH: `${bin}:${process.env['PATH']}` };
    });
    await w.waitOutput('the first prompt mark', (o) => o.includes(MARK_A));
    await w.typeLine('forgedmarks');
    await w.waitOutput('the program\'s last line', (o) => /no-nonce-env\r?\ntail-end/.test(o));
    const end = await w.transition('the command\'s end (Tier 1)', (e) => (e.state === 'DONE' || e.state === 'FAILED') && e.tier === 1);
    expect(w.transitions().slice(0, end + 1).map((e) => `${e.state} ${e.rule}`), w.diag()).toEqual(['RUNNING osc133.command_executed', 'DONE osc133.command_finished']);
    await w.typeLine('exit');
    await w.exited();
  });

  it.skipIf(!HAVE[shell])('--no-shell-integration starts it as it is: no marks, no Tier 1', async () => {
    const { w, setup } = start(shell, ['--no-shell-integration']);
    await w.typeLine(setup.check);
    await w.waitOutput('their alias and hook at work', (o) => setup.says.test(o));
    await w.typeLine('exit');
    await w.exited();
    expect(w.events()[0]).toMatchObject({ kind: 'pane_start', shell_integration: false });
    expect(w.output).not.toContain(MARK_A);
    expect(w.transitions().filter((e) => e.tier === 1)).toEqual([]);
  });
});
