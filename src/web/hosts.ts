// Panes by the machine they run on (issue 16): this machine's own first, then each remote or peer by name. Shared
// by `status`, `top` and the dashboard, so all three group and word an unreachable host alike.
import type { PaneView } from './api-types.js';

/** The group of this machine's panes (a pane with no `host`). */
export const THIS_MACHINE = 'this machine';

/** 0 for this machine's panes, then 1: any host's (ordered by name by compareHosts). */
export function compareHosts(a: Pick<PaneView, 'host'>, b: Pick<PaneView, 'host'>): number {
  if (!a.host || !b.host) return (a.host ? 1 : 0) - (b.host ? 1 : 0);
  return a.host < b.host ? -1 : a.host > b.host ? 1 : 0;
}

/** Whether any pane runs elsewhere (else nothing is grouped: a one-machine list stays as it always was). */
export function anyRemote(panes: ReadonlyArray<Pick<PaneView, 'host'>>): boolean {
  return panes.some((p) => p.host);
}

/** The panes in groups by host, this machine first; each group keeps the order it was given. */
export function byHost<T extends Pick<PaneView, 'host'>>(panes: readonly T[]): Array<{ host: string | null; panes: T[] }> {
  const groups = new Map<string, T[]>();
  for (const p of panes) {
    const k = p.host ?? '';
    const g = groups.get(k);
    if (g) g.push(p);
    else groups.set(k, [p]);
  }
  return [...groups.entries()].sort(([a], [b]) => compareHosts({ host: a || undefined }, { host: b || undefined })).map(([k, ps]) => ({ host: k || null, panes: ps }));
}

/** "host unreachable since 12:03:04 (ssh: connect … refused)": what a stale pane says, in local time. */
export function unreachableText(u: NonNullable<PaneView['unreachable']>, time: (ms: number) => string): string {
  return `host unreachable since ${time(u.since)}${u.reason ? ` (${u.reason})` : ''}`;
}
