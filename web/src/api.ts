// Same-origin calls to the daemon's REST API (the auth cookie goes along by itself). 401/403 means this browser
// has no token: the page stays usable read-only and says how to sign in.
import type { StatsView, TaskDetailView, TaskView, TransitionView, TurnView } from '../../src/web/api-types.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    path: string,
    /** The daemon's own words (its JSON `error`), when it gave any. */
    readonly reason = '',
    /** What a 400 found wrong, one item each (POST /api/tasks). */
    readonly problems: string[] = [],
  ) {
    super(reason ? `${reason} (HTTP ${status})` : `${path}: HTTP ${status}`);
  }
}

export const READ_ONLY = 'read-only — open the link the daemon printed, or a new one from `termsupervisor dashboard`';

export function isAuthError(e: unknown): boolean {
  return e instanceof HttpError && (e.status === 401 || e.status === 403);
}

let onDenied: () => void = () => {};
/** Called once per refused request, so the page can show its read-only notice. */
export function onAuthDenied(f: () => void): void {
  onDenied = f;
}

async function request(path: string, init?: RequestInit): Promise<Response> {
  const r = await fetch(path, { credentials: 'same-origin', ...init });
  if (r.status === 401 || r.status === 403) onDenied();
  if (!r.ok) {
    const body = (await r.json().catch(() => null)) as { error?: unknown; problems?: unknown } | null;
    const problems = Array.isArray(body?.problems) ? body.problems.map(String) : [];
    throw new HttpError(r.status, path, typeof body?.error === 'string' ? body.error : '', problems);
  }
  return r;
}

async function postJson<T>(path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method: 'POST', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  return (await request(path, init)).json() as Promise<T>;
}

async function getJson<T>(path: string): Promise<T> {
  return (await request(path, { headers: { accept: 'application/json' } })).json() as Promise<T>;
}

const pane = (id: string) => `/api/panes/${encodeURIComponent(id)}`;
const task = (id: string) => `/api/tasks/${encodeURIComponent(id)}`;

export const api = {
  transitions: (id: string) => getJson<TransitionView[]>(`${pane(id)}/transitions?limit=500`),
  turns: (id: string) => getJson<TurnView[]>(`${pane(id)}/turns`),
  screen: (id: string) => getJson<{ text: string }>(`${pane(id)}/screen`),
  stats: () => getJson<StatsView>('/api/stats'),
  ack: async (id: string): Promise<void> => {
    // The client names itself: history keeps who acked (origin dashboard, rule ack.dashboard).
    await request(`${pane(id)}/ack`, { method: 'POST', headers: { 'x-termsupervisor-client': 'dashboard' } });
  },
  /** Tasks, newest first: one pane's, or every pane's. */
  tasks: (paneId?: string, limit = 500) => getJson<TaskView[]>(`/api/tasks?limit=${limit}${paneId ? `&pane=${encodeURIComponent(paneId)}` : ''}`),
  task: (id: string) => getJson<TaskDetailView>(task(id)),
  startTask: (body: Record<string, unknown>) => postJson<TaskView>('/api/tasks', body),
  /** stop | resume | retry: the task as it is afterwards. */
  taskAction: (id: string, action: 'stop' | 'resume' | 'retry') => postJson<TaskView>(`${task(id)}/${action}`, action === 'retry' ? {} : action === 'stop' ? { by: 'dashboard' } : undefined),
};
