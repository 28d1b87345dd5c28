// `daemon` with `remotes` against a real OpenSSH server (Debian's sshd on 127.0.0.1, keys made in a temp folder)
// serving a real tmux server, next to a local tmux server: the remote panes are read through `ssh … tmux -C`
// exactly as local ones, the link is cut and comes back, an unknown host key is refused, typing is gated per remote.
// The "remote" tmux server runs on this machine, reached only through sshd (its socket path is the remote's
// `socket`), so everything between the daemon and it is the real ssh path.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until, type DaemonDirs } from './daemon-harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';
import { tmuxSocketDir } from '../../src/attach/tmux/tmux-socket.js';
import { sshMissing, TestSshd } from '../helpers/ssh-server.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const missing = tmuxMissing() ?? sshMissing();
if (missing) console.warn(`\n\n*** remote ssh tests SKIPPED: ${missing} ***\n`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

beforeAll(() => ensureBuilt(), 120_000);

interface Remote {
  name: string;
  tmux: TestTmux;
  allowTyping: boolean;
}

async function setup(opts: { know?: boolean; remotes: Array<{ name: string; allowTyping?: boolean }> }) {
  const d: DaemonDirs = daemonDirs();
  cleanups.push(() => d.cleanup());
  const sshd = await TestSshd.start(join(d.dir, 'ssh'), opts.know ?? true);
  cleanups.push(() => sshd.stop());
  const local = new TestTmux(d.env);
  cleanups.push(() => local.kill(true));
  const remotes: Remote[] = opts.remotes.map((r) => {
    const tmux = new TestTmux(d.env);
    cleanups.push(() => tmux.kill(true));
    return { name: r.name, tmux, allowTyping: r.allowTyping ?? false };
  });
  const cfg = join(d.dir, 'remote.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      ssh: { ssh_command: sshd.sshCommand() },
      remotes: remotes.map((r) => ({
        name: r.name,
        destination: sshd.destination,
        identity_file: sshd.key,
        socket: join(tmuxSocketDir(d.env), r.tmux.socket),
        allow_typing: r.allowTyping,
      })),
    }),
  );
  mkdirSync(join(d.dir, 'state'), { recursive: true });
  const start = async () => {
    const dm = await DaemonProcess.start(d, ['--tmux-socket', local.socket, '--config', cfg]);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    return dm;
  };
  return { d, sshd, local, remotes, start, log: () => readDaemonLog(d) };
}

function readDaemonLog(d: DaemonDirs): string {
  try {
    return readFileSync(join(d.dir, 'state', 'termsupervisor', 'daemon.log'), 'utf8');
  } catch {
    return '';
  }
}

