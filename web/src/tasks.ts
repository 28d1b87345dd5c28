// The Tasks section of a pane's detail view: the pane's supervised tasks (status, reason, iterations, tokens) with
// Stop / Resume / Retry, and the selected one's timeline and iterations. Kept live by the feed's `task` and
// `task_event` messages; the iterations (not pushed) are fetched again when the selected task changes.
import type { IterationView, TaskEventView, TaskView } from '../../src/web/api-types.js';
import { api, HttpError, isAuthError, READ_ONLY } from './api.js';
import { byId, el } from './dom.js';
import { clock } from './format.js';
import { TaskForm } from './task-form.js';
import { canResume, canRetry, canStop, mergeEvents, progress, type TaskIndex } from './task-model.js';
import { statusBadge, taskIterations, taskSummary, taskTimeline } from './task-view.js';

type Action = 'stop' | 'resume' | 'retry';
const ACTIONS: Array<{ action: Action; label: string; when: (s: TaskView['status']) => boolean }> = [
  { action: 'stop', label: 'Stop', when: canStop },
  { action: 'resume', label: 'Resume', when: canResume },
  { action: 'retry', label: 'Retry', when: canRetry },
];

export class TaskPanel {
  private readonly list = byId('task-list');
  private readonly detail = byId('task-detail');
  private readonly msg = byId('task-msg');
  private readonly form: TaskForm;
  private pane: string | null = null;
  private selected: string | null = null;
  private events: TaskEventView[] = [];
  private iterations: IterationView[] = [];
  private readonly openIterations = new Set<number>();
  /** A detail fetch is under way / another is wanted after it (task messages come in bursts). */
  private fetching = false;
  private refetch = false;

  constructor(private readonly index: TaskIndex) {
    this.form = new TaskForm((t) => {
      this.index.upsert(t);
      this.say(`started ${t.id}`);
      this.select(t.id);
    });
  }

  /** The detail view opened (or reloaded) `pane`. */
  show(pane: string): void {
    if (pane !== this.pane) {
      this.selected = null;
      this.events = [];
      this.iterations = [];
      this.openIterations.clear();
      this.detail.replaceChildren();
    }
    this.pane = pane;
    this.form.setPane(pane);
    this.say('');
    this.list.replaceChildren(el('p', 'none', 'loading…'));
    void this.loadList(pane);
  }

  hide(): void {
    this.pane = null;
    this.selected = null;
    this.form.setPane(null);
  }

  /** A task changed (from the feed, after the index took it). */
  onTask(t: TaskView): void {
    if (t.spec.pane !== this.pane) return;
    this.renderList();
    if (!this.selected) this.select(t.id);
    else if (t.id === this.selected) {
      this.renderDetail();
      void this.loadDetail();
    }
  }

  onEvent(e: TaskEventView): void {
    if (e.taskId !== this.selected) return;
    this.events = mergeEvents(this.events, [e]);
    this.renderDetail();
  }

  private say(text: string, warn = false): void {
    this.msg.textContent = text;
    this.msg.classList.toggle('warn', warn);
  }

  private async loadList(pane: string): Promise<void> {
    try {
      this.index.merge(await api.tasks(pane));
      if (pane !== this.pane) return;
      this.form.available = true;
      this.renderList();
      const first = this.index.forPane(pane)[0];
      if (this.selected) void this.loadDetail();
      else if (first) this.select(first.id);
    } catch (e) {
      if (pane !== this.pane) return;
      // an older daemon (404) or one started without tasks (501): no form, say why
      const none = e instanceof HttpError && (e.status === 404 || e.status === 501);
      this.form.available = !none;
      this.list.replaceChildren(el('p', none ? 'none' : 'error', none ? 'this daemon runs no supervised tasks' : isAuthError(e) ? READ_ONLY : `could not load the tasks: ${(e as Error).message}`));
    }
  }

  private select(id: string): void {
    if (id !== this.selected) {
      this.selected = id;
      this.events = [];
      this.iterations = [];
      this.openIterations.clear();
    }
    this.renderList();
    this.renderDetail();
    void this.loadDetail();
  }

