// The header's host filter: shown once some pane runs on another machine (a peer daemon's, a remote tmux
// server's); lists "all", this machine and each host seen, and tells the board which to show.
import type { PaneView } from '../../src/web/api-types.js';

/** The option for this machine's own panes (a host's name never holds "@"). */
export const LOCAL = '@local';

/** Whether pane `p` is shown under filter `value` ('' shows every pane). */
export function showsHost(value: string, p: Pick<PaneView, 'host'>): boolean {
  return value === '' || (value === LOCAL ? !p.host : p.host === value);
}

export class HostFilter {
  private hosts = '';

  constructor(
    private readonly box: HTMLElement,
    private readonly select: HTMLSelectElement,
    onChange: (value: string) => void,
  ) {
    select.addEventListener('change', () => onChange(select.value));
  }

  /** Keeps the options to the hosts the panes have (rebuilt only when that set changes). */
  update(panes: ReadonlyMap<string, PaneView>): void {
    const names = [...new Set([...panes.values()].map((p) => p.host).filter((h): h is string => Boolean(h)))].sort();
    const key = names.join('\n');
    if (key === this.hosts) return;
    this.hosts = key;
    const current = this.select.value;
    const options: Array<[string, string]> = [['', 'all'], [LOCAL, 'this machine'], ...names.map((h): [string, string] => [h, h])];
    this.select.replaceChildren(...options.map(([value, label]) => new Option(label, value, false, value === current)));
    this.box.hidden = names.length === 0;
  }
}
