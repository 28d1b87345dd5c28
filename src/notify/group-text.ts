// Several panes finishing within notify.group_s: one notification naming them all, instead of a burst of pings.
import { cut } from '../daemon/redact.js';
import { BODY_MAX, clean, notificationFor } from './text.js';
import type { Notification, NotifyEvent } from './types.js';

/** Names listed in the title; the rest are counted. */
const TITLE_NAMES = 3;

export function groupNotification(evs: NotifyEvent[], url?: string): Notification {
  const each = evs.map((e) => notificationFor(e));
  const names = each.map((n) => n.paneName);
  const more = names.length > TITLE_NAMES ? ` +${names.length - TITLE_NAMES}` : '';
  const last = evs[evs.length - 1]!;
  return {
    title: `${evs.length} panes are done: ${names.slice(0, TITLE_NAMES).join(', ')}${more}`,
    // One line per pane: its own title says what it ran and how long it took.
    body: cut(each.map((n) => `${n.title}${n.command ? ` · ${n.command}` : ''}`).join('\n'), BODY_MAX),
    kind: 'DONE',
    paneId: last.paneId,
    paneName: clean(`${evs.length} panes`),
    program: [...new Set(evs.map((e) => e.program))].join(','),
    at: last.at,
    tier: last.tier,
    rule: 'group',
    urgent: false,
    panes: evs.map((e) => e.paneId),
    ...(url ? { url } : {}),
  };
}
