// Several daemons, one board (issue 16), end to end: two real daemons on loopback ports. The peer runs a `run`
// pane (tests/helpers/fake-menu-agent.py asks for approval); the hub follows the peer (config `peers`) and shows
// that pane as `box:<its id>` with host "box", in the same states, with the same transitions kept in its own
// history. An ack made on the hub reaches the peer; typing is refused where the peer's allow_typing is false and
// forwarded (the peer's own 409 passing through) where it is true. Killing the peer marks its panes unreachable
// (last state kept), freezing it too (ping/pong), and a restarted peer brings them back. The peer's token is never
// in the hub's log, output, API, metrics or errors.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, ROOT, waitFor } from './harness.js';
import { daemonScratch, DaemonProcess, runCli, runWrapper, until, type DaemonDirs } from './daemon-harness.js';
import type { PaneView, TransitionView, ActionView } from '../../src/web/api-types.js';
import { PEER_PING_MS, PEER_PONG_TIMEOUT_MS } from '../../src/daemon/peer-link.js';

const AGENT = join(ROOT, 'tests', 'helpers', 'fake-menu-agent.py');
const { cleanups, dirs } = daemonScratch();

beforeAll(() => ensureBuilt(), 120_000);

/** The peer: a daemon with one `run` pane running the menu agent, its keys logged. */
async function startPeer(d: DaemonDirs, port = 0) {
  const peer = await DaemonProcess.start(d, ['--no-tmux', '--port', String(port)]);
  cleanups.push(async () => void (await peer.stop('SIGKILL')));
  return peer;
}

/** The hub: a daemon following the peer as "box" (config `peers`, or `--peer box=URL` when typing is not allowed);
 * the peer's token in a file of the hub's. */
async function startHub(peerUrl: string, peerToken: string, allowTyping: boolean, how: 'config' | 'cli') {
  const d = dirs();
  const tokenFile = join(d.dir, 'box.token');
  writeFileSync(tokenFile, peerToken + '\n', { mode: 0o600 });
  const cfgDir = join(d.dir, 'config', 'termsupervisor');
  mkdirSync(cfgDir, { recursive: true });
  if (how === 'config') writeFileSync(join(cfgDir, 'config.json'), JSON.stringify({ peers: [{ name: 'box', url: peerUrl, token_file: tokenFile, allow_typing: allowTyping }] }));
  else if (allowTyping) throw new Error('--peer does not allow typing: use the config');
  const hub = await DaemonProcess.start(d, ['--no-tmux', ...(how === 'cli' ? ['--peer', `box=${peerUrl}`, '--peer-token-file', tokenFile] : [])]);
  cleanups.push(async () => void (await hub.stop('SIGKILL')));
  return hub;
}

