// Acting on a pane through the daemon (issue 15), end to end: a real daemon, a real `run` wrapper (its own pty)
// running tests/helpers/fake-menu-agent.py, which logs every key it reads. Answering option 2 delivers exactly its
// keys (↓ Enter: a program with no profile of its own is answered with arrows) and the pane leaves WAITING_APPROVAL;
// an answer on a stale revision types nothing; a reply starts a turn; an interrupt sends the program's interrupt
// key; every action is in GET /api/panes/:id/actions with who and from where, and on /ws.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { ROOT, waitFor } from './harness.js';
import { daemonScratch, DaemonProcess, runWrapper, until } from './daemon-harness.js';
import type { ActionResult, ActionView, PaneView, StaleActionView } from '../../src/web/api-types.js';

const AGENT = join(ROOT, 'tests', 'helpers', 'fake-menu-agent.py');
const { cleanups, dirs } = daemonScratch();

beforeAll(() => ensureBuilt(), 120_000);

interface KeyRead {
  keys: string;
  screen: string;
}

function keysRead(log: string): KeyRead[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as KeyRead);
}

async function setup(agentArgs: string[] = []) {
  const d = dirs();
  const dm = await DaemonProcess.start(d);
  cleanups.push(async () => void (await dm.stop('SIGKILL')));
  const feed = await dm.feed();
  cleanups.push(() => feed.ws.close());
  const log = join(d.dir, 'keys.jsonl');
  const w = runWrapper(d, ['--name', 'menu', '--agent', 'generic'], ['python3', AGENT, '--log', log, ...agentArgs]);
  cleanups.push(() => void w.kill('SIGKILL'));
  const diag = () => `${dm.diag()}\nwrapper:\n${w.out}\nkeys: ${JSON.stringify(keysRead(log))}`;
  const first = await waitFor('the pane to join', () => feed.messages.find((m) => m.type === 'pane')?.['pane'] as PaneView | undefined, diag);
  const id = first.id;
  const pane = () => dm.get<PaneView>(`/api/panes/${id}`);
  const act = async (what: string, body: unknown, client = 'dashboard') => {
    const r = await fetch(`${dm.url}/api/panes/${id}/${what}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${dm.token}`, 'content-type': 'application/json', 'x-termsupervisor-client': client },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as ActionResult & StaleActionView & { error: string } };
  };
  const waitState = (state: string) => until(`the pane to be ${state}`, async () => ((await pane()).state === state ? pane() : null), diag);
  return { d, dm, feed, log, w, id, pane, act, waitState, diag };
}

