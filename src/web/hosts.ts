// Panes by the machine they run on (issue 16): this machine's own first, then each remote or peer by name (`top`'s
// grouping and its words for an unreachable host).
import type { PaneView } from './api-types.js';

/** 0 for this machine's panes, then 1: any host's (ordered by name by compareHosts). */
export function compareHosts(a: Pick<PaneView, 'host'>, b: Pick<PaneView, 'host'>): number {
  if (!a.host || !b.host) return (a.host ? 1 : 0) - (b.host ? 1 : 0);
  return a.host < b.host ? -1 : a.host > b.host ? 1 : 0;
}

/** Whether any pane runs elsewhere (else nothing is grouped: a one-machine list stays as it always was). */
export function anyRemote(panes: ReadonlyArray<Pick<PaneView, 'host'>>): boolean {
  return panes.some((p) => p.host);
}

/** "host unreachable since 12:03:04 (ssh: connect … refused)": what a stale pane says, in local time. */
export function unreachableText(u: NonNullable<PaneView['unreachable']>, time: (ms: number) => string): string {
  return `host unreachable since ${time(u.since)}${u.reason ? ` (${u.reason})` : ''}`;
}
