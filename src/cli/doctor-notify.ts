// doctor's notification checks from the running daemon's own word (GET /api/notify): the channels it delivers to
// (desktop, webhook, bell, command), whether the last try of each got through, how many failed or went
// unconfirmed, and the channels it was configured for but could not start (no notify-send on ITS PATH). This
// shell's PATH and config say nothing about a daemon started elsewhere.
import type { NotifyHealthView } from '../web/api-types.js';
import type { DaemonTarget } from './daemon-link.js';

/** Same shape as doctor-checks.ts's Check (kept apart to avoid an import cycle). */
export interface NotifyCheck {
  id: string;
  status: 'ok' | 'warn' | 'fail' | 'n/a';
  detail: string;
  fix?: string;
}

/** null when the daemon cannot say (too old: no /api/notify; or no answer): the caller checks locally instead. */
export async function daemonNotifyChecks(target: DaemonTarget, timeoutMs: number): Promise<NotifyCheck[] | null> {
  let h: NotifyHealthView;
  try {
    const r = await fetch(`${target.url}/api/notify`, { headers: target.token ? { authorization: `Bearer ${target.token}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
    if (!r.ok) return null;
    h = (await r.json()) as NotifyHealthView;
  } catch {
    return null;
  }
  return notifyChecks(h);
}

export function notifyChecks(h: NotifyHealthView): NotifyCheck[] {
  const out: NotifyCheck[] = [];
  for (const u of h.unavailable) {
    const fix = u.name === 'desktop' ? 'install notify-send (apt install libnotify-bin) where the daemon runs and restart it, or set notify.desktop to false' : 'see docs/config.md (notify)';
    out.push({ id: `notify.${u.name}`, status: 'warn', detail: `the daemon cannot notify through ${u.name}: ${u.why}`, fix });
  }
  for (const c of h.channels) {
    const tally = `${c.delivered} delivered, ${c.failed} failed${c.unconfirmed ? `, ${c.unconfirmed} unconfirmed` : ''}${c.retrying ? `, ${c.retrying} retrying` : ''}`;
    const where = c.detail ? ` (${c.detail})` : '';
    if (c.status === 'failing') {
      out.push({ id: `notify.${c.name}`, status: 'fail', detail: `the daemon's ${c.name} channel${where} is failing: ${c.lastError ?? 'unknown error'}; ${tally}`, fix: c.name === 'webhook' ? 'check that the webhook URL answers (curl -X POST it); the daemon retries, and keeps questions until they get through' : 'see the daemon log (termsupervisor logs --grep notify)' });
    } else {
      out.push({ id: `notify.${c.name}`, status: 'ok', detail: `the daemon notifies through ${c.name}${where}: ${c.status === 'unused' ? 'nothing sent yet' : tally}` });
    }
  }
  if (!out.length) out.push({ id: 'notify', status: 'warn', detail: 'the daemon has no notification channel: nobody is told when a pane needs you', fix: 'set notify.desktop, notify.webhook_url or notify.command in the config and restart the daemon' });
  if (h.held) out.push({ id: 'notify.held', status: 'ok', detail: `${h.held} notification${h.held === 1 ? '' : 's'} held back (rate limit, quiet hours or a group forming): sent when due if still current` });
  return out;
}
