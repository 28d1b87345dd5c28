// Peer daemons without a network: config `peers` and `--peer` checked and resolved, the reconnect backoff, and the
// mirror of a peer's panes on a real SQLite history (ids and host, the hello replacing everything, transitions
// kept and published once committed, unreachable marks keeping the last state).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { resolvePeers, type PeerConfig } from '../../src/config/peers.js';
import { backoffMs, PEER_BACKOFF_FIRST_MS, PEER_BACKOFF_MAX_MS } from '../../src/daemon/peer-link.js';
import { PeerMirror } from '../../src/daemon/peer-mirror.js';
import { HistoryStore } from '../../src/store/history-store.js';
import { parseArgs } from '../../src/cli/args.js';
import type { PaneView, TransitionView, WsMessage } from '../../src/web/api-types.js';
import type { NotifyEvent } from '../../src/notify/types.js';
import { tempDirs } from '../helpers/store-fixtures.js';

const tmp = tempDirs();
const stores: HistoryStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  tmp.cleanup();
});

function userConfig(peers: unknown): string {
  const dir = tmp.make();
  mkdirSync(dir, { recursive: true });
  const f = join(dir, 'config.json');
  writeFileSync(f, JSON.stringify({ peers }));
  return f;
}

function problems(peers: unknown): string[] {
  try {
    loadConfig({ path: userConfig(peers) });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map((p) => p.replace(/^.*config\.json: /, ''));
    throw e;
  }
  return [];
}

describe('config peers and --peer', () => {
  it('takes a list of peers and refuses each wrong field with its path', () => {
    const ok = loadConfig({ path: userConfig([{ name: 'mac', url: 'http://127.0.0.1:7879', token_file: '/t', allow_typing: true }]) });
    expect(ok.peers).toEqual([{ name: 'mac', url: 'http://127.0.0.1:7879', token_file: '/t', allow_typing: true }]);
    expect(loadConfig().peers).toEqual([]);
    expect(problems({ url: 'x' })).toEqual(['peers: expected a list of objects, got object {"url":"x"}']);
    expect(problems([{ url: 'http://h:1', token_file: '/t', typing: true }])).toEqual(['peers[0].typing: unknown key (known: name, url, token_file, allow_typing)']);
    expect(problems([{ url: 'http://h:1' }])).toEqual(['peers[0].token_file: must be set']);
    expect(problems([{ url: 'http://h:1', token_file: '' }])).toEqual(['peers[0].token_file: must be set']);
    expect(problems([{ name: 'a:b', url: 'http://h:1', token_file: '/t' }])).toEqual(['peers[0].name: "a:b" is not a usable name (letters, digits, ".", "_", "-")']);
    expect(problems([{ url: 'http://h:1', token_file: '/t', allow_typing: 'yes' }])).toEqual(['peers[0].allow_typing: expected a boolean, got string "yes"']);
    // The URL itself is checked when the daemon starts, with the entry named.
    expect(() => resolvePeers([{ url: 'http://me:secret@h:1', token_file: '/t' }], { peers: [], tokenFiles: [] })).toThrow(/^config peers\[0\]\.url: a URL with a user or password is refused/);
    expect(() => resolvePeers([{ url: 'ftp://h', token_file: '/t' }], { peers: [], tokenFiles: [] })).toThrow('config peers[0].url: expected http:// or https://, got ftp:');
  });

  it('names a peer after its URL host unless named; pairs --peer with --peer-token-file in order; refuses clashes', () => {
    const cfg: PeerConfig[] = [{ name: '', url: 'http://devbox:7878/', token_file: '~/a', allow_typing: false }];
    const a = parseArgs(['--peer', 'mac=http://127.0.0.1:7879', '--peer-token-file', '/b', '--peer', 'http://127.0.0.1:7880', '--peer-token-file', '/c'], { values: ['peer', 'peer-token-file'], flags: [], multiple: ['peer', 'peer-token-file'] });
    expect(resolvePeers(cfg, { peers: a.lists.get('peer')!, tokenFiles: a.lists.get('peer-token-file')! })).toEqual([
      { name: 'devbox', url: 'http://devbox:7878', tokenFile: join(homedir(), 'a'), allowTyping: false },
      { name: 'mac', url: 'http://127.0.0.1:7879', tokenFile: '/b', allowTyping: false },
      { name: '127.0.0.1', url: 'http://127.0.0.1:7880', tokenFile: '/c', allowTyping: false },
    ]);
    expect(() => resolvePeers([], { peers: ['http://h:1'], tokenFiles: [] })).toThrow('each --peer needs its --peer-token-file (in the same order): got 1 --peer and 0 --peer-token-file');
    expect(() => resolvePeers(cfg, { peers: ['http://devbox:9'], tokenFiles: ['/x'] })).toThrow('two peers are named "devbox"');
    expect(() => resolvePeers([], { peers: ['box=http://u:p@h:1'], tokenFiles: ['/x'] })).toThrow(/^--peer box=http:\/\/u:p@h:1: a URL with a user or password is refused/);
  });

  it('waits 1 s after a failure, doubling up to a minute', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    expect(PEER_BACKOFF_FIRST_MS).toBe(1000);
    expect(PEER_BACKOFF_MAX_MS).toBe(60_000);
  });
});

function view(over: Partial<PaneView> = {}): PaneView {
  return {
    id: 'run-1', name: 'api', program: 'claude', state: 'RUNNING', since: 5_000, startedAt: 5_000, source: 'profile', tier: 2,
    rule: 'claude.spinner', line: '✳ Thinking', stalled: false, cols: 80, rows: 24, attach: 'run', command: 'claude', alive: true,
    needsYou: false, edge: ['✳ Thinking'], shellIntegration: false, exitCodeUnknown: false, analysisError: null, rev: 3, question: null, ...over,
  };
}

