// A stand-in for the daemon's HTTP side, speaking exactly the contract in src/web/api-types.ts, so the dashboard's
// behaviour (ordering, alerts, detail view, read-only, reconnect, 100 panes) is tested in a real browser without
// spawning 100 panes. The real daemon is driven by tests/e2e/dashboard.test.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Counters, MachineState, PaneView, StatsView, TransitionView, TurnView, WsMessage } from '../../src/web/api-types.js';
import { ROOT } from './screen.js';

const ASSETS = join(ROOT, 'dist', 'web');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

export function paneView(id: string, over: Partial<PaneView> = {}): PaneView {
  const now = Date.now();
  return {
    id, name: id, program: 'shell', state: 'IDLE', since: now, startedAt: now, source: 'profile', tier: 2, rule: 'shell.prompt', line: '$ ',
    stalled: false, cols: 100, rows: 30, attach: 'run', command: 'bash', alive: true, needsYou: false, edge: ['$ '], shellIntegration: false, ...over,
  };
}

const NEEDS: MachineState[] = ['WAITING_APPROVAL', 'DONE', 'FAILED'];

export class FakeDaemon {
  readonly panes = new Map<string, PaneView>();
  readonly transitions = new Map<string, TransitionView[]>();
  readonly turns = new Map<string, TurnView[]>();
  counters: Counters = {};
  /** false: every POST answers 401 (a browser without the token). */
  authorized = true;
  readonly acks: string[] = [];
  private readonly clients = new Set<WebSocket>();
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly server = createServer((req, res) => this.handle(req, res));
  url = '';

  static async start(): Promise<FakeDaemon> {
    const d = new FakeDaemon();
    d.server.on('upgrade', (req, socket, head) => {
      if (req.url !== '/ws') return socket.destroy();
      d.wss.handleUpgrade(req, socket, head, (ws) => {
        d.clients.add(ws);
        ws.on('close', () => d.clients.delete(ws));
        d.sendTo(ws, { type: 'hello', version: '0.0.0-fake', panes: [...d.panes.values()] });
      });
    });
    await new Promise<void>((r) => d.server.listen(0, '127.0.0.1', r));
    d.url = `http://127.0.0.1:${(d.server.address() as AddressInfo).port}`;
    return d;
  }

  get connected(): number {
    return this.clients.size;
  }

  private sendTo(ws: WebSocket, m: WsMessage): void {
    ws.send(JSON.stringify(m));
  }

  broadcast(m: WsMessage): void {
    for (const ws of this.clients) this.sendTo(ws, m);
  }

  /** Adds or replaces a pane (pushed live unless `quiet`: then only the next hello shows it). */
  pane(p: PaneView, quiet = false): PaneView {
    this.panes.set(p.id, p);
    if (!quiet) this.broadcast({ type: 'pane', pane: p });
    return p;
  }

  /** Moves a pane to `to` the way the daemon reports it: the transition, then the pane's new snapshot. */
  move(id: string, to: MachineState, over: Partial<TransitionView> = {}): TransitionView {
    const p = this.panes.get(id)!;
    const at = over.at ?? Date.now();
    const tr: TransitionView = { paneId: id, at, from: p.state, to, tier: 2, source: 'profile', rule: `fake.${to.toLowerCase()}`, line: `line for ${to}`, stalled: false, startedAt: p.startedAt, startedAtKept: false, ...over };
    this.transitions.set(id, [...(this.transitions.get(id) ?? []), tr]);
    this.broadcast({ type: 'transition', transition: tr });
    this.pane({ ...p, state: to, since: tr.from === to ? p.since : at, rule: tr.rule, line: tr.line, tier: tr.tier, source: tr.source, stalled: tr.stalled, needsYou: NEEDS.includes(to) || tr.stalled });
    return tr;
  }

  remove(id: string): void {
    this.panes.delete(id);
    this.broadcast({ type: 'pane_removed', id });
  }

  /** Cuts every websocket (the daemon restarting): the page must reconnect by itself. */
  dropClients(): void {
    for (const ws of this.clients) ws.terminate();
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    if (req.method === 'GET' && (path === '/' || path.startsWith('/assets/'))) {
      const file = path === '/' ? 'index.html' : path.slice('/assets/'.length);
      if (!/^[\w.-]+$/.test(file)) return void res.writeHead(404).end();
      try {
        return void res.writeHead(200, { 'content-type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(readFileSync(join(ASSETS, file)));
      } catch {
        return void res.writeHead(404).end();
      }
    }
    if (req.method === 'GET' && path === '/api/stats') {
      const byState: StatsView['panes']['byState'] = {};
      for (const p of this.panes.values()) byState[p.state] = (byState[p.state] ?? 0) + 1;
      const alive = [...this.panes.values()].filter((p) => p.alive).length;
      return this.json(res, 200, { counters: this.counters, panes: { total: this.panes.size, alive, byState }, uptimeS: 3725 } satisfies StatsView);
    }
    const m = /^\/api\/panes\/([^/]+)\/(transitions|turns|screen|ack)$/.exec(path);
    const id = m ? decodeURIComponent(m[1]!) : '';
    const p = this.panes.get(id);
    if (!m || !p) return this.json(res, 404, { error: 'no such pane' });
    if (m[2] === 'ack' && req.method === 'POST') {
      if (!this.authorized) return this.json(res, 401, { error: 'no token' });
      this.acks.push(id);
      this.move(id, 'IDLE', { source: 'user', tier: 0, rule: 'user.ack', line: '' });
      return void res.writeHead(204).end();
    }
    if (m[2] === 'transitions') return this.json(res, 200, (this.transitions.get(id) ?? []).slice(-Number(url.searchParams.get('limit') ?? 500)));
    if (m[2] === 'turns') return this.json(res, 200, this.turns.get(id) ?? []);
    if (m[2] === 'screen') return this.json(res, 200, { text: `screen of ${p.name}\n${p.edge.join('\n')}` });
    this.json(res, 405, { error: 'method' });
  }

  async close(): Promise<void> {
    for (const ws of this.clients) ws.terminate();
    this.wss.close();
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    this.server.closeAllConnections(); // the page's keep-alive connections would hold close() open
    await closed;
  }
}
