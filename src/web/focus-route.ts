// POST /api/panes/:id/focus: "jump to the pane". The daemon makes the person's terminal show it where the pane's
// source can (tmux: their attached client; iTerm2: the bridge), or says where it runs (a `run` pane). A mutation
// like every action (token, same origin: build-app's onRequest hook); the client names itself with the header
// `x-termsupervisor-client` (dashboard, cli, top; anything else is `api`), kept in the action's history.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ActionOrigin, StaleActionView } from './api-types.js';
import type { DaemonApi } from './daemon-api.js';

/** The origins a client may name itself as; `task` is the daemon's own and `api` the default. */
const CLIENT_ORIGINS: ReadonlySet<string> = new Set<ActionOrigin>(['dashboard', 'cli', 'top']);
export const CLIENT_HEADER = 'x-termsupervisor-client';

export function clientOrigin(req: FastifyRequest): ActionOrigin {
  const v = req.headers[CLIENT_HEADER];
  return typeof v === 'string' && CLIENT_ORIGINS.has(v) ? (v as ActionOrigin) : 'api';
}

export function registerFocusRoute(app: FastifyInstance, api: DaemonApi): void {
  app.post<{ Params: { id: string } }>('/api/panes/:id/focus', async (req, reply) => {
    if (!api.focus) return reply.code(501).send({ error: 'this daemon cannot jump to panes' });
    const pane = api.pane(req.params.id);
    if (!pane) return reply.code(404).send({ error: 'no such pane' });
    if (!pane.alive) return reply.code(409).send({ error: 'the pane is closed: there is nothing to jump to', pane } satisfies StaleActionView);
    const r = await api.focus(req.params.id, clientOrigin(req), req.ip);
    // Closed between the two looks: as above.
    if (!r) return reply.code(404).send({ error: 'no such pane' });
    return r;
  });
}