function transition(over: Partial<TransitionView> = {}): TransitionView {
  return {
    paneId: 'run-1', at: 6_000, from: 'RUNNING', to: 'DONE', tier: 2, source: 'profile', rule: 'claude.done_marker', line: '✻ done',
    stalled: false, startedAt: 5_000, startedAtKept: true, ...over,
  };
}

function mirror(peerTransitions: TransitionView[] = []) {
  const store = HistoryStore.open(join(tmp.make(), 'h.sqlite'), { flushMs: 3_600_000, publishFlushMs: 0 });
  stores.push(store);
  const out: WsMessage[] = [];
  const notes: NotifyEvent[] = [];
  const asked: string[] = [];
  const m = new PeerMirror(
    { name: 'box', url: 'http://127.0.0.1:1', tokenFile: '/t', allowTyping: false },
    {
      store,
      emit: (msg) => out.push(msg),
      notify: (ev) => notes.push(ev),
      log: pino({ level: 'silent' }),
      request: async (r) => (asked.push(r.path), { status: 200, body: peerTransitions }),
      now: () => 9_000,
    },
  );
  return { m, store, out, notes, asked };
}

describe('a peer daemon\'s panes, mirrored', () => {
  it('shows them as <peer>:<id> with the peer as host, kept in history with it', async () => {
    const { m, store, out, asked } = mirror();
    m.handle({ type: 'hello', version: '1', panes: [view(), view({ id: 'tmux:default@1-a:%3', name: 'work:0.1', alive: false })] });
    expect(m.all().map((v) => [v.id, v.host, v.alive])).toEqual([
      ['box:run-1', 'box', true],
      ['box:tmux:default@1-a:%3', 'box', false],
    ]);
    expect(out.filter((x) => x.type === 'pane').length).toBe(2);
    expect(store.pane('box:run-1')).toMatchObject({ host: 'box', state: 'RUNNING', closedAt: null, createdAt: 9_000 });
    expect(store.pane('box:tmux:default@1-a:%3')).toMatchObject({ host: 'box', closedAt: 9_000 });
    expect(m.peerId('box:tmux:default@1-a:%3')).toBe('tmux:default@1-a:%3');
    expect(m.peerId('other:run-1')).toBeNull();
    // The live pane's earlier transitions are read back; a closed one met for the first time stays in the peer's history.
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual(['/api/panes/run-1/transitions?limit=100']);
  });

  it("keeps the peer's transitions (its rules, not ours), publishes each once committed, and notifies", async () => {
    const { m, store, out, notes } = mirror();
    m.handle({ type: 'hello', version: '1', panes: [view()] });
    m.handle({ type: 'transition', transition: transition() });
    await new Promise((r) => setTimeout(r, 20));
    expect(store.transitions('box:run-1')).toEqual([{ ...transition(), paneId: 'box:run-1' }]);
    expect(out.at(-1)).toEqual({ type: 'transition', transition: { ...transition(), paneId: 'box:run-1' } });
    expect(notes.map((n) => [n.paneId, n.paneName, n.kind, n.rule, n.turnDurationS])).toEqual([['box:run-1', 'api', 'DONE', 'claude.done_marker', 1]]);
  });

  it('marks every pane unreachable from the first failure, keeping its state; the next hello replaces them all', () => {
    const { m, out } = mirror();
    m.handle({ type: 'hello', version: '1', panes: [view(), view({ id: 'run-2', state: 'WAITING_APPROVAL' })] });
    m.down('connection refused', 7_000);
    m.down('connection refused again', 8_000);
    expect(m.all().map((v) => [v.id, v.state, v.unreachable])).toEqual([
      ['box:run-1', 'RUNNING', { since: 7_000, reason: 'connection refused' }],
      ['box:run-2', 'WAITING_APPROVAL', { since: 7_000, reason: 'connection refused' }],
    ]);
    // A snapshot arriving on the next link is fresh; a pane the peer no longer has goes.
    m.handle({ type: 'hello', version: '1', panes: [view({ state: 'DONE' })] });
    expect(m.all().map((v) => [v.id, v.state, v.unreachable])).toEqual([['box:run-1', 'DONE', undefined]]);
    expect(out.at(-1)).toEqual({ type: 'pane_removed', id: 'box:run-2' });
  });

  it('reads back the transitions a pane made while the link was down, up to the hello', async () => {
    const gap = [transition({ at: 12_000, from: 'DONE', to: 'RUNNING' }), transition({ at: 11_000 }), transition({ at: 4_000, from: 'IDLE', to: 'RUNNING' })];
    const { m, store, asked } = mirror(gap);
    m.handle({ type: 'hello', version: '1', panes: [view({ since: 5_000 })] });
    m.handle({ type: 'transition', transition: transition({ at: 5_000, from: 'IDLE', to: 'RUNNING' }) });
    await new Promise((r) => setTimeout(r, 20));
    asked.length = 0;
    m.down('gone', 6_000);
    m.handle({ type: 'hello', version: '1', panes: [view({ state: 'DONE', since: 11_000 })] });
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual(['/api/panes/run-1/transitions?limit=100']);
    // Only what is newer than what we kept and not newer than the snapshot (a later one comes on the feed); the
    // first hello read back what came before it (4000), the feed brought 5000.
    expect(store.transitions('box:run-1').map((t) => [t.at, t.to])).toEqual([
      [11_000, 'DONE'],
      [5_000, 'RUNNING'],
      [4_000, 'RUNNING'],
    ]);
  });
});
