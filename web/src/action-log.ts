// The open pane's actions in its timeline: what was typed into it (or an ack, a jump), who asked (dashboard, CLI,
// top, a task, the API), from where, and the keys. Loaded from GET /api/panes/:id/actions, then kept up to date by
// the feed's `action` messages.
import type { ActionView } from '../../src/web/api-types.js';
import { api, HttpError, isAuthError, READ_ONLY } from './api.js';
import { el, table } from './dom.js';
import { clock } from './format.js';

const SHOWN_ACTIONS = 50;

const key = (a: ActionView) => `${a.at}/${a.kind}/${a.origin}/${a.keys}`;

/** "answer: Yes, and don't ask again", "interrupt", "ack". */
export function what(a: ActionView): string {
  return a.detail ? `${a.kind}: ${a.detail}` : a.kind;
}

export class ActionLog {
  private list: ActionView[] = [];
  private id: string | null = null;
  /** Called after the list changed (the timeline bar marks each action). */
  onChange: () => void = () => {};

  constructor(private readonly box: HTMLElement) {}

  /** The open pane's actions, oldest first. */
  get actions(): readonly ActionView[] {
    return [...this.list].sort((a, b) => a.at - b.at);
  }

  async load(id: string): Promise<void> {
    this.id = id;
    this.list = [];
    this.box.replaceChildren();
    try {
      const loaded = await api.actions(id, SHOWN_ACTIONS);
      if (id !== this.id) return;
      const seen = new Set(loaded.map(key));
      // live actions that arrived while loading are kept
      this.list = [...loaded, ...this.list.filter((a) => !seen.has(key(a)))];
      this.render();
    } catch (e) {
      if (id !== this.id) return;
      // a daemon without the actions history (404): say so once, quietly
      const text = isAuthError(e) ? READ_ONLY : e instanceof HttpError && e.status === 404 ? 'this daemon keeps no action history' : `could not load: ${(e as Error).message}`;
      this.box.replaceChildren(el('p', 'none', text));
    }
  }

  close(): void {
    this.id = null;
  }

  onAction(a: ActionView): void {
    if (a.paneId !== this.id || this.list.some((b) => key(b) === key(a))) return;
    this.list.push(a);
    this.render();
  }

  private render(): void {
    const rows = [...this.list]
      .sort((a, b) => b.at - a.at)
      .slice(0, SHOWN_ACTIONS)
      .map((a) => [clock(a.at), a.origin, a.from, what(a), keysCell(a.keys)]);
    this.box.replaceChildren(table('Actions: who typed what', ['time', 'who', 'from', 'what', 'keys'], rows, 'nothing typed into this pane yet'));
    this.onChange();
  }
}

function keysCell(keys: string): Node | string {
  return keys ? el('kbd', 'keys', keys) : '';
}
