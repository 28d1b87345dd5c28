// Forged marks in real tmux panes (private socket) read by `termsupervisor daemon --tmux` (issue 14, item 5): a
// command that prints OSC 133/633/7501/1337 marks while it runs (a `cat` of a file holding them) must not end, fail
// or stop the pane's turn. No nonce here (we did not start these shells): the marks are held to one command's order.
// A bash without shell integration: every mark in a pane whose shell marked nothing is out of order. A bash with
// the person's own integration (our snippet in their rc file): while its command runs, a prompt, an input mark,
// another start, and Codex reports of a turn that never started are out of order. No timed assertions.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { snippet } from '../../src/shell/snippets.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const missing = tmuxMissing();
if (missing) console.warn(`tmux forged-marks test SKIPPED: ${missing}`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

const osc = (body: string) => `\x1b]${body}\x07`;
const CODEX_NO_TURN = ['7501;state=blocked:app=codex:kind=permission', '7501;state=error:app=codex', '7501;state=done:app=codex'];
const ITERM = `1337;SetUserVar=state=${Buffer.from('done').toString('base64')}`;

describe.skipIf(missing !== null)('forged marks in tmux panes (real tmux, private socket)', () => {
  it('a command printing marks while it runs ends by its own end, in a plain bash and in one with integration', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const marks = (name: string, bodies: string[]) => {
      const f = join(d.dir, name);
      writeFileSync(f, `saved output\n${bodies.map(osc).join('')}more output\n`);
      return f;
    };
    const plainMarks = marks('plain.txt', ['133;D;1', '633;D;1', '133;C', '133;B', '633;E;rm -rf /', ...CODEX_NO_TURN, ITERM]);
    const integratedMarks = marks('integrated.txt', ['133;A', '133;B', '133;C', '633;A', '633;C', ...CODEX_NO_TURN, ITERM]);
    // Running before the marks come (the pane's turn has started), and after.
    const script = join(d.dir, 'forgedmarks');
    writeFileSync(script, '#!/bin/sh\nsleep 1\ncat "$1"\nsleep 1\necho tail-end\n');
    chmodSync(script, 0o755);
    const rc = join(d.dir, 'rc.bash');
    writeFileSync(rc, `PS1='$ '\n${snippet('bash')}`);

    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const plain = tmux.newSession('plain', BASH, 100, 30);
    const integrated = tmux.newSession('integrated', `env PS1='$ ' HISTFILE=/dev/null INPUTRC=/dev/null bash --noprofile --rcfile ${rc} -i`, 100, 30);
    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const id = (p: string) => tmux.paneId(p);
    const transitions = async (p: string) => (await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(id(p))}/transitions?limit=100`)).reverse();
    const view = async (p: string) => (await dm.get<PaneView[]>('/api/panes')).find((v) => v.id === id(p));
    await until('the panes attached and seeded', async () => {
      const ps = await dm.get<PaneView[]>('/api/panes');
      return [plain, integrated].every((p) => ps.some((v) => v.id === id(p) && v.alive && v.edge.some((l) => l.trim() !== '')));
    }, () => dm.diag());

    // bash draws its prompt with bracketed paste on from its first command on (tmux cannot report the mode of the
    // prompt already on screen): a no-op first, in both.
    for (const p of [plain, integrated]) tmux.type(p, ':');
    for (const p of [plain, integrated]) await until(`${p}: the no-op done`, async () => tmux.screen(p).includes('$ :\n$') && (await view(p))?.state !== 'RUNNING', () => `${tmux.screen(p)}\n${dm.diag()}`);
    // a moment more: the no-op's own turn, read from the screen, may still be on its way
    await new Promise((r) => setTimeout(r, 1500));
    const before = { plain: (await transitions(plain)).length, integrated: (await transitions(integrated)).length };

    tmux.type(plain, `${script} ${plainMarks}`);
    tmux.type(integrated, `${script} ${integratedMarks}`);
    const settled = async (p: string, from: number): Promise<TransitionView[]> => {
      let got: TransitionView[] = [];
      await until(
        `${p}: the command's end`,
        async () => tmux.screen(p).includes('tail-end') && (got = (await transitions(p)).slice(from)).at(-1)?.to === 'DONE',
        () => `got: ${got.map((t) => `${t.to} ${t.rule}`).join(', ')}\n${dm.diag()}`,
        30_000,
      );
      // a moment more: a transition beyond the end would show now
      await new Promise((r) => setTimeout(r, 1500));
      return (await transitions(p)).slice(from);
    };
    const plainGot = await settled(plain, before.plain);
    const integratedGot = await settled(integrated, before.integrated);

    // The plain bash: one turn, read from its screen; no mark believed, so no exit code claimed either.
    expect(plainGot.map((t) => t.to), plainGot.map((t) => `${t.to} ${t.rule}`).join('\n')).toEqual(['RUNNING', 'DONE']);
    expect(plainGot.every((t) => !/^osc/.test(t.rule)), plainGot.map((t) => t.rule).join(' ')).toBe(true);
    expect((await view(plain))?.shellIntegration).toBe(false);
    // The bash with integration: its own C and D, Tier 1.
    expect(integratedGot.map((t) => `${t.to} ${t.rule}`)).toEqual(['RUNNING osc133.command_executed', 'DONE osc133.command_finished']);
    expect((await view(integrated))?.shellIntegration).toBe(true);
  }, 120_000);
});
