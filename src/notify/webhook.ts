// A webhook POST per notification. format "json": the notification as JSON (never the raw screen line: only the
// redacted, cut body), with a link to the pane. format "ntfy": the body as plain text with Title/Priority/Tags
// headers, as ntfy.sh expects, and Click/Actions opening the pane on the dashboard.
import { UnconfirmedError } from './delivery.js';
import type { Notification, NotifyChannel, NotifyKind } from './types.js';

/** A webhook that has not answered by then is abandoned: a dead endpoint must not hold sockets open. Long enough
 * for a slow relay (one answered after 12 s); a timeout is reported as unconfirmed, not as a failure. */
export const WEBHOOK_TIMEOUT_MS = 30_000;

export type WebhookFormat = 'json' | 'ntfy';

/** ntfy tags (shown as emoji) per kind. */
const NTFY_TAGS: Record<NotifyKind, string> = {
  WAITING_APPROVAL: 'raised_hand',
  FAILED: 'x',
  STALLED: 'hourglass',
  DONE: 'white_check_mark',
  TASK_FINISHED: 'trophy',
  TASK_NEEDS_YOU: 'warning',
};

export interface WebhookOptions {
  timeoutMs?: number;
  /** Injected for tests; default the global fetch. */
  fetch?: typeof fetch;
}

export function webhookChannel(url: string, format: WebhookFormat, opts: WebhookOptions = {}): NotifyChannel {
  const timeout = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  return {
    name: 'webhook',
    detail: `${format} ${safeUrl(url)}`,
    async send(n) {
      const req = format === 'ntfy' ? ntfyRequest(n) : jsonRequest(n);
      let res: Response;
      try {
        res = await doFetch(url, { method: 'POST', ...req, signal: AbortSignal.timeout(timeout) });
      } catch (e) {
        // The request went out and no answer came: it may well have arrived (a slow relay), so it is neither
        // "failed" nor tried again (a second copy on the phone).
        if ((e as Error)?.name === 'TimeoutError' || (e as Error)?.name === 'AbortError') throw new UnconfirmedError(`no answer from the webhook within ${Math.round(timeout / 1000)} s (sent; delivery unconfirmed)`, { cause: e });
        throw e; // fetch's "fetch failed" carries the reason in its cause (describeError shows it)
      }
      // Read the answer either way so the connection is released; its text helps explain a refusal.
      const text = await res.text().catch(() => '');
      if (!res.ok) throw new Error(`webhook answered ${res.status} ${res.statusText}${text ? `: ${text.trim().slice(0, 200)}` : ''}`);
    },
  };
}

/** The JSON document posted in "json" format. */
export function webhookPayload(n: Notification): Record<string, unknown> {
  return {
    source: 'termsupervisor',
    kind: n.kind,
    title: n.title,
    body: n.body,
    pane: n.paneId,
    name: n.paneName,
    program: n.program,
    tier: n.tier,
    rule: n.rule,
    urgent: n.urgent,
    at: new Date(n.at).toISOString(),
    question: n.question ?? null,
    options: n.options ?? [],
    command: n.command ?? null,
    exitCode: n.exitCode ?? null,
    durationS: n.durationS ?? null,
    url: n.url ?? null,
    ...(n.panes ? { panes: n.panes } : {}),
  };
}

function jsonRequest(n: Notification): { headers: Record<string, string>; body: string } {
  return { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(webhookPayload(n)) };
}

function ntfyRequest(n: Notification): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      Title: headerText(n.title),
      Priority: n.urgent ? 'high' : 'default',
      Tags: `${NTFY_TAGS[n.kind]},${headerText(n.program)}`,
      // Header values are ASCII, and ntfy's action syntax splits on commas and semicolons: a link with either
      // (a hand-set notify.dashboard_url) is left out rather than sent broken.
      ...(n.url && /^[\x21-\x7e]+$/.test(n.url) && !/[,;]/.test(n.url) ? { Click: n.url, Actions: `view, Open pane, ${n.url}, clear=true` } : {}),
    },
    body: n.body || n.title,
  };
}

/** HTTP header values are ASCII; ntfy decodes RFC 2047 encoded-words, so anything else goes as =?UTF-8?B?…?=. */
export function headerText(s: string): string {
  return /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`;
}

/** The URL as shown in doctor and on the board: no user:password, no query (a token often rides there). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return '(unparsable URL)';
  }
}
