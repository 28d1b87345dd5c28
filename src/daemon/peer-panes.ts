// Every peer daemon this one shows (config `peers`, `daemon --peer`): a live feed (PeerLink) and a mirror of its
// panes (PeerMirror) each. One peer's link, requests and failures never wait on another's. Requests about a peer's
// pane that its feed does not answer (screen, turns, actions, acks, answers) are forwarded to it with its token.
import type { ActionView, PaneView, WsMessage } from '../web/api-types.js';
import type { ForwardRequest, PeerOwner, PeerRelay } from '../web/daemon-api.js';
import type { HistoryStore } from '../store/history-store.js';
import type { NotifyEvent } from '../notify/types.js';
import type { PeerSpec } from '../config/peers.js';
import { PeerLink } from './peer-link.js';
import { PeerMirror } from './peer-mirror.js';
import { peerRequest, type PeerAnswer } from './peer-client.js';
import type { Logger } from './logger.js';

export interface PeerPanesDeps {
  store: HistoryStore;
  emit(m: WsMessage): void;
  notify(ev: NotifyEvent): void;
  /** Every transition, for the notifier's memory of where each pane is (answered, at rest). */
  noteState?(paneId: string, to: string, rule: string, program: string): void;
  log: Logger;
}

interface Peer {
  link: PeerLink;
  mirror: PeerMirror;
}

export class PeerPanes implements PeerRelay {
  private readonly peers: Peer[] = [];

  constructor(specs: PeerSpec[], deps: PeerPanesDeps) {
    for (const spec of specs) {
      const log = deps.log;
      let link: PeerLink;
      const mirror = new PeerMirror(spec, { ...deps, request: (r) => peerRequest(spec, link.token, r) });
      link = new PeerLink(spec, {
        onMessage: (m) => {
          if (m.type === 'hello') log.info({ kind: 'peer', event: 'connected', peer: spec.name, url: spec.url, panes: m.panes.length, version: m.version }, `peer ${spec.name} connected`);
          mirror.handle(m);
        },
        onDown: (reason, at) => {
          if (mirror.reachable) log.warn({ kind: 'peer', event: 'unreachable', peer: spec.name, url: spec.url, reason }, `peer ${spec.name} unreachable: ${reason}`);
          mirror.down(reason, at);
        },
        onRefused: (reason) => log.warn({ kind: 'peer', event: 'refused', peer: spec.name, url: spec.url, reason }, `peer ${spec.name}: ${reason}; its link closes`),
        onRetry: (delayMs, failures) => log.debug({ kind: 'peer', event: 'retry', peer: spec.name, delayMs, failures }, 'peer reconnect scheduled'),
      });
      this.peers.push({ link, mirror });
      if (!isLoopbackUrl(spec.url) && spec.url.startsWith('http:')) {
        log.warn({ kind: 'peer', peer: spec.name, url: spec.url }, `peer ${spec.name} is reached over plain http off this machine: its token crosses the network in clear (use ssh -L, docs/remote.md)`);
      }
    }
  }

  start(): void {
    for (const p of this.peers) p.link.start();
  }

  stop(): void {
    for (const p of this.peers) p.link.stop();
  }

  /** Every peer's panes, as shown here. */
  views(): PaneView[] {
    return this.peers.flatMap((p) => p.mirror.all());
  }

  view(id: string): PaneView | null {
    return this.find(id)?.mirror.view(id) ?? null;
  }

  owner(id: string): PeerOwner | null {
    const p = this.find(id);
    return p ? { name: p.mirror.name, allowTyping: p.mirror.spec.allowTyping, unreachable: p.mirror.view(id)?.unreachable ?? null } : null;
  }

  async forward(id: string, r: ForwardRequest): Promise<PeerAnswer> {
    const p = this.find(id);
    if (!p) return { status: 404, body: { error: 'no such pane' } };
    const theirs = p.mirror.peerId(id)!;
    const a = await peerRequest(p.mirror.spec, p.link.token, {
      method: r.method,
      path: `/api/panes/${encodeURIComponent(theirs)}${r.sub}${r.query}`,
      ...(r.body !== undefined && { body: r.body }),
      ...(r.client && { client: r.client }),
    });
    return { status: a.status, body: toHub(p.mirror, a.body) };
  }

  /** Prometheus lines: each peer's link and how many of its panes are shown. */
  metrics(): string {
    if (!this.peers.length) return '';
    const lines = [
      '# HELP termsupervisor_peer_up A peer daemon\'s feed is connected (1) or not (0).',
      '# TYPE termsupervisor_peer_up gauge',
      ...this.peers.map((p) => `termsupervisor_peer_up{peer="${p.mirror.name}"} ${p.link.up ? 1 : 0}`),
      '# HELP termsupervisor_peer_panes Panes of a peer daemon shown here.',
      '# TYPE termsupervisor_peer_panes gauge',
      ...this.peers.map((p) => `termsupervisor_peer_panes{peer="${p.mirror.name}"} ${p.mirror.all().length}`),
      '# HELP termsupervisor_peer_connects_total Connects to a peer daemon (the first and every reconnect).',
      '# TYPE termsupervisor_peer_connects_total counter',
      ...this.peers.map((p) => `termsupervisor_peer_connects_total{peer="${p.mirror.name}"} ${p.link.attempts}`),
    ];
    return lines.join('\n') + '\n';
  }

  private find(id: string): Peer | undefined {
    return this.peers.find((p) => p.mirror.owns(id));
  }
}

/** A peer's answer with its pane ids made ours: a pane, {pane}, {action, pane}, a list of rows with `paneId`. */
function toHub(m: PeerMirror, body: unknown): unknown {
  if (Array.isArray(body)) return body.map((row) => (isObject(row) && typeof row['paneId'] === 'string' ? { ...row, paneId: `${m.name}:${row['paneId']}` } : row));
  if (!isObject(body)) return body;
  if (typeof body['id'] === 'string' && typeof body['state'] === 'string') return m.toHubView(body as unknown as PaneView);
  const out: Record<string, unknown> = { ...body };
  if (isObject(body['pane'])) out['pane'] = m.toHubView(body['pane'] as unknown as PaneView);
  if (isObject(body['action'])) out['action'] = m.toHubAction(body['action'] as unknown as ActionView);
  return out;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isLoopbackUrl(url: string): boolean {
  const h = new URL(url).hostname;
  return h === 'localhost' || h === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(h);
}
