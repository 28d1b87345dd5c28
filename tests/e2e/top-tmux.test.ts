// `termsupervisor top` the way a person uses it: in a real terminal (a tmux pane, typed into with send-keys and
// read with capture-pane), against a real daemon with real `run` panes in PTYs: the fake menu agent
// (tests/helpers/fake-menu-agent.py, which logs every key it reads) and two bash. Sorting by urgency, the filter,
// ack, reply, interrupt, answering the agent's numbered menu and a shell's [y/N] (the keys reach the programs), and
// quitting — or being killed — gives the terminal back: alternate screen left, cursor shown, the shell's prompt.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, BIN, ROOT } from './harness.js';
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
const MENU_AGENT = join(ROOT, 'tests', 'helpers', 'fake-menu-agent.py');

/** What the fake agent read while showing its menu, joined. */
function menuKeys(log: string): string {
  if (!existsSync(log)) return '';
  const reads = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { keys: string; screen: string });
  return reads.filter((r) => r.screen === 'menu').map((r) => r.keys).join('');
}

async function panes(dm: DaemonProcess): Promise<PaneView[]> {
  return dm.get<PaneView[]>('/api/panes');
}

/** A daemon, the fake agent at its menu and two bash panes under `run` (one asking [y/N], one DONE), and a tmux
 * pane with a shell to run top in. */
async function rig() {
  const d = s.dirs();
  const dm = await s.daemon(d);
  const keysLog = join(d.dir, 'menu-keys.jsonl');
  const menu = await s.pane(dm, d, ['python3', MENU_AGENT, '--log', keysLog, '--work', '0.3'], { name: 'menu' });
  await menu.w.waitOutput('the agent input box', (o) => o.includes('> '));
  menu.w.term.write('deploy it\r');
  await until('menu WAITING_APPROVAL with its options', async () => (await panes(dm)).find((p) => p.name === 'menu' && p.state === 'WAITING_APPROVAL' && p.question?.options.length === 3), () => menu.w.diag() + dm.diag());
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
  return { d, dm, menu, keysLog, asker, quiet, tmux, term, screen, rows, see, start };
}

