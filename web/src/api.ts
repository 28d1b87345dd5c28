// Same-origin calls to the daemon's REST API (the auth cookie goes along by itself). 401/403 means this browser
// has no token: the page stays usable read-only and says how to sign in.
import type { ActionResult, ActionView, FocusResult, PaneView, StatsView, TaskDetailView, TaskView, TransitionView, TurnView, NotifyHealthView } from '../../src/web/api-types.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    path: string,
    /** The daemon's own words (its JSON `error`), when it gave any. */
    readonly reason = '',
    /** What a 400 found wrong, one item each (POST /api/tasks). */
    readonly problems: string[] = [],
    /** A 409's fresh pane (StaleActionView): the pane changed since the person looked. */
    readonly pane: PaneView | null = null,
  ) {
    super(reason ? `${reason} (HTTP ${status})` : `${path}: HTTP ${status}`);
  }
}

export const READ_ONLY = 'read-only — open the link the daemon printed, or a new one from `termsupervisor dashboard`';

export function isAuthError(e: unknown): boolean {
  return e instanceof HttpError && (e.status === 401 || e.status === 403);
}

/** Said when an action is refused because the pane moved on since the person looked (409). */
export const STALE = 'the pane changed — look again';

/** A 409 (stale revision, or a state that does not take the action). */
export function isStale(e: unknown): e is HttpError {
  return e instanceof HttpError && e.status === 409;
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
    const body = (await r.json().catch(() => null)) as { error?: unknown; problems?: unknown; pane?: unknown } | null;
    const problems = Array.isArray(body?.problems) ? body.problems.map(String) : [];
    const pane = body?.pane && typeof body.pane === 'object' && 'id' in body.pane ? (body.pane as PaneView) : null;
    throw new HttpError(r.status, path, typeof body?.error === 'string' ? body.error : '', problems, pane);
  }
  return r;
}

// The daemon records who typed into a pane (ActionView.origin) from this header.
const CLIENT = { 'x-termsupervisor-client': 'dashboard' };

async function postJson<T>(path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method: 'POST', headers: { accept: 'application/json', ...CLIENT } };
  if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json', ...CLIENT };
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
  notifyHealth: () => getJson<NotifyHealthView>('/api/notify'),
  ack: async (id: string): Promise<void> => {
    await request(`${pane(id)}/ack`, { method: 'POST', headers: CLIENT });
  },
  /** The person's answer to the question shown at revision `rev` (409: the pane changed since). */
  answer: (id: string, option: string, rev: number) => postJson<ActionResult>(`${pane(id)}/answer`, { option, rev }),
  reply: (id: string, text: string, rev: number) => postJson<ActionResult>(`${pane(id)}/reply`, { text, rev }),
  interrupt: (id: string, rev: number) => postJson<ActionResult>(`${pane(id)}/interrupt`, { rev }),
  /** Jump: the daemon shows the pane (tmux, iTerm2) or says where it runs (`how`). */
  focus: (id: string) => postJson<FocusResult>(`${pane(id)}/focus`),
  /** What was typed into the pane (and acks, jumps), newest first. */
  actions: (id: string, limit = 100) => getJson<ActionView[]>(`${pane(id)}/actions?limit=${limit}`),
  /** Tasks, newest first: one pane's, or every pane's. */
  tasks: (paneId?: string, limit = 500) => getJson<TaskView[]>(`/api/tasks?limit=${limit}${paneId ? `&pane=${encodeURIComponent(paneId)}` : ''}`),
  task: (id: string) => getJson<TaskDetailView>(task(id)),
  startTask: (body: Record<string, unknown>) => postJson<TaskView>('/api/tasks', body),
  /** stop | resume | retry: the task as it is afterwards. */
  taskAction: (id: string, action: 'stop' | 'resume' | 'retry') => postJson<TaskView>(`${task(id)}/${action}`, action === 'retry' ? {} : action === 'stop' ? { by: 'dashboard' } : undefined),
};
