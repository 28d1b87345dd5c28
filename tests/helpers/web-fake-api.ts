// A small in-memory DaemonApi for the web layer's tests: the web layer's edge, nothing behind it. It records what
// the web layer asked (limits, acks, links) and lets a test push live messages as the daemon would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { WebSocket } from 'ws';
import type { MachineState, PaneView, StatsView, TransitionView, TurnView, WsMessage } from '../../src/web/api-types.js';
import type { DaemonApi, LinkKind } from '../../src/web/daemon-api.js';
import { Auth } from '../../src/web/auth.js';
import { buildApp, type App } from '../../src/web/build-app.js';
import type { HubOptions } from '../../src/web/ws-hub.js';
import { renderMetrics } from '../../src/daemon/metrics.js';

export const TOKEN = 'test-token-0123456789abcdef';

export function fakePane(id: string, over: Partial<PaneView> = {}): PaneView {
  return {
    id, name: id, program: 'shell', state: 'IDLE', since: 1_000, startedAt: 1_000, source: 'profile', tier: 2, rule: 'shell.prompt',
    line: '$ ', stalled: false, cols: 80, rows: 24, attach: 'run', command: 'bash', alive: true, needsYou: false, edge: ['$ '], shellIntegration: false, exitCodeUnknown: false, analysisError: null, rev: 1, question: null, ...over,
  };
}

export function fakeTransition(paneId: string, n: number, over: Partial<TransitionView> = {}): TransitionView {
  return {
    paneId, at: 1_000 + n, from: 'IDLE', to: 'RUNNING' as MachineState, tier: 1, source: 'in-band', rule: `rule.${n}`, line: `line ${n}`,
    stalled: false, startedAt: 1_000, startedAtKept: false, ...over,
  };
}

export class FakeApi implements DaemonApi {
  readonly version = '9.9.9-test';
  readonly panesById = new Map<string, PaneView>();
  readonly transitionsById = new Map<string, TransitionView[]>();
  readonly turnsById = new Map<string, TurnView[]>();
  /** What the web layer asked for. */
  readonly limits: Array<{ what: 'transitions' | 'turns'; id: string; limit: number }> = [];
  readonly acks: Array<{ id: string; by: string }> = [];
  readonly links: Array<{ kind: LinkKind; socket: WebSocket; remote: string }> = [];
  private readonly listeners = new Set<(m: WsMessage) => void>();

  add(p: PaneView): PaneView {
    this.panesById.set(p.id, p);
    this.transitionsById.set(p.id, this.transitionsById.get(p.id) ?? []);
    this.turnsById.set(p.id, this.turnsById.get(p.id) ?? []);
    return p;
  }

  /** Push a live message, as the daemon's feed would. */
  emit(m: WsMessage): void {
    for (const l of this.listeners) l(m);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  panes(): PaneView[] {
    return [...this.panesById.values()];
  }

  pane(id: string): PaneView | null {
    return this.panesById.get(id) ?? null;
  }

  screen(id: string): string | null {
    return this.panesById.has(id) ? `screen of ${id}` : null;
  }

  transitions(id: string, limit: number): TransitionView[] | null {
    this.limits.push({ what: 'transitions', id, limit });
    return this.transitionsById.get(id)?.slice(0, limit) ?? null;
  }

  turns(id: string, limit: number): TurnView[] | null {
    this.limits.push({ what: 'turns', id, limit });
    return this.turnsById.get(id)?.slice(0, limit) ?? null;
  }

  ack(id: string, by: string): PaneView | null {
    const p = this.panesById.get(id);
    if (!p) return null;
    this.acks.push({ id, by });
    const next = { ...p, state: 'IDLE' as MachineState, needsYou: false };
    this.panesById.set(id, next);
    return next;
  }

  stats(): StatsView {
    const all = this.panes();
    return { counters: { 'notify.sent': 1 }, panes: { total: all.length, alive: all.filter((p) => p.alive).length, byState: {} }, uptimeS: 1 };
  }

  metrics(): string {
    return renderMetrics({
      panes: this.panes(),
      counters: { 'fired.tier1.done.shell.osc133': 3, 'suppressed.tier3.run.debounce': 2, 'notify.sent': 1, 'odd "key"\\x': 1 },
      transitionsByTo: new Map([['DONE', 2], ['RUNNING', 4]]),
      storeDropped: 0,
    });
  }

  subscribe(listener: (m: WsMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  acceptLink(kind: LinkKind, socket: WebSocket, remote: string): void {
    this.links.push({ kind, socket, remote });
    socket.send(JSON.stringify({ type: 'welcome', v: 1, id: 'fake' }));
  }
}

/** A folder standing in for dist/web: the dashboard's files plus a stray server module, as the real one has. */
export function makeWebDir(files: Record<string, string> = defaultWebFiles()): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-web-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function defaultWebFiles(): Record<string, string> {
  return {
    'index.html': '<!doctype html><title>termsupervisor</title><script src="/assets/app.js"></script>',
    'app.js': 'console.log("dashboard");',
    'style.css': 'body { color: black }',
    'build-app.js': 'export const secret = "server module";',
  };
}

export interface TestAppOptions {
  loopback?: boolean;
  hub?: Partial<HubOptions>;
  webDir?: string;
  now?: () => number;
  api?: DaemonApi;
  headersTimeoutMs?: number;
}

export interface TestApp {
  app: App;
  api: FakeApi;
  auth: Auth;
  webDir: string;
  close(): Promise<void>;
}

/** An app on a fake api, not listening (for inject()). */
export function testApp(o: TestAppOptions = {}): TestApp {
  const loopback = o.loopback ?? true;
  const web = o.webDir ? null : makeWebDir();
  const webDir = o.webDir ?? web!.dir;
  const api = new FakeApi();
  const auth = new Auth(TOKEN, loopback, o.now);
  const app = buildApp({
    api: o.api ?? api,
    auth,
    webDir,
    loopback,
    hub: { coalesceMs: 20, maxBufferedBytes: 1 << 20, slowDropMs: 10_000, ...o.hub },
    ...(o.headersTimeoutMs !== undefined && { headersTimeoutMs: o.headersTimeoutMs }),
  });
  return {
    app,
    api,
    auth,
    webDir,
    async close() {
      await app.close();
      web?.remove();
    },
  };
}

/** The same, listening on 127.0.0.1 at a free port. */
export async function listeningApp(o: TestAppOptions = {}): Promise<TestApp & { port: number; http: string; ws: string }> {
  const t = testApp(o);
  await t.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const port = (t.app.fastify.server.address() as AddressInfo).port;
  return { ...t, port, http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` };
}
