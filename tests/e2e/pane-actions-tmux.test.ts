// Acting on a tmux pane (issue 15): `termsupervisor daemon --tmux-socket` on a real tmux server whose pane runs
// tests/helpers/fake-menu-agent.py --ask yn (a line-mode "[y/N]" question; it logs every key it reads). The option's
// keys and the interrupt reach the program through tmux — named keys (Ctrl-C, Esc, arrows) by tmux's key names,
// text literally — and nothing goes in on a stale revision. No timed assertions.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { ROOT } from './harness.js';
import { pythonMissing, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { keyBytes } from '../../src/daemon/typed-keys.js';
import type { ActionResult, PaneView } from '../../src/web/api-types.js';

const AGENT = join(ROOT, 'tests', 'helpers', 'fake-menu-agent.py');
const missing = tmuxMissing() ?? (pythonMissing() ? 'python3 is missing' : null);
if (missing) console.warn(`tmux pane action tests SKIPPED: ${missing}`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

beforeAll(() => ensureBuilt(), 120_000);

const keysRead = (log: string): string[] =>
  existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { keys: string }).keys) : [];

describe.skipIf(missing)('pane actions on a tmux pane', () => {
  it('answers with the option keys and interrupts through tmux; a stale revision types nothing', async () => {
    const d = daemonDirs();
    cleanups.push(() => d.cleanup());
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    const log = join(d.dir, 'keys.jsonl');
    const p = tmux.newSession('work', `python3 ${AGENT} --log ${log} --work 1 --menus 2 --ask yn`);
    const dm = await DaemonProcess.start(d, ['--tmux-socket', tmux.socket]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const id = tmux.paneId(p);
    let last: unknown = null;
    const diag = () => `${dm.diag()}\nscreen:\n${tmux.screen(p)}\nkeys: ${JSON.stringify(keysRead(log))}\npane: ${JSON.stringify(last)}`;
    const pane = async () => (last = await dm.get<PaneView>(`/api/panes/${encodeURIComponent(id)}`)) as PaneView;
    const act = async (what: string, body: unknown) => {
      const r = await fetch(`${dm.url}/api/panes/${encodeURIComponent(id)}/${what}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dm.token}`, 'content-type': 'application/json', 'x-termsupervisor-client': 'top' },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as ActionResult & { error: string } };
    };
    await until('the pane at its input box', async () => ((await pane().catch(() => null))?.edge.some((l) => l.trim() === '>') ? true : null), diag);
    tmux.type(p, 'deploy it');
    const asked = await until('the question on a waiting pane', async () => {
      const v = await pane();
      return v.state === 'WAITING_APPROVAL' && v.question ? v : null;
    }, diag);
    expect(asked.question).toEqual({
      text: 'Deploy to production? [y/N]',
      options: [
        { id: 'y', label: 'Yes', keys: 'y Enter' },
        { id: 'n', label: 'No (default)', keys: 'n Enter' },
      ],
    });
    const option = asked.question!.options[0]!;

    const before = keysRead(log).length;
    expect((await act('answer', { option: 'y', rev: asked.rev - 1 })).status).toBe(409);
    const now = await pane();
    const ok = await act('answer', { option: 'y', rev: now.rev });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.action).toMatchObject({ kind: 'answer', origin: 'top', keys: option.keys });
    // Exactly the option's keys, through tmux, and none from the refused request.
    await until('the agent to take the answer', async () => (tmux.screen(p).includes('picked 1: Yes') ? true : null), diag);
    expect(keysRead(log).slice(before).join('')).toBe(keyBytes(option.keys).join(''));

    // The second question of the turn: cancelled by the interrupt key (a waiting pane takes one; a shell's is Ctrl-C).
    const again = await until('the second question', async () => {
      const v = await pane();
      return v.state === 'WAITING_APPROVAL' && v.question && v.rev > ok.body.pane.rev ? v : null;
    }, diag);
    const stopped = await act('interrupt', { rev: again.rev });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(stopped.body.action).toMatchObject({ kind: 'interrupt', keys: 'Ctrl-C' });
    await until('the agent to read Ctrl-C', async () => (keysRead(log).includes('\x03') ? true : null), diag);
  }, 90_000);
});