  private async loadDetail(): Promise<void> {
    if (this.fetching) {
      this.refetch = true;
      return;
    }
    const id = this.selected;
    if (!id) return;
    this.fetching = true;
    try {
      const d = await api.task(id);
      if (id !== this.selected) return;
      this.index.upsert(d.task);
      this.events = mergeEvents(this.events, d.events);
      this.iterations = d.iterations;
      this.renderList();
      this.renderDetail();
    } catch (e) {
      if (id === this.selected) this.detail.replaceChildren(el('p', 'error', isAuthError(e) ? READ_ONLY : `could not load the task: ${(e as Error).message}`));
    } finally {
      this.fetching = false;
      if (this.refetch) {
        this.refetch = false;
        void this.loadDetail();
      }
    }
  }

  private async act(t: TaskView, action: Action): Promise<void> {
    this.say('');
    try {
      const after = await api.taskAction(t.id, action);
      this.index.upsert(after);
      this.say(`${t.id}: ${action === 'stop' ? 'stopped' : action === 'resume' ? 'resumed' : 'retried'} (${after.status})`);
      this.onTask(after);
    } catch (e) {
      this.say(isAuthError(e) ? READ_ONLY : `${action} failed: ${(e as Error).message}`, true);
    }
  }

  private buttons(t: TaskView): HTMLElement {
    const box = el('span', 'task-actions');
    for (const a of ACTIONS) {
      if (!a.when(t.status)) continue;
      const b = el('button', `task-${a.action}`, a.label);
      b.type = 'button';
      b.setAttribute('aria-label', `${a.label} task ${t.id}`);
      b.addEventListener('click', () => {
        b.disabled = true;
        void this.act(t, a.action).finally(() => (b.disabled = false));
      });
      box.append(b);
    }
    return box;
  }

  private renderList(): void {
    if (!this.pane) return;
    const tasks = this.index.forPane(this.pane);
    if (!tasks.length) {
      this.list.replaceChildren(el('p', 'none', 'no tasks on this pane yet'));
      return;
    }
    const ul = el('ul', 'task-list');
    ul.setAttribute('aria-label', 'Tasks on this pane');
    for (const t of tasks) {
      const li = el('li', 'task-row');
      li.dataset.id = t.id;
      li.dataset.status = t.status;
      if (t.id === this.selected) li.setAttribute('aria-current', 'true');
      const open = el('button', 'task-open');
      open.type = 'button';
      open.append(statusBadge(t), el('span', 'task-prompt', t.spec.prompt));
      open.setAttribute('aria-label', `${t.spec.prompt}: ${t.status}. Show its timeline`);
      open.addEventListener('click', () => this.select(t.id));
      const p = progress(t);
      const meta = el('span', 'task-meta');
      meta.append(
        el('span', 'task-iter', `${p.iterations} it.`),
        el('span', 'task-tokens', `${p.tokens} tok.`),
        el('span', 'task-created', clock(t.createdAt)),
      );
      li.append(open, meta, this.buttons(t), el('span', 'task-reason', t.reason));
      ul.append(li);
    }
    // keep the focus on a button that was redrawn (a live update must not throw keyboard users out)
    const focused = document.activeElement;
    const key = focused instanceof HTMLElement && this.list.contains(focused) ? [focused.closest('li')?.dataset.id, focused.className] : null;
    this.list.replaceChildren(ul);
    if (key) ul.querySelector<HTMLElement>(`li[data-id="${CSS.escape(key[0] ?? '')}"] .${CSS.escape(key[1]!.split(' ')[0] ?? '')}`)?.focus();
  }

  private renderDetail(): void {
    const t = this.selected ? this.index.get(this.selected) : undefined;
    if (!t) {
      this.detail.replaceChildren();
      return;
    }
    this.detail.replaceChildren(taskSummary(t), taskTimeline(this.events), taskIterations(this.iterations, this.openIterations));
  }
}
