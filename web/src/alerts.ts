// Tells the person when a pane enters a state they care about: a tone, a desktop notification while the tab is
// in the background, and a line in the page's live region (read out by screen readers). Only live transitions
// count: the hello's snapshot of every pane never alerts. Supervised tasks alert the same way, with tones of their own
// (which task changes count is decided in task-model.ts).
import type { PaneView, TaskView, TransitionView } from '../../src/web/api-types.js';
import { alertFor, type PaneAlertKind } from './alert-kind.js';
import { taskAlertText, type TaskAlert } from './task-model.js';
import type { Settings } from './settings.js';
import { notify } from './notify.js';
import { playTone } from './sound.js';
import { clock } from './format.js';

const WORDS: Record<PaneAlertKind, string> = {
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
    this.logLine(tr.at, text, kind, !s.muted && playTone(tone, s.volume) ? tone : 'silent');
    if (s.notify && document.visibilityState === 'hidden') notify(text, tr.line || tr.to, tr.paneId, () => this.openPane(tr.paneId));
  }

  /** A task finished, or needs the person: a tone of its own, and a notification naming the pane and the reason. */
  onTask(kind: TaskAlert, t: TaskView, pane: PaneView | undefined): void {
    const s = this.settings();
    if (!s.kinds[kind]) return;
    const { title, body } = taskAlertText(kind, t, pane?.name || t.spec.pane);
    this.logLine(t.updatedAt, `${title}: ${t.reason}`, kind, !s.muted && playTone(kind, s.volume) ? kind : 'silent');
    if (s.notify && document.visibilityState === 'hidden') notify(title, body, `task:${t.id}`, () => this.openPane(t.spec.pane));
  }

  private logLine(at: number, text: string, kind: string, tone: string): void {
    const item = document.createElement('li');
    item.textContent = `${clock(at)} ${text}`;
    item.dataset.kind = kind;
    item.dataset.tone = tone;
    this.log.append(item);
    while (this.log.children.length > LOG_LINES) this.log.firstElementChild!.remove();
  }
}
