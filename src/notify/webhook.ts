// A webhook POST per notification. format "json": the notification as JSON (never the raw screen line: only the
// redacted, cut body). format "ntfy": the body as plain text with Title/Priority/Tags headers, as ntfy.sh expects.
import type { Notification, NotifyChannel, NotifyKind } from './types.js';

/** A webhook that has not answered by then is abandoned: a dead endpoint must not hold sockets open. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

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
    async send(n) {
      const req = format === 'ntfy' ? ntfyRequest(n) : jsonRequest(n);
      const res = await doFetch(url, { method: 'POST', ...req, signal: AbortSignal.timeout(timeout) });
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
    },
    body: n.body || n.title,
  };
}

/** HTTP header values are ASCII; ntfy decodes RFC 2047 encoded-words, so anything else goes as =?UTF-8?B?…?=. */
export function headerText(s: string): string {
  return /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`;
}