const panes = (dm: DaemonProcess) => dm.get<PaneView[]>('/api/panes');
const pane = async (dm: DaemonProcess, id: string) => (await panes(dm)).find((p) => p.id === id);
/** Oldest first. */
const transitions = async (dm: DaemonProcess, id: string) => (await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(id)}/transitions?limit=1000`)).reverse();
/** The state changes only (the link's gap rows keep the state). */
const changes = async (dm: DaemonProcess, id: string) => (await transitions(dm, id)).filter((t) => !t.rule.startsWith('host.'));

async function states(dm: DaemonProcess, id: string, want: string[], from = 0, timeoutMs = 30_000): Promise<TransitionView[]> {
  let last: TransitionView[] = [];
  await until(
    `${id}: ${want.join(' → ')}`,
    async () => {
      last = (await changes(dm, id)).slice(from);
      return last.length >= want.length;
    },
    () => `got: ${last.map((t) => `${t.to} (${t.rule}: ${t.line})`).join(', ')}\n${dm.diag()}`,
    timeoutMs,
  );
  expect(last.map((t) => t.to), last.map((t) => `${t.to} ${t.rule} ${t.line}`).join('\n')).toEqual(want);
  return last;
}

/** A script that asks, then works a little after the answer. */
const YES_NO = `echo "checking"
sleep 1
read -r -p "Proceed? [y/N] " ans
echo "answer: $ans"
sleep 1
echo "installed"
`;

/** Waits until the pane is attached and seeded, then runs a no-op so bash's prompt is known (see tmux-daemon.test). */
async function ready(dm: DaemonProcess, tmux: TestTmux, pane: string, id: string): Promise<void> {
  await until(`${id} attached and seeded`, async () => (await panes(dm)).some((p) => p.id === id && p.alive && p.edge.some((l) => l.trim() !== '')), dm.diag);
  tmux.type(pane, ':');
  await states(dm, id, ['RUNNING', 'DONE']);
}

describe.skipIf(missing !== null)('daemon with remotes (real sshd, real tmux)', () => {
  it('follows a remote server over ssh as a local one: same states, host on the pane, typing refused where not allowed', async () => {
    const { d, local, remotes, start } = await setup({ remotes: [{ name: 'devbox' }, { name: 'gpu', allowTyping: true }] });
    const script = join(d.dir, 'ask.sh');
    writeFileSync(script, YES_NO);
    const [devbox, gpu] = remotes as [Remote, Remote];
    const l = local.newSession('work', BASH, 100, 30);
    const r = devbox.tmux.newSession('work', BASH, 100, 30);
    const g = gpu.tmux.newSession('gpu', BASH, 100, 30);
    const dm = await start();
    const lid = local.paneId(l);
    const rid = `devbox:${r}`;
    const gid = `gpu:${g}`;
    await ready(dm, local, l, lid);
    await ready(dm, devbox.tmux, r, rid);
    expect(await pane(dm, rid)).toMatchObject({ name: 'work:0.0', attach: 'ssh', host: 'devbox', program: 'shell', alive: true });
    expect((await pane(dm, lid))!.host).toBeUndefined();

    // The same commands in both panes: the same states.
    for (const [tmux, p] of [[local, l], [devbox.tmux, r]] as const) tmux.type(p, 'sleep 1; echo finished');
    const lt = await states(dm, lid, ['RUNNING', 'DONE'], 2);
    const rt = await states(dm, rid, ['RUNNING', 'DONE'], 2);
    expect(rt.map((t) => t.rule)).toEqual(lt.map((t) => t.rule));
    for (const [tmux, p] of [[local, l], [devbox.tmux, r]] as const) tmux.type(p, `bash ${script}`);
    const la = await states(dm, lid, ['RUNNING', 'WAITING_APPROVAL'], 4);
    const ra = await states(dm, rid, ['RUNNING', 'WAITING_APPROVAL'], 4);
    expect(ra[1]!.line).toContain('Proceed? [y/N]');
    expect(ra.map((t) => t.rule)).toEqual(la.map((t) => t.rule));
    // Answering the remote's question from the API is typing: refused (403, nothing typed), as its config says.
    const asking = (await pane(dm, rid))!;
    const answer = await fetch(`${dm.url}/api/panes/${encodeURIComponent(rid)}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${dm.token}` },
      body: JSON.stringify({ option: asking.question?.options[0]?.id ?? 'y', rev: asking.rev }),
    });
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { error: string }).error).toMatch(/devbox.*allow_typing/);
    expect((await pane(dm, rid))!.state).toBe('WAITING_APPROVAL');
    for (const [tmux, p] of [[local, l], [devbox.tmux, r]] as const) tmux.type(p, 'y');
    await states(dm, lid, ['RUNNING', 'DONE'], 6);
    await states(dm, rid, ['RUNNING', 'DONE'], 6);

    // Typing: refused with 403 and the reason for devbox (allow_typing false); accepted for gpu, whose pane gets the keys.
    const task = (paneId: string) =>
      fetch(`${dm.url}/api/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${dm.token}` },
        body: JSON.stringify({ pane: paneId, prompt: 'echo typed-by-a-task', maxIterations: 1 }),
      });
    const refused = await task(rid);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/devbox.*allow_typing/);
    await ready(dm, gpu.tmux, g, gid);
    const accepted = await task(gid);
    expect(accepted.status, await accepted.clone().text()).toBe(201);
    await until('the task prompt on the gpu pane', async () => gpu.tmux.screen(g).includes('typed-by-a-task'), dm.diag);
    expect(devbox.tmux.screen(r)).not.toContain('typed-by-a-task');
  });

  it('a dropped link marks the remote panes unreachable within 5 s, keeps their state, and repaints them on reconnect', async () => {
    const { local, remotes, sshd, start } = await setup({ remotes: [{ name: 'devbox' }] });
    const devbox = remotes[0]!;
    const l = local.newSession('work', BASH, 100, 30);
    const r = devbox.tmux.newSession('work', BASH, 100, 30);
    const r2 = devbox.tmux.split(r, BASH);
    const dm = await start();
    const lid = local.paneId(l);
    const rid = `devbox:${r}`;
    const rid2 = `devbox:${r2}`;
    await ready(dm, devbox.tmux, r, rid);
    await ready(dm, devbox.tmux, r2, rid2);
    await until('the local pane', async () => (await pane(dm, lid))?.alive, dm.diag);
    const before = (await pane(dm, rid))!;
    expect(before.state).toBe('DONE');

    const cut = Date.now();
    await sshd.down(); // sshd and its sessions killed: the daemon's ssh master loses its connection
    const marked = await until('the remote panes marked unreachable', async () => {
      const ps = await panes(dm);
      const rs = ps.filter((p) => p.host === 'devbox');
      return rs.length === 2 && rs.every((p) => p.unreachable) ? ps : null;
    }, dm.diag);
    for (const p of marked.filter((x) => x.host === 'devbox')) {
      expect(p.unreachable!.since - cut).toBeLessThan(5000);
      expect(p.unreachable!.reason).not.toBe('');
      expect(p.alive).toBe(true);
    }
    // Its last state is kept (stale), the local pane is not touched.
    expect(marked.find((p) => p.id === rid)).toMatchObject({ state: before.state, rule: before.rule });
    expect(marked.find((p) => p.id === lid)!.unreachable).toBeUndefined();

    // Meanwhile the remote pane runs a command nobody can see.
    devbox.tmux.type(r, 'echo while-the-link-was-down');
    await sshd.resume();
    const back = await until('the remote panes back, repainted', async () => {
      const p = await pane(dm, rid);
      return p && !p.unreachable && p.edge.some((x) => x.includes('while-the-link-was-down')) ? p : null;
    }, dm.diag, 90_000);
    expect(back.alive).toBe(true);
    await until('the second pane back', async () => !(await pane(dm, rid2))?.unreachable, dm.diag);
    // The gap is in history: a row where it began (with ssh's reason) and one where it ended.
    const rows = await transitions(dm, rid);
    const gap = rows.filter((t) => t.rule.startsWith('host.'));
    expect(gap.map((t) => t.rule)).toEqual(['host.unreachable', 'host.reachable']);
    expect(gap[0]!.from).toBe(before.state);
    expect(gap[1]!.line).toMatch(/^unreachable for \d+s since /);
    // And the stream is live again: new output reaches the pane.
    devbox.tmux.type(r2, 'echo after-the-gap');
    await until('output after the gap', async () => (await pane(dm, rid2))?.edge.some((x) => x.includes('after-the-gap')), dm.diag);
  });

  it('a link that goes silent (no close, no reply) is seen by the keep-alives within 5 s; a new connection brings the panes back', async () => {
    const { remotes, sshd, start } = await setup({ remotes: [{ name: 'devbox' }] });
    const devbox = remotes[0]!;
    const r = devbox.tmux.newSession('work', BASH, 100, 30);
    const dm = await start();
    const rid = `devbox:${r}`;
    await ready(dm, devbox.tmux, r, rid);
    const cut = Date.now();
    expect(sshd.freezeSessions().length).toBeGreaterThan(0);
    const marked = await until('the pane marked unreachable', async () => (await pane(dm, rid))?.unreachable, dm.diag);
    expect(marked.since - cut).toBeLessThan(5000);
    expect(marked.reason).toMatch(/not responding|was lost/);
    // sshd still listens: the first retry opens a new connection, and the pane is repainted from it.
    devbox.tmux.type(r, 'echo after-the-silence');
    await until('the pane back, repainted', async () => {
      const p = await pane(dm, rid);
      return p && !p.unreachable && p.edge.some((x) => x.includes('after-the-silence'));
    }, dm.diag);
  });

  it('refuses a host whose key is unknown, with ssh’s error and the command that accepts the key', async () => {
    const { remotes, sshd, start, log } = await setup({ know: false, remotes: [{ name: 'devbox' }] });
    remotes[0]!.tmux.newSession('work', BASH, 100, 30);
    const dm = await start();
    const line = await until('the refusal in the log', async () => log().split('\n').find((x) => x.includes('Host key verification failed')), () => log() + dm.diag());
    expect(line).toContain(`ssh-keyscan -p ${sshd.port} 127.0.0.1 >> ~/.ssh/known_hosts`);
    expect(line).toMatch(/No ED25519 host key is known for \[127\.0\.0\.1\]:\d+/);
    expect((await panes(dm)).filter((p) => p.host === 'devbox')).toEqual([]);
  });
});
