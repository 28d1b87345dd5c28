// Requests about a peer daemon's pane (`<peer>:<its id>`) go to that daemon, after this one's own auth: its
// screen, turns and actions, acks, and — only where the peer's allow_typing is set — answers, replies, interrupts
// and anything else that acts on the pane. The peer's answer (a 409 on a stale revision, a 400) passes through.
// The pane itself and its transitions are served here, from the mirror and this daemon's history. A supervised task
// is refused for a peer's pane: it runs on the daemon whose pane it is.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DaemonApi } from './daemon-api.js';
import { CLIENT_HEADER } from './action-routes.js';

const PANE_ROUTE = '/api/panes/:id';
/** Served from this daemon: the mirrored view (kept, and marked stale, while the peer is down) and the history
 * of transitions kept here. */
const LOCAL_READS = new Set(['', '/transitions']);
/** Acting without typing: always forwarded (the person has seen the pane). */
const NO_TYPING = new Set(['/ack']);

export function registerPeerRelay(app: FastifyInstance, api: DaemonApi): void {
  const peers = api.peers;
  if (!peers) return;
  const refuseTask = (body: unknown, reply: FastifyReply) => {
    const pane = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['pane'] : undefined;
    const owner = typeof pane === 'string' ? peers.owner(pane) : null;
    if (!owner) return;
    const problem = `pane: ${JSON.stringify(pane)} is a pane of peer "${owner.name}": start the task on that daemon (termsupervisor task start --daemon URL)`;
    return reply.code(400).send({ error: problem, problems: [problem] });
  };
  app.addHook('preHandler', async (req, reply) => {
    const route = req.routeOptions.url ?? '';
    if (route === '/api/tasks' && req.method === 'POST') return refuseTask(req.body, reply);
    if (!route.startsWith(PANE_ROUTE)) return;
    const id = (req.params as { id?: string }).id ?? '';
    const owner = peers.owner(id);
    if (!owner) return;
    const sub = route.slice(PANE_ROUTE.length);
    const method = req.method === 'GET' || req.method === 'HEAD' ? 'GET' : 'POST';
    if (method === 'GET' && LOCAL_READS.has(sub)) return;
    if (method === 'POST' && !NO_TYPING.has(sub) && !owner.allowTyping) {
      return reply.code(403).send({ error: `typing into panes of peer "${owner.name}" is not allowed from this daemon (config peers[].allow_typing is false)` });
    }
    if (owner.unreachable) {
      return reply.code(503).send({ error: `peer "${owner.name}" is unreachable since ${new Date(owner.unreachable.since).toISOString()}: ${owner.unreachable.reason}` });
    }
    const q = req.url.indexOf('?');
    const client = req.headers[CLIENT_HEADER];
    try {
      const a = await peers.forward(id, {
        method,
        sub,
        query: q < 0 ? '' : req.url.slice(q),
        ...(method === 'POST' && { body: req.body ?? {} }),
        ...(typeof client === 'string' && { client }),
      });
      // The peer refusing this daemon's copy of its token is no refusal of the client's (a 401 would make the
      // dashboard think it lost its own token): a bad gateway, saying which file to fix.
      if (a.status === 401) return reply.code(502).send({ error: `peer "${owner.name}" refused the token in its token_file (401): copy its current token there` });
      return reply.code(a.status).send(a.body);
    } catch (e) {
      return reply.code(502).send({ error: (e as Error).message });
    }
  });
}