describe.skipIf(missing !== null)('termsupervisor top in a terminal', () => {
  it('sorts, filters, acks, replies, interrupts and quits, giving the terminal back', async () => {
    const r = await rig();
    await r.start();
    expect(r.tmux.show(r.term, '#{alternate_on} #{cursor_flag}')).toBe('1 0');
    // the questions first (newest first), then DONE
    const list = r.rows().slice(2, 5);
    expect(list[0]).toMatch(/^▶\? WAITING_APPROVAL +\d+s +asker +shell +asks: .*Delete 3 stale branches\? \[y\/N\]/);
    expect(list[1]).toMatch(/^ \? WAITING_APPROVAL +\d+s +menu +\S+ +asks: Do you want to run `make deploy`\?/);
    expect(list[2]).toMatch(/^ ✓ DONE +\d+s +quiet +shell +finished/);
    expect(r.rows()[ROWS - 3]).toMatch(/^ answer: y .* n /);

    // filter by name: only that pane; Esc brings the rest back
    r.tmux.keys(r.term, '/');
    await r.see('the filter line', (rows) => rows[ROWS - 1]!.startsWith('filter'));
    r.tmux.run('send-keys', '-t', r.term, '-l', 'qui');
    await r.see('only quiet listed', (rows) => rows[0]!.includes('filter: qui (1)') && rows[2]!.includes('quiet') && !rows.some((l) => l.includes('asker')));
    r.tmux.keys(r.term, 'Escape');
    await r.see('all listed again', (rows) => !rows[0]!.includes('filter') && rows.slice(2, 5).join('\n').includes('asker'));

    // ack the DONE pane: it goes IDLE on the daemon and on screen
    r.tmux.keys(r.term, 'j', 'j');
    await r.see('quiet selected', (rows) => /^▶✓ DONE .*quiet/.test(rows[4]!));
    r.tmux.keys(r.term, 'a');
    await r.see('quiet IDLE', (rows) => rows.some((l) => /○ IDLE .*quiet/.test(l)) && rows[ROWS - 2]!.includes('acknowledged quiet'));
    expect((await panes(r.dm)).find((p) => p.name === 'quiet')!.state).toBe('IDLE');

    // reply to the pane at rest: a line typed at the bottom goes in as a prompt and starts a run
    r.tmux.keys(r.term, 'r');
    await r.see('the reply line', (rows) => rows[ROWS - 1]!.startsWith('reply to quiet>'));
    expect(r.tmux.show(r.term, '#{cursor_flag}')).toBe('1');
    r.tmux.run('send-keys', '-t', r.term, '-l', 'sleep 30; echo never');
    r.tmux.keys(r.term, 'Enter');
    // the person sees it running (top's own feed, not the API) before acting on it
    await r.see('quiet running the reply', (rows) => rows.some((l) => /^▶(◐ RUNNING|◕ LONG_RUNNING) .*quiet/.test(l)));
    expect(r.quiet.w.output).toContain('sleep 30; echo never');
    // interrupt it, after a y/n
    r.tmux.keys(r.term, 'i');
    await r.see('the confirmation', (rows) => rows[ROWS - 1]!.startsWith('interrupt quiet? y/n'));
    r.tmux.keys(r.term, 'y');
    await r.see('the notice', (rows) => rows[ROWS - 2]!.includes('interrupted quiet (keys: Ctrl-C)'));
    await until('quiet stopped', async () => !['RUNNING', 'LONG_RUNNING'].includes((await panes(r.dm)).find((p) => p.name === 'quiet')!.state), r.dm.diag);
    const quietActions = await r.dm.get<ActionView[]>(`/api/panes/${encodeURIComponent(r.quiet.pane)}/actions?limit=5`);
    expect(quietActions.map((a) => [a.kind, a.origin])).toEqual([['interrupt', 'top'], ['reply', 'top'], ['ack', 'top']]);

    // quit: the shell's screen is back with top's exit status, the cursor shown
    r.tmux.keys(r.term, 'q');
    await r.see('the shell back', (rows) => rows.some((l) => l === 'top-exit:0'));
    expect(r.tmux.show(r.term, '#{alternate_on} #{cursor_flag}')).toBe('0 1');
    expect(r.screen()).toMatch(/top-exit:0\n\$ ?$/m);
    expect(r.screen()).not.toContain('termsupervisor top ·');
  });

  it("answers a menu with its digit and a [y/N] with y: the programs get the options' keys; history says top", async () => {
    const r = await rig();
    await r.start();
    const [menu, asker] = ['menu', 'asker'].map(async (n) => (await panes(r.dm)).find((p) => p.name === n)!);
    // pick the agent through the filter, then its option 2: exactly that option's keys reach it (↓ Enter)
    r.tmux.keys(r.term, '/');
    r.tmux.run('send-keys', '-t', r.term, '-l', 'menu');
    r.tmux.keys(r.term, 'Enter');
    await r.see('menu selected', (rows) => /^▶\? WAITING_APPROVAL .*menu/.test(rows[2]!) && rows[ROWS - 3]!.includes('2 Yes, and don'));
    r.tmux.keys(r.term, '2');
    await until('the menu agent to read option 2', async () => menuKeys(r.keysLog) === '\x1b[B\r', () => JSON.stringify(menuKeys(r.keysLog)) + r.screen());
    await r.menu.w.waitOutput('the agent picking 2', (o) => o.includes("picked 2: Yes, and don't ask again"));
    await r.see('the notice', (rows) => rows[ROWS - 2]!.includes("answered menu: Yes, and don't ask again"));
    const menuActions = await r.dm.get<ActionView[]>(`/api/panes/${encodeURIComponent((await menu).id)}/actions?limit=5`);
    expect(menuActions[0]).toMatchObject({ kind: 'answer', origin: 'top', rev: (await menu).rev, keys: '↓ Enter' });

    // the shell's question: y types y and Enter
    r.tmux.keys(r.term, 'Escape');
    await r.see('the filter cleared', (rows) => !rows[0]!.includes('filter'));
    r.tmux.keys(r.term, '/');
    r.tmux.run('send-keys', '-t', r.term, '-l', 'asker');
    r.tmux.keys(r.term, 'Enter');
    await r.see('asker selected', (rows) => /^▶\? WAITING_APPROVAL .*asker/.test(rows[2]!));
    r.tmux.keys(r.term, 'y');
    await r.asker.w.waitOutput('the answer reaching bash', (o) => o.includes('got:y'));
    await until('asker leaves WAITING', async () => (await panes(r.dm)).find((p) => p.name === 'asker' && p.state !== 'WAITING_APPROVAL'), r.dm.diag);
    const askerActions = await r.dm.get<ActionView[]>(`/api/panes/${encodeURIComponent((await asker).id)}/actions?limit=5`);
    expect(askerActions[0]).toMatchObject({ kind: 'answer', origin: 'top', rev: (await asker).rev });
  });

  it('follows a resize; a SIGTERM ends top with the terminal given back (raw mode off: the shell echoes again)', async () => {
    const r = await rig();
    await r.start();
    r.tmux.run('resize-window', '-t', r.term, '-x', '80', '-y', '14');
    await r.see('the frame redrawn at 80x14', (rows) => rows.length >= 14 && rows[13]!.startsWith(' ↑↓/jk move') && TITLE.test(rows[0]!) && rows[1]!.includes('PROGRAM'));
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
