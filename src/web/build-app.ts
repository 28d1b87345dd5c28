// The daemon's HTTP face, built by a factory so tests use inject() without a port. REST under /api, the live
// feed on /ws, link endpoints for panes and bridges, the dashboard's page and assets, /metrics and /healthz.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Auth, fromOwnPage, loopbackHost, TOKEN_COOKIE } from './auth.js';
import { LINK_PATHS, type DaemonApi } from './daemon-api.js';
import { StaticFiles } from './static-files.js';
import { parseHookBody } from '../hooks/hook-body.js';
import { WsHub, type HubOptions } from './ws-hub.js';
import { registerTaskRoutes } from './task-routes.js';
import { registerFocusRoute } from './focus-route.js';
import { registerNameRoute } from './name-route.js';
import { registerActionRoutes } from './action-routes.js';
import { registerPeerRelay } from './peer-routes.js';
import { FEED_FULL_CLOSE_CODE, FeedSlots } from './feed-slots.js';
import { StoreError } from '../store/store-error.js';
import type { HealthView } from './api-types.js';

export interface AppOptions {
  api: DaemonApi;
  auth: Auth;
  /** Folder of the built dashboard (dist/web). */
  webDir: string;
  hub: HubOptions;
  /** The bind is loopback: Host headers must be loopback names too. */
  loopback: boolean;
  /** Largest message a link (run wrapper, bridge) may send: one pty read is far smaller. */
  maxLinkMessageBytes?: number;
  logger?: boolean;
  /** Caps on open /ws feeds (default: feed-slots.ts). */
  feedSlots?: FeedSlots;
  /** A connection whose request headers are not complete this long after it opened is closed (ms; default
   * HEADERS_TIMEOUT_MS). */
  headersTimeoutMs?: number;
}

/** Rows of history `GET /api/panes/:id/transitions` returns at most, whatever `limit` asks. */
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;
/** A pty read is at most a few KiB; a link message beyond this is refused, not buffered. */
const DEFAULT_MAX_LINK_MESSAGE = 4 << 20;
/** Dashboard websockets never send us anything big. */
const MAX_DASHBOARD_MESSAGE = 4 << 10;
/** Every client of ours (a browser, the CLI, a wrapper, a peer) sends its request headers at once, on loopback or
 * over a tunnel in well under a second: a connection still without complete headers after this long is half-open
 * (2,000 of them once stayed open 8 s and more, each holding a socket) and is closed (ms). */
const HEADERS_TIMEOUT_MS = 5000;
/** How often Node looks for such connections (ms): a half-open one lives at most the timeout plus this. */
const HEADERS_CHECK_MS = 1000;

export interface App {
  fastify: FastifyInstance;
  hub: WsHub;
  close(): Promise<void>;
}