async function setup(allowTyping: boolean, how: 'config' | 'cli' = 'config') {
  const pd = dirs();
  const peer = await startPeer(pd);
  const log = join(pd.dir, 'keys.jsonl');
  const w = runWrapper(pd, ['--name', 'menu', '--agent', 'generic'], ['python3', AGENT, '--log', log]);
  cleanups.push(() => void w.kill('SIGKILL'));
  const hub = await startHub(peer.url, peer.token, allowTyping, how);
  const diag = () => `PEER ${peer.diag()}\nHUB ${hub.diag()}\nwrapper:\n${w.out}`;
  const theirs = await until('the pane on the peer', async () => (await peer.get<PaneView[]>('/api/panes')).find((p) => p.alive && p.name === 'menu'), diag);
  const id = `box:${theirs.id}`;
  const onHub = () => hub.get<PaneView>(`/api/panes/${encodeURIComponent(id)}`);
  const onPeer = () => peer.get<PaneView>(`/api/panes/${encodeURIComponent(theirs.id)}`);
  // The hub learns of the peer's panes on its first sync with it, a moment after it starts: until then the pane is a
  // 404 there, which the tests' probes would take for an answer.
  await until('the pane on the hub', async () => (await hub.get<PaneView[]>('/api/panes')).some((p) => p.id === id), diag);
  const post = async (what: string, body: unknown) => {
    const r = await fetch(`${hub.url}/api/panes/${encodeURIComponent(id)}/${what}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json', 'x-termsupervisor-client': 'dashboard' },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as { error?: string; pane?: PaneView; action?: ActionView; id?: string; state?: string } };
  };
  await until('the agent at its input box', async () => ((await onPeer()).edge.join('\n').includes('> ') ? true : null), diag);
  return { pd, peer, hub, w, log, theirs, id, onHub, onPeer, post, diag };
}

/** The states a pane went through, oldest first, and the rules that moved it. */
function path(ts: TransitionView[]): string[] {
  return ts.map((t) => `${t.from}>${t.to} ${t.rule}`).reverse();
}

describe('peer daemons: several daemons, one board', () => {
  it('refuses a --peer without its token file, or with credentials in its URL, before starting', async () => {
    const d = dirs();
    const alone = await runCli([process.execPath, BIN, 'daemon', '--no-tmux', '--port', '0', '--db', d.db, '--peer', 'http://127.0.0.1:9'], d.env);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('each --peer needs its --peer-token-file (in the same order): got 1 --peer and 0 --peer-token-file');
    const creds = await runCli([process.execPath, BIN, 'daemon', '--no-tmux', '--port', '0', '--db', d.db, '--peer', 'http://me:pw@127.0.0.1:9', '--peer-token-file', '/t'], d.env);
    expect(creds.code).toBe(2);
    expect(creds.stderr).toContain('a URL with a user or password is refused');
  });

  it("shows the peer's pane with its host in the same states, forwards the ack, refuses typing, and survives the peer going away", async () => {
    const s = await setup(false);
    const first = await until("the peer's pane on the hub", async () => (await s.hub.get<PaneView[]>('/api/panes')).find((p) => p.id === s.id), s.diag);
    expect(first).toMatchObject({ host: 'box', name: 'menu', alive: true });
    expect(first.unreachable).toBeUndefined();

    // A turn on the peer: the hub shows the same states, and keeps the peer's transitions (not its own analysis).
    s.w.stdin!.write('deploy it\r');
    await until('WAITING_APPROVAL on the peer', async () => ((await s.onPeer()).state === 'WAITING_APPROVAL' ? true : null), s.diag);
    const waiting = await until('WAITING_APPROVAL on the hub', async () => {
      const p = await s.onHub();
      return p.state === 'WAITING_APPROVAL' ? p : null;
    }, s.diag);
    expect(waiting.question?.options.length).toBe(3);
    const peerPath = path(await s.peer.get<TransitionView[]>(`/api/panes/${encodeURIComponent(s.theirs.id)}/transitions`));
    const hubRows = await until('the same transitions in the hub history', async () => {
      const rows = await s.hub.get<TransitionView[]>(`/api/panes/${encodeURIComponent(s.id)}/transitions`);
      return path(rows).join('\n') === peerPath.join('\n') ? rows : null;
    }, s.diag);
    expect(hubRows.every((t) => t.paneId === s.id)).toBe(true);
    expect(peerPath.at(-1)).toMatch(/>WAITING_APPROVAL /);

    // The screen and the turns come from the peer on demand.
    const screen = (await s.hub.get<{ text: string }>(`/api/panes/${encodeURIComponent(s.id)}/screen`)).text;
    expect(screen).toContain('Do you want to run `make deploy`?');
    const turns = await s.hub.get<Array<{ paneId: string }>>(`/api/panes/${encodeURIComponent(s.id)}/turns`);
    expect(turns.every((t) => t.paneId === s.id)).toBe(true);

    // Typing is not allowed for this peer: refused here with the reason, nothing reaches the agent.
    const refused = await s.post('answer', { option: '1', rev: waiting.rev });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('allow_typing');
    expect((await s.post('reply', { text: 'hello', rev: waiting.rev })).status).toBe(403);
    expect(readFileSync(s.log, 'utf8')).not.toContain('"keys": "1"');
    // A supervised task runs on the daemon whose pane it is.
    const task = await fetch(`${s.hub.url}/api/tasks`, { method: 'POST', headers: { authorization: `Bearer ${s.hub.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ pane: s.id, prompt: 'go' }) });
    expect(task.status).toBe(400);
    expect(((await task.json()) as { error: string }).error).toContain(`is a pane of peer "box": start the task on that daemon`);

    // An ack on the hub is the peer's ack: its pane is IDLE there, with the ack in its actions and transitions.
    const acked = await s.post('ack', {});
    expect(acked.status).toBe(200);
    expect(acked.body).toMatchObject({ id: s.id, host: 'box', state: 'IDLE' });
    expect((await s.onPeer()).state).toBe('IDLE');
    const peerActions = await s.peer.get<ActionView[]>(`/api/panes/${encodeURIComponent(s.theirs.id)}/actions`);
    expect(peerActions.map((a) => [a.kind, a.origin])).toEqual([['ack', 'dashboard']]);
    expect((await s.peer.get<TransitionView[]>(`/api/panes/${encodeURIComponent(s.theirs.id)}/transitions?limit=1`))[0]).toMatchObject({ from: 'WAITING_APPROVAL', to: 'IDLE' });
    await until('IDLE on the hub', async () => ((await s.onHub()).state === 'IDLE' ? true : null), s.diag);
    const hubActions = await s.hub.get<ActionView[]>(`/api/panes/${encodeURIComponent(s.id)}/actions`);
    expect(hubActions.map((a) => [a.paneId, a.kind])).toEqual([[s.id, 'ack']]);

    // The peer dies: its pane stays, in its last state, marked unreachable.
    const port = new URL(s.peer.url).port;
    const killedAt = Date.now();
    await s.peer.stop('SIGKILL');
    const stale = await until('the pane unreachable on the hub', async () => {
      const p = await s.onHub();
      return p.unreachable ? p : null;
    }, s.diag);
    expect(stale.unreachable!.since - killedAt).toBeLessThan(5000);
    expect(stale).toMatchObject({ state: 'IDLE', host: 'box' });
    // What needs the peer says so, rather than waiting on it.
    const screenDown = await fetch(`${s.hub.url}/api/panes/${encodeURIComponent(s.id)}/screen`);
    expect(screenDown.status).toBe(503);
    const downError = await screenDown.text();
    expect((JSON.parse(downError) as { error: string }).error).toMatch(/^peer "box" is unreachable since .*: its feed closed \(1006: connection lost\)$/);

    // Back on the same port (the wrapper rejoins it by itself): the hello snapshot replaces the stale pane.
    const back = await startPeer(s.pd, Number(port));
    const fresh = await until('the pane reachable again on the hub', async () => {
      const p = await s.onHub();
      return !p.unreachable && p.alive ? p : null;
    }, () => `${s.diag()}\nPEER AGAIN ${back.diag()}`, 70_000);
    expect(fresh.host).toBe('box');

    // The peer's token is nowhere on the hub's side: log, output, API, metrics, errors.
    const secret = s.peer.token;
    const hubLog = readFileSync(join(s.hub.dirs.dir, 'state', 'termsupervisor', 'daemon.log'), 'utf8');
    expect(hubLog).toContain('"peer":"box"');
    const metrics = await (await fetch(`${s.hub.url}/metrics`)).text();
    expect(metrics).toContain('termsupervisor_peer_up{peer="box"} 1');
    const shown = [
      hubLog,
      s.hub.stdout,
      s.hub.stderr,
      JSON.stringify(await s.hub.get('/api/panes')),
      JSON.stringify(await s.hub.get('/api/stats')),
      metrics,
      JSON.stringify(refused.body),
      downError,
    ];
    for (const text of shown) expect(text).not.toContain(secret);
  }, 120_000);

  it('forwards answers where the peer allows typing: a stale revision is the peer\'s 409, a fresh one types the keys', async () => {
    const s = await setup(true);
    s.w.stdin!.write('deploy it\r');
    const waiting = await until('WAITING_APPROVAL with its question on the hub', async () => {
      const p = await s.onHub();
      return p.state === 'WAITING_APPROVAL' && p.question ? p : null;
    }, s.diag);
    const stale = await s.post('answer', { option: '2', rev: waiting.rev - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.pane).toMatchObject({ id: s.id, host: 'box', state: 'WAITING_APPROVAL' });
    const now = await s.onPeer();
    const ok = await s.post('answer', { option: '2', rev: now.rev });
    expect(ok.status).toBe(200);
    expect(ok.body.action).toMatchObject({ paneId: s.id, kind: 'answer', origin: 'dashboard', keys: '↓ Enter' });
    await waitFor('the agent to pick 2', () => s.w.out.includes('picked 2:'), s.diag);
  }, 90_000);

  it('one peer that never answers (TCP accepted, nothing said) delays nothing of another; a wrong token is refused by the peer, never shown', async () => {
    const silent = createServer((sock) => void sock.on('error', () => {}));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    cleanups.push(() => void silent.close());
    const held: Socket[] = [];
    silent.on('connection', (c) => held.push(c));
    cleanups.push(() => held.forEach((c) => c.destroy()));
    const pd = dirs();
    const peer = await startPeer(pd);
    const w = runWrapper(pd, ['--name', 'menu', '--agent', 'generic'], ['python3', AGENT, '--log', join(pd.dir, 'keys.jsonl')]);
    cleanups.push(() => void w.kill('SIGKILL'));
    const d = dirs();
    writeFileSync(join(d.dir, 'box.token'), peer.token);
    writeFileSync(join(d.dir, 'mute.token'), 'not-a-real-token');
    const wrongToken = 'wrong-token-0123456789abcdef';
    writeFileSync(join(d.dir, 'wrong.token'), wrongToken);
    const port = (silent.address() as AddressInfo).port;
    const hub = await DaemonProcess.start(d, ['--no-tmux', '--peer', `mute=http://127.0.0.1:${port}`, '--peer-token-file', join(d.dir, 'mute.token'), '--peer', `wrong=${peer.url}`, '--peer-token-file', join(d.dir, 'wrong.token'), '--peer', `box=${peer.url}`, '--peer-token-file', join(d.dir, 'box.token')]);
    cleanups.push(async () => void (await hub.stop('SIGKILL')));
    const diag = () => `PEER ${peer.diag()}\nHUB ${hub.diag()}`;
    const shown = await until("box's pane on the hub while mute hangs", async () => (await hub.get<PaneView[]>('/api/panes')).find((p) => p.host === 'box' && p.name === 'menu'), diag);
    expect(shown.unreachable).toBeUndefined();
    expect(held.length).toBeGreaterThan(0);
    const metrics = await (await fetch(`${hub.url}/metrics`)).text();
    expect(metrics).toContain('termsupervisor_peer_up{peer="box"} 1');
    expect(metrics).toContain('termsupervisor_peer_up{peer="mute"} 0');
    // A loopback peer's feed is open to read (as its dashboard is); what changes a pane needs its token: the peer's
    // 401 is the hub's 502 naming the token file (not a 401 the hub's own client would take for its own), and the
    // wrong token is written nowhere.
    const wrong = await until("the pane through the peer with the wrong token", async () => (await hub.get<PaneView[]>('/api/panes')).find((p) => p.host === 'wrong' && p.alive), diag);
    const ack = await fetch(`${hub.url}/api/panes/${encodeURIComponent(wrong.id)}/ack`, { method: 'POST', headers: { authorization: `Bearer ${hub.token}` } });
    expect(ack.status).toBe(502);
    const ackBody = await ack.text();
    expect(JSON.parse(ackBody)).toEqual({ error: 'peer "wrong" refused the token in its token_file (401): copy its current token there' });
    const log = readFileSync(join(d.dir, 'state', 'termsupervisor', 'daemon.log'), 'utf8');
    expect(log).toContain('"peer":"wrong"');
    for (const text of [log, ackBody, hub.stdout, hub.stderr, metrics, JSON.stringify(await hub.get('/api/panes'))]) {
      expect(text).not.toContain(wrongToken);
      expect(text).not.toContain(peer.token);
    }
  }, 90_000);

  it('a frozen peer (SIGSTOP: no close, no pong) shows as unreachable, and comes back when it resumes', async () => {
    const s = await setup(false, 'cli');
    await until("the peer's pane on the hub", async () => (await s.hub.get<PaneView[]>('/api/panes')).find((p) => p.id === s.id && !p.unreachable), s.diag);
    const stoppedAt = Date.now();
    s.peer.child.kill('SIGSTOP');
    cleanups.push(() => void s.peer.child.kill('SIGCONT'));
    const stale = await until('the pane unreachable on the hub', async () => {
      const p = await s.onHub();
      return p.unreachable ? p : null;
    }, s.diag);
    expect(stale.unreachable!.reason).toContain('no answer');
    // Seen by ping/pong within a ping and the pong timeout: under the 5 s the board promises.
    expect(PEER_PING_MS + PEER_PONG_TIMEOUT_MS).toBeLessThan(5000);
    expect(stale.unreachable!.since - stoppedAt).toBeLessThan(5000);
    s.peer.child.kill('SIGCONT');
    await until('the pane reachable again', async () => (!(await s.onHub()).unreachable ? true : null), s.diag, 70_000);
  }, 120_000);
});
