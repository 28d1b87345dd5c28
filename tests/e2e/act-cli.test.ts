// The pane action commands against a real daemon and real `run` panes (the fake menu agent, which logs every key
// it reads, and bash): answer by option id or y/n, a stale --rev refused with exit 3 and nothing typed, an option
// not offered refused with exit 2 and the options listed, send at rest (a prompt that starts a turn) and refused
// while running, interrupt, ack one pane and --all, --json output, and every action in history as sent by `cli`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, BIN, ROOT } from './harness.js';
import { runCli, until, type DaemonProcess } from './daemon-harness.js';
import { taskScratch } from './task-harness.js';
import type { ActionResult, ActionView, PaneView } from '../../src/web/api-types.js';

assertBuilt();
const s = taskScratch();
const MENU_AGENT = join(ROOT, 'tests', 'helpers', 'fake-menu-agent.py');

function keysRead(log: string, screen?: string): string {
  if (!existsSync(log)) return '';
  const reads = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { keys: string; screen: string });
  return reads.filter((r) => !screen || r.screen === screen).map((r) => r.keys).join('');
}

async function pane(dm: DaemonProcess, name: string): Promise<PaneView> {
  return (await dm.get<PaneView[]>('/api/panes')).find((p) => p.name === name)!;
}

describe('send, answer, interrupt, ack, focus', () => {
  it('answer: stale --rev refused (exit 3, nothing typed), an option not offered (exit 2), then option 2 typed; history says cli', async () => {
    const d = s.dirs();
    const dm = await s.daemon(d);
    const cli = (...args: string[]) => runCli([process.execPath, BIN, ...args], d.env);
    const log = join(d.dir, 'keys.jsonl');
    const agent = await s.pane(dm, d, ['python3', MENU_AGENT, '--log', log, '--work', '0.3'], { name: 'menu' });
    await agent.w.waitOutput('the agent input box', (o) => o.includes('> '));
    // not waiting yet: answering is refused as the wrong state
    const early = await cli('answer', 'menu', '1');
    expect(early.code).toBe(3);
    agent.w.term.write('deploy it\r');
    const asked = await until('the menu read', async () => ((await pane(dm, 'menu')).question?.options.length === 3 ? pane(dm, 'menu') : null), dm.diag);
    const before = keysRead(log).length;

    const stale = await cli('answer', 'menu', '2', '--rev', String(asked.rev! - 1));
    expect(stale.code).toBe(3);
    expect(stale.stderr).toMatch(/^termsupervisor answer: menu \[run-[^\]]+\]: refused: the pane changed — look again: WAITING_APPROVAL \(rev \d+\)\n  it asks: Do you want to run `make deploy`\?\n  options: 1 Yes · 2 Yes, and don't ask again for make commands · 3 No/);
    const offered = await cli('answer', 'menu', '7');
    expect(offered.code).toBe(2);
    expect(offered.stderr).toMatch(/options: 1 Yes · 2 Yes/);
    expect(keysRead(log).length).toBe(before);

    const ok = await cli('answer', agent.pane, '2', '--json');
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const result = JSON.parse(ok.stdout) as ActionResult;
    // Without --rev the answer is for the screen as the command read it: the one asked, or a later read of it (a
    // late redraw of the same menu moves the revision on a loaded machine).
    expect(result.action).toMatchObject({ kind: 'answer', origin: 'cli', keys: '↓ Enter' });
    expect(result.action.rev).toBeGreaterThanOrEqual(asked.rev!);
    await until('the agent to read ↓ Enter', async () => keysRead(log, 'menu') === '\x1b[B\r', () => JSON.stringify(keysRead(log)));
    const history = await dm.get<ActionView[]>(`/api/panes/${encodeURIComponent(agent.pane)}/actions?limit=10`);
    expect(history[0]).toMatchObject({ kind: 'answer', origin: 'cli', from: expect.stringMatching(/127\.0\.0\.1/) });
  });

  it('send at rest types a prompt; while running it is refused; interrupt stops the run; ack and ack --all', async () => {
    const d = s.dirs();
    const dm = await s.daemon(d);
    const cli = (...args: string[]) => runCli([process.execPath, BIN, ...args], d.env);
    const sh = await s.pane(dm, d, ['bash', '--norc', '--noprofile'], { name: 'sh', agent: 'auto' });
    const other = await s.pane(dm, d, ['bash', '--norc', '--noprofile'], { name: 'other', agent: 'auto' });
    await sh.w.waitOutput('the prompt', (o) => o.includes('$ '));
    await other.w.waitOutput('the prompt', (o) => o.includes('$ '));

    const sent = await cli('send', 'sh', 'sleep 30; echo never');
    expect(sent.stderr).toBe('');
    expect(sent.stdout).toMatch(/^sent to sh \[run-[^\]]+\].* keys: .*sleep 30; echo never.*Enter/);
    await until('sh running', async () => ['RUNNING', 'LONG_RUNNING'].includes((await pane(dm, 'sh')).state), dm.diag);
    const busy = await cli('send', 'sh', 'echo hi');
    expect(busy.code).toBe(3);
    expect(busy.stderr).toMatch(/refused: .*RUNNING|LONG_RUNNING/);

    const stopped = await cli('interrupt', 'sh', '--json');
    expect(stopped.code).toBe(0);
    expect((JSON.parse(stopped.stdout) as ActionResult).action).toMatchObject({ kind: 'interrupt', origin: 'cli', keys: 'Ctrl-C' });
    await until('sh back at rest', async () => ['DONE', 'FAILED', 'IDLE'].includes((await pane(dm, 'sh')).state), () => sh.w.diag() + dm.diag());
    expect(sh.w.output).not.toMatch(/\nnever\r\n/); // the command's echo has it, its output must not

    await other.w.typeLine('true');
    await until('other DONE', async () => (await pane(dm, 'other')).state === 'DONE', dm.diag);
    const one = await cli('ack', 'other');
    expect(one).toMatchObject({ code: 0, stdout: expect.stringMatching(/^acknowledged other \[run-/) });
    expect((await pane(dm, 'other')).state).toBe('IDLE');
    await other.w.typeLine('true');
    await until('other DONE again', async () => (await pane(dm, 'other')).state === 'DONE', dm.diag);
    const all = await cli('ack', '--all', '--json');
    expect(all.code).toBe(0);
    const acked = JSON.parse(all.stdout) as PaneView[];
    expect(acked.map((p) => p.name).sort()).toEqual((await dm.get<PaneView[]>('/api/panes')).filter((p) => p.alive && acked.some((a) => a.id === p.id)).map((p) => p.name).sort());
    expect(acked.some((p) => p.name === 'other')).toBe(true);
    for (const p of await dm.get<PaneView[]>('/api/panes')) expect(p.needsYou, p.name).toBe(false);
    expect((await cli('ack', '--all')).stdout).toBe('no pane needs you\n');
    const history = await dm.get<ActionView[]>(`/api/panes/${encodeURIComponent(sh.pane)}/actions?limit=10`);
    // (sh may have been acked by --all too, when its interrupted run ended DONE or FAILED)
    expect(history.filter((a) => a.kind !== 'ack').map((a) => [a.kind, a.origin])).toEqual([['interrupt', 'cli'], ['reply', 'cli']]);
  });

  // Issue 26 items 8 and 10: `ack --all` acknowledged questions too (they came back at once, their waiting time
  // reset); a FAILED shell with its prompt back refused a reply, though FAILED is at rest.
  it('ack --all leaves a question waiting; a FAILED pane takes a reply', async () => {
    const d = s.dirs();
    const dm = await s.daemon(d);
    const cli = (...args: string[]) => runCli([process.execPath, BIN, ...args], d.env);
    const log = join(d.dir, 'keys.jsonl');
    const agent = await s.pane(dm, d, ['python3', MENU_AGENT, '--log', log, '--work', '0.3'], { name: 'menu' });
    const sh = await s.pane(dm, d, ['bash', '--norc', '--noprofile'], { name: 'sh', agent: 'auto' });
    await agent.w.waitOutput('the agent input box', (o) => o.includes('> '));
    await sh.w.waitOutput('the prompt', (o) => o.includes('$ '));
    agent.w.term.write('deploy it\r');
    const asked = await until('the menu read', async () => ((await pane(dm, 'menu')).state === 'WAITING_APPROVAL' ? pane(dm, 'menu') : null), dm.diag);
    // The marks one failing command makes (shell integration, Tier 1): a prompt, its start, its end with exit 1.
    await sh.w.typeLine("printf '\\e]133;A\\a\\e]133;C\\a'; sleep 1; printf '\\e]133;D;1\\a\\e]133;A\\a$ \\e]133;B\\a'");
    await until('sh FAILED', async () => (await pane(dm, 'sh')).state === 'FAILED', () => sh.w.diag() + dm.diag());

    const reply = await cli('send', 'sh', 'echo replied-after-failure');
    expect(reply.stderr).toBe('');
    expect(reply.code).toBe(0);
    await sh.w.waitOutput('the reply to run', (o) => /\rreplied-after-failure\r?\n/.test(o));
    await until('sh DONE', async () => (await pane(dm, 'sh')).state === 'DONE', () => sh.w.diag() + dm.diag());

    const all = await cli('ack', '--all');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^acknowledged sh \[run-/);
    expect(all.stdout).toContain('left 1 waiting for an answer (menu)');
    const still = await pane(dm, 'menu');
    expect(still).toMatchObject({ state: 'WAITING_APPROVAL', needsYou: true, since: asked.since });
    const history = await dm.get<ActionView[]>(`/api/panes/${encodeURIComponent(agent.pane)}/actions?limit=10`);
    expect(history.filter((a) => a.kind === 'ack')).toEqual([]);
  });

  it('no such pane: exit 2 with the known panes; bad --rev: exit 2; no daemon: exit 1', async () => {
    const d = s.dirs();
    const dm = await s.daemon(d);
    const cli = (...args: string[]) => runCli([process.execPath, BIN, ...args], d.env);
    const none = await cli('focus', 'nope');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no pane "nope"/);
    expect((await cli('answer', 'x', '1', '--rev', 'soon')).code).toBe(2);
    expect((await cli('send', 'x')).code).toBe(2);
    await dm.stop();
    const gone = await cli('ack', '--all');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/daemon/);
  });
});

