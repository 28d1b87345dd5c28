// A stand-in for the daemon's HTTP side, speaking exactly the contract in src/web/api-types.ts, so the dashboard's
// behaviour (ordering, alerts, detail view, read-only, reconnect, 100 panes) is tested in a real browser without
// spawning 100 panes. The real daemon is driven by tests/e2e/dashboard.test.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Counters, IterationView, MachineState, PaneView, StatsView, TaskEventView, TaskView, TransitionView, TurnView, WsMessage } from '../../src/web/api-types.js';
import { ROOT } from './screen.js';
import { FakeActions } from './browser-fake-actions.js';

const ASSETS = join(ROOT, 'dist', 'web');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

export function paneView(id: string, over: Partial<PaneView> = {}): PaneView {
  const now = Date.now();
  return {
    id, name: id, program: 'shell', state: 'IDLE', since: now, startedAt: now, source: 'profile', tier: 2, rule: 'shell.prompt', line: '$ ',
    stalled: false, cols: 100, rows: 30, attach: 'run', command: 'bash', alive: true, needsYou: false, edge: ['$ '], shellIntegration: false, exitCodeUnknown: false, analysisError: null, rev: 1, question: null, ...over,
  };
}

const NEEDS: MachineState[] = ['WAITING_APPROVAL', 'DONE', 'FAILED'];

/** A task record as the daemon serves it (GET /api/tasks), RUNNING on `pane` unless told otherwise. */
export function taskView(id: string, pane: string, over: Partial<TaskView> = {}): TaskView {
  const now = Date.now();
  return {
    id, status: 'RUNNING', reason: 'running', reasonCode: null, phase: 'sent', iterations: 1, nextPrompt: 'continue', consecutiveFailures: 0, tokensUsed: 12, agentMs: 1500,
    proposed: null, warnings: [], recentSends: [], slowReflections: 0, loop: { edges: [], continuations: [] }, lastTurnEnd: null, createdAt: now, updatedAt: now, endedAt: null,
    spec: {
      pane, prompt: `prompt of ${id}`, goal: `prompt of ${id}`, continueText: 'continue', judge: false, approve: [], cwd: null,
      criteria: { success: [], failure: [], successWords: [], failureWords: [], until: null, check: null, region: { kind: 'edge' } },
      limits: { maxIterations: 10, maxRuntimeS: 3600, heartbeatS: 300, onStall: 'pause', maxConsecutiveFailures: 3, cooldownS: 1, maxActivationsPerHour: 60, tokenBudget: 0, loopTurns: 3, reflectEvery: 5, riskThreshold: 0.7 },
    },
    ...over,
  };
}

export class FakeDaemon {
  readonly panes = new Map<string, PaneView>();
  readonly transitions = new Map<string, TransitionView[]>();
  readonly turns = new Map<string, TurnView[]>();
  counters: Counters = {};
  /** false: every POST answers 401 (a browser without the token). */
  authorized = true;
  readonly acks: string[] = [];
  /** Supervised tasks (false: the routes answer 501, a daemon without tasks). */
  tasksEnabled = true;
  readonly tasks = new Map<string, TaskView>();
  readonly taskEvents = new Map<string, TaskEventView[]>();
  readonly taskIterations = new Map<string, IterationView[]>();
  /** POST /api/tasks bodies and task actions, in order. */
  readonly taskRequests: Array<{ action: string; id?: string; body?: unknown }> = [];
  /** The next POST /api/tasks answers 400 with these problems. */
  refuseNextTask: string[] | null = null;
  /** Answer, reply, interrupt, focus and the actions history (browser-fake-actions.ts). */
  readonly actions = new FakeActions({
    panes: this.panes,
    authorized: () => this.authorized,
    json: (res, status, body) => this.json(res, status, body),
    move: (id, to) => void this.move(id, to),
    pushPane: (p) => void this.pane(p),
    pushAction: (action) => this.broadcast({ type: 'action', action }),
  });
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

  /** Adds or replaces a task (pushed live as a `task` message unless `quiet`). */
  task(t: TaskView, quiet = false): TaskView {
    this.tasks.set(t.id, t);
    if (!quiet) this.broadcast({ type: 'task', task: t });
    return t;
  }

  /** One timeline event of a task (pushed live unless `quiet`). */
  taskEvent(taskId: string, kind: string, detail = '', quiet = false): TaskEventView {
    const e: TaskEventView = { taskId, at: Date.now(), kind, detail };
    this.taskEvents.set(taskId, [...(this.taskEvents.get(taskId) ?? []), e]);
    if (!quiet) this.broadcast({ type: 'task_event', event: e });
    return e;
  }

  private changeTask(id: string, over: Partial<TaskView>, kind: string, detail: string): TaskView {
    const t = this.task({ ...this.tasks.get(id)!, ...over, updatedAt: Date.now() });
    this.taskEvent(id, kind, detail);
    return t;
  }

