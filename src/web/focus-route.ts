// POST /api/panes/:id/focus: "jump to the pane". The daemon makes the person's terminal show it where the pane's
// source can (tmux: their attached client; iTerm2: the bridge), or says where it runs (a `run` pane). A mutation
// like every action (token, same origin: build-app's onRequest hook); the client names itself with the header
// `x-termsupervisor-client` (dashboard, cli, top; anything else is `api`), kept in the action's history.
import type { FastifyInstance } from 'fastify';
import type { StaleActionView } from './api-types.js';
import type { DaemonApi } from './daemon-api.js';
import { clientOf } from './action-routes.js';

export function registerFocusRoute(app: FastifyInstance, api: DaemonApi): void {
  app.post<{ Params: { id: string } }>('/api/panes/:id/focus', async (req, reply) => {
    if (!api.focus) return reply.code(501).send({ error: 'this daemon cannot jump to panes' });
    const pane = api.pane(req.params.id);
    if (!pane) return reply.code(404).send({ error: 'no such pane' });
    if (!pane.alive) return reply.code(409).send({ error: 'the pane is closed: there is nothing to jump to', pane } satisfies StaleActionView);
    const client = clientOf(req);
    const r = await api.focus(req.params.id, client.origin, client.from);
    // Closed between the two looks: as above.
    if (!r) return reply.code(404).send({ error: 'no such pane' });
    return r;
  });
}
