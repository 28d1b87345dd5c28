// Same-origin calls to the daemon's REST API (the auth cookie goes along by itself). 401/403 means this browser
// has no token: the page stays usable read-only and says how to sign in.
import type { StatsView, TransitionView, TurnView } from '../../src/web/api-types.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    path: string,
  ) {
    super(`${path}: HTTP ${status}`);
  }
}

export const READ_ONLY = 'read-only — open the link `make run` printed';

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
  if (!r.ok) throw new HttpError(r.status, path);
  return r;
}

async function getJson<T>(path: string): Promise<T> {
  return (await request(path, { headers: { accept: 'application/json' } })).json() as Promise<T>;
}

const pane = (id: string) => `/api/panes/${encodeURIComponent(id)}`;

export const api = {
  transitions: (id: string) => getJson<TransitionView[]>(`${pane(id)}/transitions?limit=500`),
  turns: (id: string) => getJson<TurnView[]>(`${pane(id)}/turns`),
  screen: (id: string) => getJson<{ text: string }>(`${pane(id)}/screen`),
  stats: () => getJson<StatsView>('/api/stats'),
  ack: async (id: string): Promise<void> => {
    await request(`${pane(id)}/ack`, { method: 'POST' });
  },
};