  private handleTasks(req: IncomingMessage, res: ServerResponse, path: string, url: URL): void {
    if (!this.tasksEnabled) return this.json(res, 501, { error: 'this daemon runs no tasks' });
    if (req.method === 'GET' && path === '/api/tasks') {
      const pane = url.searchParams.get('pane');
      const list = [...this.tasks.values()].filter((t) => !pane || t.spec.pane === pane).sort((a, b) => b.createdAt - a.createdAt);
      return this.json(res, 200, list.slice(0, Number(url.searchParams.get('limit') ?? 50)));
    }
    if (req.method === 'POST' && !this.authorized) return this.json(res, 401, { error: 'token required' });
    if (req.method === 'POST' && path === '/api/tasks') {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}') as { pane: string; prompt: string; maxIterations?: number };
        this.taskRequests.push({ action: 'start', body });
        if (this.refuseNextTask) {
          const problems = this.refuseNextTask;
          this.refuseNextTask = null;
          return this.json(res, 400, { error: `invalid task: ${problems.join('; ')}`, problems });
        }
        const t = taskView(`t-${this.tasks.size + 1}`, body.pane, { status: 'PENDING', reason: 'created', iterations: 0 });
        t.spec.prompt = body.prompt;
        if (body.maxIterations) t.spec.limits.maxIterations = body.maxIterations;
        this.task(t);
        this.taskEvent(t.id, 'created', body.prompt);
        this.json(res, 201, t);
      });
      return;
    }
    const m = /^\/api\/tasks\/([^/]+)(?:\/(stop|resume|retry))?$/.exec(path);
    const t = m ? this.tasks.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !t) return this.json(res, 404, { error: 'no such task' });
    if (req.method === 'GET' && !m[2]) return this.json(res, 200, { task: t, iterations: this.taskIterations.get(t.id) ?? [], events: this.taskEvents.get(t.id) ?? [] });
    if (req.method !== 'POST' || !m[2]) return this.json(res, 405, { error: 'method' });
    this.taskRequests.push({ action: m[2], id: t.id });
    const ok = m[2] === 'stop' ? ['PENDING', 'RUNNING', 'PAUSED'] : m[2] === 'resume' ? ['PAUSED'] : ['EXHAUSTED', 'FAILED'];
    if (!ok.includes(t.status)) return this.json(res, 409, { error: `task ${t.id} is ${t.status}` });
    if (m[2] === 'stop') return this.json(res, 200, this.changeTask(t.id, { status: 'STOPPED', reason: 'stopped by api', endedAt: Date.now() }, 'stopped', 'by api'));
    if (m[2] === 'resume') return this.json(res, 200, this.changeTask(t.id, { status: 'RUNNING', reason: 'resumed' }, 'resumed', 'by the person'));
    const more = { ...t.spec, limits: { ...t.spec.limits, maxIterations: t.spec.limits.maxIterations + 10 } };
    return this.json(res, 200, this.changeTask(t.id, { status: 'RUNNING', reason: 'retried', spec: more, endedAt: null }, 'retried', `+10 iterations (now ${more.limits.maxIterations})`));
  }

  remove(id: string): void {
    this.panes.delete(id);
    this.broadcast({ type: 'pane_removed', id });
  }

  /** Cuts every websocket (the daemon restarting): the page must reconnect by itself. */
  dropClients(): void {
    for (const ws of this.clients) ws.terminate();
  }

  json(res: ServerResponse, status: number, body: unknown): void {
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
    if (path === '/api/tasks' || path.startsWith('/api/tasks/')) return this.handleTasks(req, res, path, url);
    const m = /^\/api\/panes\/([^/]+)\/(transitions|turns|screen|ack|answer|reply|interrupt|focus|actions)$/.exec(path);
    const id = m ? decodeURIComponent(m[1]!) : '';
    const p = this.panes.get(id);
    if (!m || !p) return this.json(res, 404, { error: 'no such pane' });
    if (['answer', 'reply', 'interrupt', 'focus', 'actions'].includes(m[2]!)) return this.actions.handle(req, res, id, m[2]!, url);
    if (m[2] === 'ack' && req.method === 'POST') {
      if (!this.authorized) return this.json(res, 401, { error: 'no token' });
      this.acks.push(id);
      this.actions.record(id, 'ack', '', '', null);
      this.move(id, 'IDLE', { source: 'user', tier: 0, rule: 'user.ack', line: '' });
      return void res.writeHead(204).end();
    }
    if (m[2] === 'transitions') return this.json(res, 200, (this.transitions.get(id) ?? []).slice(-Number(url.searchParams.get('limit') ?? 500)));
    if (m[2] === 'turns') return this.json(res, 200, this.turns.get(id) ?? []);
    if (m[2] === 'screen') return this.json(res, 200, { text: `screen of ${p.name}\n${p.edge.join('\n')}`, rev: p.rev ?? 0 });
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
