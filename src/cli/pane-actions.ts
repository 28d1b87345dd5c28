// The pane actions as a client asks for them (`top`, and the `send`/`answer`/`interrupt`/`ack`/`focus` commands):
// POST /api/panes/:id/<action> with the token, naming the client in `x-termsupervisor-client` so history says who
// typed. The daemon's answer comes back as data: done (the action and the fresh pane), or refused with its
// status, reason and (409) the fresh pane — the caller decides how to say it.
import type { ActionView, PaneView } from '../web/api-types.js';
import { daemonFetch } from './daemon-client.js';
import type { DaemonTarget } from './daemon-link.js';

export const CLIENT_HEADER = 'x-termsupervisor-client';
export type ClientName = 'cli' | 'top';
export type PaneAction = 'answer' | 'reply' | 'interrupt' | 'ack' | 'focus';

export type ActOutcome =
  | { ok: true; status: number; action: ActionView | null; pane: PaneView | null; focused?: boolean; how?: string; body: unknown }
  | { ok: false; status: number; error: string; pane: PaneView | null; body: unknown };

/** The daemon's sentence for a stale action (StaleActionView.error may say more). */
export const STALE = 'the pane changed — look again';

export async function paneAction(target: DaemonTarget, client: ClientName, paneId: string, action: PaneAction, body?: object): Promise<ActOutcome> {
  const res = await daemonFetch(target, `/api/panes/${encodeURIComponent(paneId)}/${action}`, { method: 'POST', body: body ?? {}, headers: { [CLIENT_HEADER]: client } });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    // not JSON (a proxy's page): its text is the reason
  }
  const pane = paneOf(json);
  if (res.ok) {
    const action = json && typeof json['action'] === 'object' ? (json['action'] as ActionView) : null;
    return { ok: true, status: res.status, action, pane, body: json, ...(typeof json?.['focused'] === 'boolean' && { focused: json['focused'] }), ...(typeof json?.['how'] === 'string' && { how: json['how'] }) };
  }
  const error = typeof json?.['error'] === 'string' ? (json['error'] as string) : res.status === 404 && !json ? `this daemon has no ${action} route (an older version?)` : text.slice(0, 200) || `HTTP ${res.status}`;
  return { ok: false, status: res.status, error, pane, body: json ?? text };
}

/** The pane in an answer: `{pane}` (ActionResult, StaleActionView) or the pane itself (the ack route's old answer). */
function paneOf(json: Record<string, unknown> | null): PaneView | null {
  if (!json) return null;
  const p = json['pane'];
  if (p && typeof p === 'object') return p as PaneView;
  if (typeof json['id'] === 'string' && typeof json['state'] === 'string') return json as unknown as PaneView;
  return null;
}
