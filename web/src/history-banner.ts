// The banner that says history is not being kept: the daemon's store is degraded (a full disk, a damaged file).
// Pure text from the daemon's health report (unit-tested without a browser); main.ts shows or hides it.
import type { HistoryHealth } from '../../src/web/api-types.js';

/** The banner's text, or null when history is kept. */
export function historyBannerText(h: HistoryHealth | undefined, now = Date.now()): string | null {
  if (!h || h.status === 'ok') return null;
  const since = h.since === null ? '' : ` for ${Math.max(0, Math.round((now - h.since) / 1000))} s`;
  const waiting = h.queued ? `; ${h.queued} change${h.queued === 1 ? '' : 's'} wait in memory` : '';
  const lost = h.dropped ? `; ${h.dropped} lost` : '';
  const after = h.damaged
    ? ' The database file is damaged: `termsupervisor doctor` names it and the way out.'
    : ' Panes are still watched and shown; history catches up by itself once the cause is gone.';
  return `History degraded${since}: ${h.cause ?? 'the database refuses writes'}${waiting}${lost}.${after}`;
}
