// REST for supervised tasks: create, list, inspect, stop, resume, retry. The daemon's TaskManager does the work;
// this maps its refusals onto status codes (400 a bad request, 404 an unknown task, 409 the wrong moment).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DaemonApi } from './daemon-api.js';
import { TaskSpecError } from '../tasks/task-spec.js';
import { TaskConflictError, TaskNotFoundError } from '../tasks/task-manager.js';

/** Tasks `GET /api/tasks` lists at most, newest first. */
const MAX_TASKS = 500;
const DEFAULT_TASKS = 50;
/** A stop's `by`: a label, not free text (it lands in the task's reason). */
const STOPPED_BY = /^[a-z][a-z0-9_-]{0,30}$/;

export function registerTaskRoutes(app: FastifyInstance, api: DaemonApi): void {
  const tasks = (reply: FastifyReply) => {
    if (!api.tasks) void reply.code(501).send({ error: 'this daemon runs no tasks' });
    return api.tasks ?? null;
  };
  const guarded = async <T>(reply: FastifyReply, f: () => T) => {
    try {
      return f();
    } catch (e) {
      if (e instanceof TaskSpecError) return reply.code(400).send({ error: e.message, problems: e.problems });
      if (e instanceof TaskNotFoundError) return reply.code(404).send({ error: e.message });
      if (e instanceof TaskConflictError) return reply.code(409).send({ error: e.message });
      throw e;
    }
  };

  app.post('/api/tasks', async (req, reply) => {
    const t = tasks(reply);
    // A task types into its pane: refused up front where the pane's host does not allow typing.
    const pane = (req.body as { pane?: unknown } | null)?.pane;
    const refused = typeof pane === 'string' ? api.typingRefusal?.(pane) : null;
    if (t && refused) return reply.code(403).send({ error: refused });
    return t && guarded(reply, () => reply.code(201).send(t.start(req.body)));
  });
  app.get<{ Querystring: { limit?: string; pane?: string } }>('/api/tasks', async (req, reply) => {
    const t = tasks(reply);
    if (!t) return;
    const limit = req.query.limit === undefined ? DEFAULT_TASKS : Number(req.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TASKS) return reply.code(400).send({ error: `limit must be a whole number from 1 to ${MAX_TASKS}` });
    return t.list(limit, req.query.pane);
  });
  app.get<{ Params: { id: string } }>('/api/tasks/:id', async (req, reply) => {
    const t = tasks(reply);
    if (!t) return;
    return t.detail(req.params.id) ?? reply.code(404).send({ error: `no task ${JSON.stringify(req.params.id)}` });
  });
  app.post<{ Params: { id: string }; Body: { by?: unknown } | null }>('/api/tasks/:id/stop', async (req, reply) => {
    const t = tasks(reply);
    // Who stopped it, for the record: a short word the client gives (dashboard, cli), else "api".
    const by = typeof req.body?.by === 'string' && STOPPED_BY.test(req.body.by) ? req.body.by : 'api';
    return t && guarded(reply, () => t.stop(req.params.id, by));
  });
  app.post<{ Params: { id: string } }>('/api/tasks/:id/resume', async (req, reply) => {
    const t = tasks(reply);
    return t && guarded(reply, () => t.resume(req.params.id));
  });
  app.post<{ Params: { id: string }; Body: { iterations?: unknown; budget?: unknown } | null }>('/api/tasks/:id/retry', async (req, reply) => {
    const t = tasks(reply);
    if (!t) return;
    const body = req.body ?? {};
    const more: { iterations?: number; budget?: number } = {};
    for (const k of ['iterations', 'budget'] as const) {
      const v = body[k];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return reply.code(400).send({ error: `${k} must be a whole number ≥ 1` });
      more[k] = v;
    }
    return guarded(reply, () => t.retry(req.params.id, more));
  });
}
