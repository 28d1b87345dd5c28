// The board's small notification indicator: hidden while every channel of the daemon delivers; a warning naming
// the failing channel and its last error otherwise, or when the daemon has none at all (GET /api/notify).
import type { NotifyHealthView } from '../../src/web/api-types.js';

/** How often the daemon is asked (the indicator is a hint, not an alarm). */
export const NOTIFY_HEALTH_POLL_MS = 30_000;

/** The indicator's text and tooltip, or null when all is well. */
export function notifyHealthText(h: NotifyHealthView | null): { text: string; title: string } | null {
  if (!h) return null;
  const failing = h.channels.filter((c) => c.status === 'failing');
  if (failing.length) {
    return { text: `notifications failing: ${failing.map((c) => c.name).join(', ')}`, title: failing.map((c) => `${c.name}${c.detail ? ` (${c.detail})` : ''}: ${c.lastError ?? 'error'}; ${c.delivered} delivered, ${c.failed} failed`).join('\n') };
  }
  if (!h.channels.length) return { text: 'no notification channel', title: h.unavailable.map((u) => `${u.name}: ${u.why}`).join('\n') || 'the daemon notifies nobody: set notify.desktop, webhook_url or command' };
  return null;
}

export function watchNotifyHealth(el: HTMLElement, load: () => Promise<NotifyHealthView>): void {
  const show = async () => {
    let h: NotifyHealthView | null = null;
    try {
      h = await load();
    } catch {
      h = null; // the connection indicator already says when the daemon is away
    }
    const t = notifyHealthText(h);
    el.hidden = t === null;
    el.textContent = t?.text ?? '';
    el.title = t?.title ?? '';
  };
  void show();
  setInterval(() => void show(), NOTIFY_HEALTH_POLL_MS);
}