export function buildApp(opts: AppOptions): App {
  const { api, auth } = opts;
  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1 << 20,
    // A websocket upgrade is an HTTP request until its headers end: the same bound holds it.
    http: { headersTimeout, connectionsCheckingInterval: Math.min(HEADERS_CHECK_MS, headersTimeout) },
  });
  const files = new StaticFiles(opts.webDir);
  const hub = new WsHub(opts.hub);
  const slots = opts.feedSlots ?? new FeedSlots();
  const unsubscribe = api.subscribe((m) => {
    hub.publish(m);
    // A transition's pane snapshot is published right after it, in the same turn: sent with it, not at the next
    // coalescing tick (issue 26: the card lagged its own transition by up to ws_coalesce_s, or never showed it).
    if (m.type === 'transition') queueMicrotask(() => hub.flushPane(m.transition.paneId));
    // The pane's new revision goes out with the action that spent the old one.
    if (m.type === 'action') hub.flushPane(m.action.paneId);
  });

  app.addHook('onRequest', async (req, reply) => {
    if (opts.loopback && !loopbackHost(req.headers.host)) return reply.code(403).send({ error: 'forbidden host' });
    const open = req.url === '/healthz' || req.url.startsWith('/auth') || req.url === '/' || req.url.startsWith('/assets/');
    if (!open && !auth.mayRead(req)) return reply.code(401).send({ error: 'token required' });
    if (req.method !== 'GET' && req.method !== 'HEAD' && !auth.mayChange(req)) {
      const foreign = !fromOwnPage(req);
      return reply.code(foreign ? 403 : 401).send({ error: foreign ? 'foreign origin' : 'token required' });
    }
  });

  // Every route reads its query parameters as single strings: a repeated one (`?pane=a&pane=b`, parsed as an
  // array) is the client's mistake, said as such, for every route at once rather than a 500 from one of them.
  app.addHook('preValidation', async (req, reply) => {
    const repeated = Object.entries((req.query ?? {}) as Record<string, unknown>).find(([, v]) => Array.isArray(v));
    if (repeated) return reply.code(400).send({ error: `query parameter ${JSON.stringify(repeated[0])} is given ${(repeated[1] as unknown[]).length} times: give it once` });
  });

  // A peer daemon's pane: what this daemon does not hold of it is asked of its daemon (after the auth above).
  registerPeerRelay(app, api);

  app.get('/healthz', async (): Promise<HealthView> => {
    const history = api.history?.();
    const base: HealthView = history ? { ok: history.status === 'ok', version: api.version, history } : { ok: true, version: api.version };
    // Notifications that do not get through are said here too (they do not make the daemon unhealthy).
    const failing = api.notifyHealth?.()?.channels.filter((c) => c.status === 'failing').map((c) => c.name);
    return failing?.length ? { ...base, notifyFailing: failing } : base;
  });
  // History that cannot be read (a damaged page) is a 503 naming the cause, not a 500 or an empty list.
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof StoreError) return reply.code(503).send({ error: err.message });
    return reply.send(err);
  });
  app.get('/metrics', async (_req, reply) => reply.type('text/plain; version=0.0.4').send(api.metrics() + hubMetrics(hub, slots)));

  app.get('/', async (_req, reply) => {
    const f = files.index;
    if (!f) return reply.code(503).type('text/plain').send('dashboard not built: run `make build`');
    return reply.type(f.type).header('cache-control', 'no-cache').send(f.body);
  });
  app.get<{ Params: { file: string } }>('/assets/:file', async (req, reply) => {
    const f = files.asset(req.params.file);
    if (!f) return reply.code(404).send({ error: 'no such asset' });
    return reply.type(f.type).send(f.body);
  });
  app.get<{ Querystring: { code?: string } }>('/auth', async (req, reply) => {
    const code = req.query.code ?? '';
    if (!auth.redeem(code)) {
      return reply.code(403).type('text/plain').send('This dashboard link was used already or has expired. Get a new one: termsupervisor dashboard\n');
    }
    reply.header('set-cookie', `${TOKEN_COOKIE}=${encodeURIComponent(auth.cookieValue)}; HttpOnly; SameSite=Strict; Path=/`);
    return reply.redirect('/', 302);
  });
  // A new one-time link, for a CLI holding the token (`termsupervisor dashboard`).
  app.post('/api/auth/code', async () => ({ code: auth.issueCode() }));

  app.get('/api/panes', async () => api.panes());
  app.get<{ Params: { id: string } }>('/api/panes/:id', async (req, reply) => api.pane(req.params.id) ?? notFound(reply));
  app.get<{ Params: { id: string } }>('/api/panes/:id/screen', async (req, reply) => {
    const text = api.screen(req.params.id);
    // The revision the text belongs to: an action made on this screen carries it.
    return text === null ? notFound(reply) : { text, rev: api.pane(req.params.id)?.rev ?? 0 };
  });
  app.get<{ Params: { id: string }; Querystring: { limit?: string } }>('/api/panes/:id/transitions', async (req, reply) => {
    const limit = parseLimit(req.query.limit);
    if (limit === null) return reply.code(400).send({ error: `limit must be a whole number from 1 to ${MAX_LIMIT}` });
    return api.transitions(req.params.id, limit) ?? notFound(reply);
  });
  app.get<{ Params: { id: string }; Querystring: { limit?: string } }>('/api/panes/:id/turns', async (req, reply) => {
    const limit = parseLimit(req.query.limit);
    if (limit === null) return reply.code(400).send({ error: `limit must be a whole number from 1 to ${MAX_LIMIT}` });
    return api.turns(req.params.id, limit) ?? notFound(reply);
  });
  app.get('/api/stats', async () => api.stats());
  app.get('/api/notify', async () => api.notifyHealth?.() ?? { channels: [], unavailable: [], held: 0 });
  // An agent's hook (`termsupervisor hook`): 200 delivered to a pane, 202 accepted but no pane matched.
  app.post('/api/hooks', async (req, reply) => {
    if (!api.hook) return reply.code(501).send({ error: 'this daemon takes no hook events' });
    const parsed = parseHookBody(req.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.reason });
    const r = api.hook(parsed.body);
    return reply.code(r.matched ? 200 : 202).send(r);
  });

  registerTaskRoutes(app, api);
  registerFocusRoute(app, api);
  registerNameRoute(app, api);
  registerActionRoutes(app, api);

  // Websockets: the dashboard feed and the link endpoints share the server's upgrade event.
  const wssFeed = new WebSocketServer({ noServer: true, maxPayload: MAX_DASHBOARD_MESSAGE });
  const wssLink = new WebSocketServer({ noServer: true, maxPayload: opts.maxLinkMessageBytes ?? DEFAULT_MAX_LINK_MESSAGE });
  app.server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (raw.url ?? '').split('?')[0]!;
    const req = { headers: raw.headers, url: raw.url ?? '' } as unknown as FastifyRequest;
    const refuse = (code: number, msg: string) => {
      socket.end(`HTTP/1.1 ${code} ${msg}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (opts.loopback && !loopbackHost(raw.headers.host)) return refuse(403, 'Forbidden');
    if (path === '/ws') {
      if (!auth.mayWatch(req)) return refuse(401, 'Unauthorized');
      const slot = slots.take(auth.hasToken(req) ? 'token' : 'open');
      wssFeed.handleUpgrade(raw, socket, head, (ws: WebSocket) => {
        if ('refused' in slot) return ws.close(FEED_FULL_CLOSE_CODE, slot.refused);
        ws.once('close', slot.release);
        ws.on('message', () => {}); // the dashboard only listens; anything it sends is ignored
        const history = api.history?.();
        hub.add(ws, { type: 'hello', version: api.version, panes: api.panes(), ...(history && { history }) });
      });
      return;
    }
    const kind = LINK_PATHS[path];
    if (kind) {
      if (!auth.mayChange(req)) return refuse(401, 'Unauthorized');
      wssLink.handleUpgrade(raw, socket, head, (ws: WebSocket) => api.acceptLink(kind, ws, raw.socket.remoteAddress ?? ''));
      return;
    }
    refuse(404, 'Not Found');
  });

  return {
    fastify: app,
    hub,
    async close() {
      unsubscribe();
      hub.close();
      for (const ws of wssLink.clients) ws.terminate();
      wssFeed.close();
      wssLink.close();
      await app.close();
    },
  };
}

function notFound(reply: FastifyReply) {
  return reply.code(404).send({ error: 'no such pane' });
}

function parseLimit(v: string | undefined): number | null {
  if (v === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n >= 1 && n <= MAX_LIMIT ? n : null;
}

function hubMetrics(hub: WsHub, slots: FeedSlots): string {
  return [
    '# HELP termsupervisor_ws_clients Dashboard websocket clients connected.',
    '# TYPE termsupervisor_ws_clients gauge',
    `termsupervisor_ws_clients ${hub.size}`,
    '# HELP termsupervisor_ws_messages_total Messages sent to dashboard clients.',
    '# TYPE termsupervisor_ws_messages_total counter',
    `termsupervisor_ws_messages_total ${hub.sent}`,
    '# HELP termsupervisor_ws_skipped_total Flushes skipped for a client that was behind.',
    '# TYPE termsupervisor_ws_skipped_total counter',
    `termsupervisor_ws_skipped_total ${hub.skipped}`,
    '# HELP termsupervisor_ws_dropped_total Clients dropped for not reading.',
    '# TYPE termsupervisor_ws_dropped_total counter',
    `termsupervisor_ws_dropped_total ${hub.dropped}`,
    '# HELP termsupervisor_ws_refused_total Feeds refused because the cap on open feeds was reached.',
    '# TYPE termsupervisor_ws_refused_total counter',
    `termsupervisor_ws_refused_total ${slots.refused}`,
    '',
  ].join('\n');
}
