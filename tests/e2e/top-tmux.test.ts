// `termsupervisor top` the way a person uses it: in a real terminal (a tmux pane, typed into with send-keys and
// read with capture-pane), against a real daemon with real `run` panes (bash in PTYs). Sorting by urgency, the
// filter, ack, answering a shell's [y/N] question (its keys reach the program), and quitting — or being killed —
// gives the terminal back: alternate screen left, cursor shown, the shell's prompt under the command line.
import { describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from './harness.js';
import { until, type DaemonProcess } from './daemon-harness.js';
import { taskScratch } from './task-harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import type { ActionView, PaneView } from '../../src/web/api-types.js';

assertBuilt();
const missing = tmuxMissing();
if (missing) console.warn(`top tmux tests SKIPPED: ${missing}`);
const s = taskScratch();

const COLS = 120;
const ROWS = 24;
const TITLE = /^ termsupervisor top · /;

async function panes(dm: DaemonProcess): Promise<PaneView[]> {
  return dm.get<PaneView[]>('/api/panes');
}

/** A daemon, two bash panes under `run` (one asking a [y/N] question, one DONE), and a tmux pane with a shell. */
async function rig() {
  const d = s.dirs();
  const dm = await s.daemon(d);
  const asker = await s.pane(dm, d, ['bash', '--norc', '--noprofile'], { name: 'asker', agent: 'auto' });
  const quiet = await s.pane(dm, d, ['bash', '--norc', '--noprofile'], { name: 'quiet', agent: 'auto' });
  await asker.w.waitOutput('the asker prompt', (o) => o.includes('$ '));
  await quiet.w.waitOutput('the quiet prompt', (o) => o.includes('$ '));
  await quiet.w.typeLine('true');
  await until('quiet DONE', async () => (await panes(dm)).find((p) => p.name === 'quiet' && p.state === 'DONE'), dm.diag);
  await asker.w.typeLine('read -p "Delete 3 stale branches? [y/N] " a; echo "got:$a"');
  await until('asker WAITING_APPROVAL', async () => (await panes(dm)).find((p) => p.name === 'asker' && p.state === 'WAITING_APPROVAL'), () => asker.w.diag() + dm.diag());
  const tmux = new TestTmux(d.env);
  s.cleanups.push(() => tmux.kill(true));
  const term = tmux.newSession('top', BASH, COLS, ROWS);
  await until('the tmux shell prompt', async () => /^\$ ?$/m.test(tmux.screen(term)), () => tmux.screen(term));
  const screen = () => tmux.screen(term);
  const rows = () => screen().split('\n');
  /** Waits until the screen satisfies `pred` (each key's effect is awaited on screen, never on a clock). */
  const see = (what: string, pred: (rows: string[]) => boolean, ms?: number) => until(what, async () => pred(rows()), () => screen() + dm.diag(), ms);
  const start = async () => {
    tmux.type(term, `node ${BIN} top; echo "top-exit:$?"`);
    await see('top on screen', (r) => TITLE.test(r[0]!) && r.some((l) => l.includes('quiet')));
  };
  return { d, dm, asker, quiet, tmux, term, screen, rows, see, start };
}

describe.skipIf(missing !== null)('termsupervisor top in a terminal', () => {
  it('sorts, filters, acks and quits, giving the terminal back', async () => {
    const r = await rig();
    await r.start();
    expect(r.tmux.show(r.term, '#{alternate_on} #{cursor_flag}')).toBe('1 0');
    // the question first, selected; then DONE
    const list = r.rows().slice(2, 4);
    expect(list[0]).toMatch(/^▶\? WAITING_APPROVAL +\d+s +asker +shell +asks: .*Delete 3 stale branches\? \[y\/N\]/);
    expect(list[1]).toMatch(/^ ✓ DONE +\d+s +quiet +shell +finished/);
    expect(r.rows()[ROWS - 3]).toMatch(/^ answer: y .* n /);

    // filter by name: only that pane; Esc brings the rest back
    r.tmux.keys(r.term, '/');
    await r.see('the filter line', (rows) => rows[ROWS - 1]!.startsWith('filter'));
    r.tmux.run('send-keys', '-t', r.term, '-l', 'qui');
    await r.see('only quiet listed', (rows) => rows[0]!.includes('filter: qui (1)') && rows[2]!.includes('quiet') && !rows.some((l) => l.includes('asker')));
    r.tmux.keys(r.term, 'Escape');
    await r.see('both listed again', (rows) => !rows[0]!.includes('filter') && rows.slice(2, 4).join('\n').includes('asker'));

    // ack the DONE pane: it goes IDLE on the daemon and on screen, and history says top did it
    r.tmux.keys(r.term, 'j');
    await r.see('quiet selected', (rows) => /^▶✓ DONE .*quiet/.test(rows[3]!));
    r.tmux.keys(r.term, 'a');
    await r.see('quiet IDLE', (rows) => rows.some((l) => /○ IDLE .*quiet/.test(l)) && rows[ROWS - 2]!.includes('acknowledged quiet'));
    expect((await panes(r.dm)).find((p) => p.name === 'quiet')!.state).toBe('IDLE');

    // quit: the shell's screen is back with top's exit status, the cursor shown
    r.tmux.keys(r.term, 'q');
    await r.see('the shell back', (rows) => rows.some((l) => l === 'top-exit:0'));
    expect(r.tmux.show(r.term, '#{alternate_on} #{cursor_flag}')).toBe('0 1');
    expect(r.screen()).toMatch(/top-exit:0\n\$ ?$/m);
    expect(r.screen()).not.toContain('termsupervisor top ·');
  });

  it("answers the selected pane's question with y: the program gets the keys and history says top sent them", async () => {
    const r = await rig();
    await r.start();
    const asker = (await panes(r.dm)).find((p) => p.name === 'asker')!;
    r.tmux.keys(r.term, 'y');
    await r.asker.w.waitOutput('the answer reaching bash', (o) => o.includes('got:y'));
    await r.see('the notice', (rows) => rows[ROWS - 2]!.includes('answered asker'));
    await until('asker leaves WAITING', async () => (await panes(r.dm)).find((p) => p.id === asker.id && p.state !== 'WAITING_APPROVAL'), r.dm.diag);
    const actions = await r.dm.get<ActionView[]>(`/api/panes/${encodeURIComponent(asker.id)}/actions?limit=5`);
    expect(actions[0]).toMatchObject({ kind: 'answer', origin: 'top', rev: asker.rev });
  });

  it('a SIGTERM ends top with the terminal given back (raw mode off: the shell echoes again)', async () => {
    const r = await rig();
    await r.start();
    const shellPid = r.tmux.show(r.term, '#{pane_pid}');
    const { execFileSync } = await import('node:child_process');
    const topPid = execFileSync('ps', ['-o', 'pid=', '--ppid', shellPid], { encoding: 'utf8' }).trim().split(/\s+/)[0]!;
    process.kill(Number(topPid), 'SIGTERM');
    await r.see('the shell back', (rows) => rows.some((l) => l === 'top-exit:143'));
    expect(r.tmux.show(r.term, '#{alternate_on} #{cursor_flag}')).toBe('0 1');
    r.tmux.type(r.term, 'echo typed-after');
    await r.see('the shell echoing and running again', (rows) => rows.filter((l) => l.includes('typed-after')).length === 2);
  });
});