describe('pane actions through the daemon', () => {
  it('answers option 2 with exactly its keys, refuses a stale revision without typing, and keeps both in history', async () => {
    const s = await setup();
    // The wrapper's stdin is the person's keyboard: a prompt starts the turn that ends at the approval menu.
    await until('the agent at its input box', async () => ((await s.pane()).edge.join('\n').includes('> ') ? true : null), s.diag);
    s.w.stdin!.write('deploy it\r');
    const waiting = await s.waitState('WAITING_APPROVAL');
    const asked = await until('the question read from the screen', async () => (await s.pane()).question, s.diag);
    expect(asked.text).toBe('Do you want to run `make deploy`?');
    expect(asked.options.map((o) => [o.id, o.label, o.keys])).toEqual([
      ['1', 'Yes', 'Enter'],
      ['2', "Yes, and don't ask again for make commands", '↓ Enter'],
      ['3', 'No, and tell the agent what to do differently', '↓ ↓ Enter'],
    ]);
    expect(waiting.rev).toBeGreaterThan(0);

    // A stale revision: 409 with the fresh pane, and the agent read nothing.
    const before = keysRead(s.log).length;
    const now = await s.pane();
    const stale = await s.act('answer', { option: '2', rev: now.rev - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('the pane changed — look again');
    expect(stale.body.pane).toMatchObject({ id: s.id, state: 'WAITING_APPROVAL', rev: now.rev });
    // An option the question does not offer: 400, nothing typed.
    expect((await s.act('answer', { option: '7', rev: now.rev })).status).toBe(400);

    const ok = await s.act('answer', { option: '2', rev: now.rev });
    expect(ok.status).toBe(200);
    expect(ok.body.action).toMatchObject({ paneId: s.id, kind: 'answer', origin: 'dashboard', keys: '↓ Enter', detail: "Yes, and don't ask again for make commands", rev: now.rev });
    expect(ok.body.action.from).toMatch(/127\.0\.0\.1/);
    expect(ok.body.pane.rev).toBeGreaterThan(now.rev);
    await waitFor('the agent to pick 2', () => s.w.out.includes("picked 2: Yes, and don't ask again"), s.diag);
    // Exactly the option's keys reached the program, none from the refused requests.
    const menuKeys = keysRead(s.log).slice(before);
    expect(menuKeys.map((k) => k.keys).join('')).toBe('\x1b[B\r');
    expect(menuKeys.every((k) => k.screen === 'menu')).toBe(true);
    await until('the pane to leave WAITING_APPROVAL', async () => ((await s.pane()).state !== 'WAITING_APPROVAL' ? true : null), s.diag);

    // The same revision again is spent: refused, nothing typed.
    const again = await s.act('answer', { option: '1', rev: now.rev });
    expect(again.status).toBe(409);
    expect(keysRead(s.log).slice(before).map((k) => k.keys).join('')).toBe('\x1b[B\r');

    const history = await s.dm.get<ActionView[]>(`/api/panes/${s.id}/actions`);
    expect(history.map((a) => [a.kind, a.origin, a.keys])).toEqual([['answer', 'dashboard', '↓ Enter']]);
    expect(history[0]!.from).toMatch(/127\.0\.0\.1/);
    await waitFor('the action on the feed', () => s.feed.messages.some((m) => m.type === 'action' && (m['action'] as ActionView).kind === 'answer'), s.diag);
  }, 60_000);

  it('replies at rest (a turn starts), interrupts while working (Ctrl-C: a program with no profile), refuses the wrong state, and records ack', async () => {
    const s = await setup(['--work', '30']);
    // The program's start is read as a turn of its own: it rests (DONE or IDLE) at its input box.
    const idle = await until('the agent at rest at its input box', async () => {
      const p = await s.pane();
      return (p.state === 'IDLE' || p.state === 'DONE') && p.edge.join('\n').includes('> ') ? p : null;
    }, s.diag);
    // Not waiting: an answer is the wrong state (409), whatever the revision.
    expect((await s.act('answer', { option: '1', rev: idle.rev })).status).toBe(409);
    expect((await s.act('reply', { text: '   ', rev: idle.rev })).status).toBe(400);

    const replied = await s.act('reply', { text: 'run the tests', rev: idle.rev }, 'cli');
    expect(replied.status).toBe(200);
    expect(replied.body.action).toMatchObject({ kind: 'reply', origin: 'cli', keys: 'run the tests Enter', detail: 'run the tests' });
    const running = await s.waitState('RUNNING');
    expect(keysRead(s.log).map((k) => k.keys).join('')).toBe('run the tests\r');

    // A reply while it works: the wrong state.
    expect((await s.act('reply', { text: 'more', rev: running.rev })).status).toBe(409);
    // An interrupt made on a screen from before this state (the IDLE one) is stale.
    expect((await s.act('interrupt', { rev: idle.rev })).status).toBe(409);
    const now = await s.pane();
    const stopped = await s.act('interrupt', { rev: now.rev }, 'top');
    expect(stopped.status).toBe(200);
    expect(stopped.body.action).toMatchObject({ kind: 'interrupt', origin: 'top', keys: 'Ctrl-C' });
    await waitFor('the agent to read the interrupt', () => keysRead(s.log).some((k) => k.keys === '\x03'), s.diag);

    const acked = await fetch(`${s.dm.url}/api/panes/${s.id}/ack`, { method: 'POST', headers: { authorization: `Bearer ${s.dm.token}` } });
    expect(acked.status).toBe(200);
    const history = await s.dm.get<ActionView[]>(`/api/panes/${s.id}/actions?limit=10`);
    expect(history.map((a) => [a.kind, a.origin])).toEqual([
      ['ack', 'api'],
      ['interrupt', 'top'],
      ['reply', 'cli'],
    ]);
  }, 60_000);

  it('types a reply as text only: control characters are refused with nothing typed, a Tab and a new line go inside the paste', async () => {
    const s = await setup(['--work', '30']);
    const idle = await until('the agent at rest at its input box', async () => {
      const p = await s.pane();
      return (p.state === 'IDLE' || p.state === 'DONE') && p.edge.join('\n').includes('> ') ? p : null;
    }, s.diag);
    // Each would act rather than be read: end the paste early, interrupt, end input, Esc, Shift-Tab, erase the line.
    const hostile = ['ok\u001b[201~rm -rf ~\r', 'stop\u0003', 'bye\u0004', '\u001b', 'mode\u001b[Z', 'x\u0015y', 'del\u007f', 'csi\u009b2J'];
    for (const text of hostile) {
      const r = await s.act('reply', { text, rev: idle.rev });
      expect(r.status, JSON.stringify(text)).toBe(400);
      expect(r.body.error).toMatch(/^a reply is text: it holds a control character \(U\+00[0-9A-F]{2}, [^)]+\) at position \d+/);
    }
    // Still at rest and the same screen: nothing reached the program, nothing kept as an action.
    await new Promise((r) => setTimeout(r, 300));
    expect(keysRead(s.log)).toEqual([]);
    expect(await s.dm.get<ActionView[]>(`/api/panes/${s.id}/actions?limit=10`)).toEqual([]);

    const ok = await s.act('reply', { text: 'fix this:\n\tindented', rev: (await s.pane()).rev });
    expect(ok.status).toBe(200);
    // The bytes the program read: the text inside one bracketed paste, then Enter.
    await waitFor('the Enter after the paste', () => keysRead(s.log).some((k) => k.keys.endsWith('\r')), s.diag);
    expect(keysRead(s.log).map((k) => k.keys).join('')).toBe('\u001b[200~fix this:\n\tindented\u001b[201~\r');
  }, 60_000);
});
