// The dashboard's host filter (issue 16): every pane, this machine's only, or one remote's or peer's. Shown only
// once a pane of another machine is on the board; its choices follow the hosts the board holds.
import type { PaneView } from '../../src/web/api-types.js';
import { anyRemote, byHost, THIS_MACHINE } from '../../src/web/hosts.js';

/** '' every pane; LOCAL this machine's; else a host's name. */
export const LOCAL = '\u0000local';

export function hostShown(p: Pick<PaneView, 'host'>, filter: string): boolean {
  if (!filter) return true;
  return filter === LOCAL ? !p.host : p.host === filter;
}

/** The select's choices: [value, label], this machine first, then the hosts by name. */
export function hostChoices(panes: Iterable<PaneView>): Array<[string, string]> {
  const all = [...panes];
  if (!anyRemote(all)) return [];
  return [['', 'all hosts'], ...byHost(all).map(({ host, panes: ps }): [string, string] => [host ?? LOCAL, `${host ?? THIS_MACHINE} (${ps.filter((p) => p.alive).length})`])];
}

/** Keeps the select's options in step with the board (rebuilt only when they change); hidden with no remote. */
export function syncHostSelect(select: HTMLSelectElement, panes: Iterable<PaneView>): void {
  const choices = hostChoices(panes);
  const key = JSON.stringify(choices);
  if (select.dataset.choices === key) return;
  select.dataset.choices = key;
  const current = select.value;
  select.replaceChildren(...choices.map(([value, label]) => Object.assign(document.createElement('option'), { value, textContent: label })));
  select.value = choices.some(([v]) => v === current) ? current : '';
  select.hidden = choices.length === 0;
  if (select.value !== current) select.dispatchEvent(new Event('change'));
}
