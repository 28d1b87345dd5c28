// `termsupervisor shell-integration`: the snippet the BUILT command prints, sourced (twice, beside the person's own
// prompt hook) by a real bash, zsh and fish in a real terminal under `termsupervisor run`; the detector must see
// Tier 1 transitions from it, each command must be marked once, and a non-interactive shell must get nothing.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt, BIN, scratch, testEnv, Wrapped, type LogLine } from './harness.js';

const run = promisify(execFile);
// The marks, with the session's nonce on them where `run` injected the integration too (zsh -d here).
const ESC_D = /\x1b\]133;D;(\d+)(?:;nonce=[0-9a-f]+)?\x07/g;
const ESC_A = /\x1b\]133;A(?:;nonce=[0-9a-f]+)?\x07/g;

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
  if (!ok) console.warn(`\n*** ${shell} is not installed: its shell-integration tests are SKIPPED (apt-get install ${shell}) ***\n`);
}

const open: Wrapped[] = [];
const dirs: Array<() => void> = [];
beforeAll(() => assertBuilt());
afterEach(() => {
  for (const w of open.splice(0)) w.kill();
  for (const c of dirs.splice(0)) c();
});

async function snippetFile(dir: string, shell: string): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, 'shell-integration', shell]);
  const file = join(dir, `integration.${shell}`);
  writeFileSync(file, stdout);
  return file;
}

const tier1 = (state: string) => (e: LogLine) => e.state === state && e.tier === 1;
const count = (s: string, re: RegExp) => [...s.matchAll(re)].length;

/** Each shell: how to start it interactively with an rc file that has its own hook and sources our snippet twice. */
const SETUPS: Record<'bash' | 'zsh' | 'fish', (dir: string, file: string) => { argv: string[]; env: Record<string, string>; hookCheck: string; hookSays: RegExp }> = {
  bash: (dir, file) => {
    const rc = join(dir, 'bashrc');
    // set -u: the snippet must not trip over unset variables in a strict shell.
    writeFileSync(rc, `set -u\nPS1='$ '\n__mine=0\nPROMPT_COMMAND='__mine=$((__mine+1))'\nsource ${file}\nsource ${file}\n`);
    return { argv: ['bash', '--noprofile', '--rcfile', rc, '-i'], env: {}, hookCheck: 'echo "mine=$__mine"', hookSays: /mine=[1-9]/ };
  },
  zsh: (dir, file) => {
    const zdot = join(dir, 'zdot');
    mkdirSync(zdot);
    writeFileSync(join(zdot, '.zshrc'), `setopt nounset\nPS1='%% '\n__mine=0\nmine_precmd() { __mine=$((__mine+1)); return 7 }\nprecmd_functions+=(mine_precmd)\nsource ${file}\nsource ${file}\n`);
    return { argv: ['zsh', '-d', '-i'], env: { ZDOTDIR: zdot }, hookCheck: 'echo "mine=$__mine"', hookSays: /mine=[1-9]/ };
  },
  fish: (_dir, file) => ({
    argv: ['fish', '--no-config', '-i', '-C', `set -g __mine 0; function mine --on-event fish_prompt; set -g __mine (math $__mine + 1); end; source ${file}; source ${file}`],
    env: {},
    hookCheck: 'echo mine=$__mine',
    hookSays: /mine=[1-9]/,
  }),
};

describe.each(['bash', 'zsh', 'fish'] as const)('shell-integration %s', (shell) => {
  it.skipIf(!HAVE[shell])('gives Tier 1 RUNNING/DONE/FAILED in a real terminal, marks each command once, keeps the own hook', async () => {
    const s = scratch();
    dirs.push(s.cleanup);
    const file = await snippetFile(s.dir, shell);
    const setup = SETUPS[shell](s.dir, file);
    const w = new Wrapped(s.log, ['--name', shell, '--', ...setup.argv], testEnv(s.dir, setup.env));
    open.push(w);
    await w.waitOutput('the first prompt mark', (o) => count(o, ESC_A) >= 1);

    await w.typeLine('sleep 0.3');
    const running = await w.transition('Tier 1 RUNNING', tier1('RUNNING'));
    const done = await w.transition('Tier 1 DONE', tier1('DONE'), running);
    await w.typeLine('false');
    const failed = await w.transition('Tier 1 FAILED', tier1('FAILED'), done);
    await w.typeLine('true');
    const doneAgain = await w.transition('Tier 1 DONE after true', tier1('DONE'), failed);
    const tr = w.transitions();
    expect(tr[running]!.rule).toMatch(/^osc133\./);
    expect(tr[done]!.rule).toBe('osc133.command_finished');
    expect(tr[failed]!.rule).toBe('osc133.command_failed');
    expect(tr[doneAgain]!.rule).toBe('osc133.command_finished');

    // Sourced twice, yet one D per command, with its status, and one A per prompt.
    await w.waitOutput('the prompt after true', (o) => count(o, ESC_A) >= 4);
    expect([...w.output.matchAll(ESC_D)].map((m) => m[1]), w.diag()).toEqual(['0', '1', '0']);
    // An empty line runs nothing: a new prompt, no D.
    w.term.write('\r');
    await w.waitOutput('the prompt after an empty line', (o) => count(o, ESC_A) >= 5);
    expect(count(w.output, ESC_D)).toBe(3);
    // The person's own prompt hook still ran.
    await w.typeLine(setup.hookCheck);
    await w.waitOutput('the own hook counter', (o) => setup.hookSays.test(o));
    // No complaint from the shell about the snippet (strict mode, hooks, syntax).
    expect(w.output, w.diag()).not.toMatch(/unbound variable|parameter not set|command not found|parse error|syntax error|Unknown command/i);
    await w.typeLine('exit');
    await w.exited();
  });

  it.skipIf(!HAVE[shell])('does nothing in a non-interactive shell', async () => {
    const s = scratch();
    dirs.push(s.cleanup);
    const file = await snippetFile(s.dir, shell);
    const probe = {
      bash: ['bash', '-c', `source ${file}; true; echo "end \${PROMPT_COMMAND-unset} \${PS0-unset}"`],
      zsh: ['zsh', '-d', '-c', `source ${file}; true; print -r -- "end \${precmd_functions-unset} \${preexec_functions-unset}"`],
      fish: ['fish', '--no-config', '-c', `source ${file}; true; functions -q __termsupervisor_postexec; and echo end defined; or echo end unset unset`],
    }[shell];
    const { stdout, stderr } = await run(probe[0]!, probe.slice(1), { env: testEnv(s.dir) });
    expect(stdout).toBe('end unset unset\n');
    expect(stderr).toBe('');
  });
});

describe('shell-integration arguments', () => {
  it('refuses an unknown shell or option with exit 2 and a message', async () => {
    for (const args of [['tcsh'], [], ['bash', '--bogus'], ['bash', '--rc', '/tmp/x']]) {
      const r = await run(process.execPath, [BIN, 'shell-integration', ...args]).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/termsupervisor: /);
    }
  });
});

