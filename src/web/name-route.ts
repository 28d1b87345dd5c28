// POST /api/panes/:id/name {name}: names a live pane (`termsupervisor name PANE NAME`). A tmux pane keeps its name
// in tmux itself (the pane option @termsupervisor_name: it outlives the daemon); '' gives a tmux pane back its
// tmux name. A mutation like every action (token, same origin: build-app's onRequest hook).
import type { FastifyInstance } from 'fastify';
import type { DaemonApi } from './daemon-api.js';

/** Longer names are refused: a name is a label on a card and a status line, not a description. */
export const MAX_PANE_NAME = 64;

export function registerNameRoute(app: FastifyInstance, api: DaemonApi): void {
  app.post<{ Params: { id: string }; Body: Record<string, unknown> | null | undefined }>('/api/panes/:id/name', async (req, reply) => {
    if (!api.rename) return reply.code(501).send({ error: 'this daemon cannot name panes' });
    const raw = req.body && typeof req.body === 'object' ? req.body['name'] : undefined;
    if (typeof raw !== 'string') return reply.code(400).send({ error: 'name must be a string' });
    const name = raw.trim();
    if (name.length > MAX_PANE_NAME) return reply.code(400).send({ error: `a name is at most ${MAX_PANE_NAME} characters` });
    if (/[\x00-\x1f\x7f]/.test(name)) return reply.code(400).send({ error: 'a name holds no control characters' });
    const pane = api.pane(req.params.id);
    if (!pane) return reply.code(404).send({ error: 'no such pane' });
    if (!pane.alive) return reply.code(409).send({ error: 'the pane is closed', pane });
    const r = await api.rename(req.params.id, name);
    if (typeof r === 'string') return reply.code(400).send({ error: r, pane });
    return r ?? reply.code(404).send({ error: 'no such pane' });
  });
}
