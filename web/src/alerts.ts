// Tells the person when a pane enters a state they care about: a tone, a desktop notification while the tab is
// in the background, and a line in the page's live region (read out by screen readers). Only live transitions
// count: the hello's snapshot of every pane never alerts.
import type { PaneView, TransitionView } from '../../src/web/api-types.js';
import { alertFor, type AlertKind } from './alert-kind.js';
import type { Settings } from './settings.js';
import { notify } from './notify.js';
import { playTone } from './sound.js';

const WORDS: Record<AlertKind, string> = {
  WAITING_APPROVAL: 'is waiting for you',
  FAILED: 'failed',
  stalled: 'looks stalled',
  DONE: 'is done',
};

const LOG_LINES = 20;

export class Alerts {
  constructor(
    private readonly settings: () => Settings,
    private readonly log: HTMLElement,
    private readonly openPane: (id: string) => void,
  ) {}

  onTransition(tr: TransitionView, pane: PaneView | undefined): void {
    const kind = alertFor(tr);
    const s = this.settings();
    if (!kind || !s.kinds[kind]) return;
    const name = pane?.name || tr.paneId;
    const text = `${name} ${WORDS[kind]}`;
    const tone = kind === 'DONE' ? 'done' : 'needs';
    const played = !s.muted && playTone(tone, s.volume);
    const item = document.createElement('li');
    item.textContent = `${new Date(tr.at).toLocaleTimeString(undefined, { hour12: false })} ${text}`;
    item.dataset.kind = kind;
    item.dataset.tone = played ? tone : 'silent';
    this.log.append(item);
    while (this.log.children.length > LOG_LINES) this.log.firstElementChild!.remove();
    if (s.notify && document.visibilityState === 'hidden') notify(text, tr.line || tr.to, tr.paneId, () => this.openPane(tr.paneId));
  }
}
