// REST for acting on a pane: answer its question, reply at rest, interrupt, ack, and the history of such actions.
// Bodies are checked here (400); whether the pane takes the action now is the daemon's (pane-actions.ts): 409 with
// the fresh pane when it changed or is in the wrong state, 503 when its source cannot type.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActionClient, ActionOutcome, DaemonApi } from './daemon-api.js';
import type { ActionOrigin } from './api-types.js';

/** Clients that name themselves (header x-termsupervisor-client); anything else is `api`. */
const CLIENTS: readonly ActionOrigin[] = ['dashboard', 'cli', 'top'];
export const CLIENT_HEADER = 'x-termsupervisor-client';
/** An option's id is short ('1', 'y', 'enter'). */
const MAX_OPTION_ID = 20;
/** Actions `GET /api/panes/:id/actions` returns at most, newest first. */
const MAX_ACTIONS = 1000;
const DEFAULT_ACTIONS = 100;

type Body = Record<string, unknown> | null | undefined;
type Req = FastifyRequest<{ Params: { id: string }; Body: Body }>;

export function clientOf(req: FastifyRequest): ActionClient {
  const h = req.headers[CLIENT_HEADER];
  const name = (Array.isArray(h) ? h[0] : h)?.trim().toLowerCase();
  const origin = CLIENTS.find((c) => c === name) ?? 'api';
  return { origin, from: req.ip };
}

export function registerActionRoutes(app: FastifyInstance, api: DaemonApi): void {
  const actions = (reply: FastifyReply) => {
    if (!api.actions) void reply.code(501).send({ error: 'this daemon takes no pane actions' });
    return api.actions ?? null;
  };

  app.post<{ Params: { id: string }; Body: Body }>('/api/panes/:id/answer', async (req: Req, reply) => {
    const a = actions(reply);
    if (!a) return;
    const b = object(req.body);
    const option = b?.['option'];
    if (typeof option !== 'string' || !option || option.length > MAX_OPTION_ID) return bad(reply, `option must be the id of one of the question's options (a short string)`);
    const rev = revOf(b);
    if (rev === null) return bad(reply, 'rev must be the pane revision the answer was made on (a whole number)');
    return send(reply, await a.answer(req.params.id, { option, rev }, clientOf(req)));
  });

  app.post<{ Params: { id: string }; Body: Body }>('/api/panes/:id/reply', async (req: Req, reply) => {
    const a = actions(reply);
    if (!a) return;
    const b = object(req.body);
    const text = b?.['text'];
    if (typeof text !== 'string' || !text.trim()) return bad(reply, 'text must be a non-empty string');
    const rev = revOf(b);
    if (rev === null) return bad(reply, 'rev must be the pane revision the reply was made on (a whole number)');
    return send(reply, await a.reply(req.params.id, { text, rev }, clientOf(req)));
  });

  app.post<{ Params: { id: string }; Body: Body }>('/api/panes/:id/interrupt', async (req: Req, reply) => {
    const a = actions(reply);
    if (!a) return;
    const rev = revOf(object(req.body));
    if (rev === null) return bad(reply, 'rev must be a pane revision shown in its current state (a whole number)');
    return send(reply, await a.interrupt(req.params.id, { rev }, clientOf(req)));
  });

  app.post<{ Params: { id: string } }>('/api/panes/:id/ack', async (req, reply) => {
    const client = clientOf(req);
    const view = api.actions ? api.actions.ack(req.params.id, client) : api.ack(req.params.id, client.origin);
    return view ?? reply.code(404).send({ error: 'no such pane' });
  });

  app.get<{ Params: { id: string }; Querystring: { limit?: string } }>('/api/panes/:id/actions', async (req, reply) => {
    const a = actions(reply);
    if (!a) return;
    const raw = req.query.limit;
    const limit = raw === undefined ? DEFAULT_ACTIONS : /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(limit >= 1 && limit <= MAX_ACTIONS)) return bad(reply, `limit must be a whole number from 1 to ${MAX_ACTIONS}`);
    return a.list(req.params.id, limit) ?? reply.code(404).send({ error: 'no such pane' });
  });
}

function object(body: unknown): Record<string, unknown> | null {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

function revOf(b: Record<string, unknown> | null): number | null {
  const rev = b?.['rev'];
  return typeof rev === 'number' && Number.isSafeInteger(rev) && rev >= 0 ? rev : null;
}

function bad(reply: FastifyReply, error: string) {
  return reply.code(400).send({ error });
}

function send(reply: FastifyReply, o: ActionOutcome) {
  if (o.ok) return reply.code(200).send(o.result);
  if (o.pane === null) return reply.code(o.status).send({ error: o.error });
  return reply.code(o.status).send({ error: o.error, pane: o.pane });
}
