// The detail view of one pane (a side panel): its live screen first, then what can be done to it (detail-act.ts:
// answer, reply, interrupt, jump; and Ack), why it is in its state (the rule and the line), its supervised tasks
// (tasks.ts), its timeline of states as a coloured bar, its turns, the actions typed into it (action-log.ts) and its
// recent transitions. Esc or the close button closes it and gives focus back.
import type { ActionView, PaneView, TransitionView, TurnView } from '../../src/web/api-types.js';
import type { PaneActs } from './act.js';
import { ActionLog, what } from './action-log.js';
import { api, isAuthError, READ_ONLY } from './api.js';
import { whereText } from './card-words.js';
import { DetailActs } from './detail-act.js';
import { byId, el, table } from './dom.js';
import { clock, duration, STATE_ICON, stateText, why } from './format.js';
import { segments } from './timeline.js';
import { drawable } from './glyphs.js';
import { inOrder, mergeHistory } from './history-order.js';
import type { TaskPanel } from './tasks.js';

const SHOWN_TRANSITIONS = 50;
const SCREEN_REFRESH_MS = 1000;
const TIMELINE_REFRESH_MS = 5000;

export class Detail {
  private readonly panel = byId('detail');
  private readonly title = byId('detail-title');
  private readonly badge = byId('detail-state');
  private readonly meta = byId('detail-meta');
  private readonly ackBtn = byId<HTMLButtonElement>('detail-ack');
  private readonly ackMsg = byId('detail-ack-msg');
  private readonly timeline = byId('detail-timeline');
  private readonly turns = byId('detail-turns');
  private readonly transitions = byId('detail-transitions');
  private readonly screen = byId('detail-screen');
  private readonly why = byId('detail-why');
  private readonly acts: DetailActs;
  private readonly actionLog = new ActionLog(byId('detail-actions'));
  private id: string | null = null;
  private history: TransitionView[] = [];
  private opener: Element | null = null;
  private screenTimer = 0;
  private timelineTimer = 0;

  constructor(
    private readonly pane: (id: string) => PaneView | undefined,
    readonly tasks: TaskPanel,
    acts: PaneActs,
  ) {
    this.acts = new DetailActs(acts, (text, warn) => this.status(text, warn));
    this.actionLog.onChange = () => this.renderTimeline();
    byId('detail-close').addEventListener('click', () => this.close());
    this.ackBtn.addEventListener('click', () => void this.ack());
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.id) {
        e.preventDefault();
        this.close();
      }
    });
  }

  get openId(): string | null {
    return this.id;
  }

  open(id: string): void {
    if (this.id !== id) this.opener = document.activeElement;
    this.id = id;
    this.panel.hidden = false;
    this.load(id);
    byId('detail-close').focus();
  }

  private load(id: string): void {
    this.history = [];
    this.ackMsg.textContent = '';
    this.acts.reset();
    this.timeline.replaceChildren();
    this.turns.replaceChildren();
    this.transitions.replaceChildren(el('p', 'none', 'loading…'));
    this.screen.textContent = '';
    this.renderHeader();
    void this.loadHistory(id);
    void this.loadTurns(id);
    void this.loadScreen(id);
    void this.actionLog.load(id);
    this.tasks.show(id);
    clearInterval(this.timelineTimer);
    this.timelineTimer = window.setInterval(() => this.renderTimeline(), TIMELINE_REFRESH_MS);
  }

  close(): void {
    if (!this.id) return;
    this.id = null;
    this.panel.hidden = true;
    this.acts.reset();
    this.actionLog.close();
    this.tasks.hide();
    clearInterval(this.timelineTimer);
    clearTimeout(this.screenTimer);
    this.screenTimer = 0;
    if (this.opener instanceof HTMLElement && this.opener.isConnected) this.opener.focus();
  }

  /** A pane snapshot arrived: refresh the header, and the screen at most once a second. */
  onPane(p: PaneView): void {
    if (p.id !== this.id) return;
    this.renderHeader();
    if (!this.screenTimer) {
      this.screenTimer = window.setTimeout(() => {
        this.screenTimer = 0;
        if (this.id) void this.loadScreen(this.id);
      }, SCREEN_REFRESH_MS);
    }
  }

  onTransition(tr: TransitionView): void {
    if (tr.paneId !== this.id) return;
    this.history.push(tr);
    this.renderHistory();
    void this.loadTurns(tr.paneId);
  }

  onAction(a: ActionView): void {
    this.actionLog.onAction(a);
  }

  /** After a (re)connect: what happened while offline is only in the history, so load it again. */
  onHello(ids: ReadonlySet<string>): void {
    if (!this.id) return;
    if (ids.has(this.id)) this.load(this.id);
    else this.close();
  }

  onRemoved(id: string): void {
    if (id === this.id) this.close();
  }

  private renderHeader(): void {
    const p = this.id ? this.pane(this.id) : undefined;
    if (!p) return;
    this.title.textContent = p.name || p.id;
    this.badge.textContent = `${STATE_ICON[p.state]} ${stateText(p)}`;
    this.badge.dataset.state = p.state;
    const where = whereText(p.where);
    this.meta.textContent = `${p.host ? `on ${p.host} · ` : ''}${p.program} · ${p.attach}${where ? ` (${where})` : ''} · ${p.command} · ${p.cols}×${p.rows}`;
    // the rule names live here, not on the cards
    this.why.textContent = `${why(p.tier, p.source)} · ${p.rule}${p.line ? ` — ${p.line}` : ''}`;
    this.ackBtn.disabled = !p.alive || !p.needsYou;
    this.acts.show(p);
  }

  /** The status line under the actions: what became of an ack, an answer, a reply, an interrupt. */
  private status(text: string, warn: boolean): void {
    this.ackMsg.textContent = text;
    this.ackMsg.classList.toggle('warn', warn);
  }

  private async ack(): Promise<void> {
    const id = this.id;
    if (!id) return;
    this.status('', false);
    try {
      await api.ack(id);
      this.status('acknowledged', false);
    } catch (e) {
      this.status(isAuthError(e) ? READ_ONLY : `ack failed: ${(e as Error).message}`, true);
    }
  }

  private failed(where: HTMLElement, e: unknown): void {
    where.replaceChildren(el('p', 'error', isAuthError(e) ? READ_ONLY : `could not load: ${(e as Error).message}`));
  }

  private async loadHistory(id: string): Promise<void> {
    try {
      const list = await api.transitions(id);
      if (id !== this.id) return;
      // live transitions that arrived while loading are kept; ties in time keep the order they were stored in
      this.history = mergeHistory(list, this.history);
      this.renderHistory();
    } catch (e) {
      if (id === this.id) this.failed(this.transitions, e);
    }
  }

  private async loadTurns(id: string): Promise<void> {
    try {
      const turns = await api.turns(id);
      if (id === this.id) this.renderTurns(turns);
    } catch (e) {
      if (id === this.id) this.failed(this.turns, e);
    }
  }

  private async loadScreen(id: string): Promise<void> {
    try {
      const text = drawable((await api.screen(id)).text);
      if (id === this.id && this.screen.textContent !== text) this.screen.textContent = text;
    } catch (e) {
      if (id !== this.id) return;
      const closed = this.pane(id)?.alive === false;
      this.screen.textContent = isAuthError(e) ? READ_ONLY : closed ? 'the pane is closed: no screen to show' : `could not load: ${(e as Error).message}`;
    }
  }

  private renderHistory(): void {
    inOrder(this.history);
    this.renderTimeline();
    const recent = this.history.slice(-SHOWN_TRANSITIONS).reverse();
    const rows = recent.map((t) => [clock(t.at), `${t.from} → ${t.to}${t.stalled ? ' (stalled)' : ''}`, why(t.tier, t.source), t.rule, t.line]);
    this.transitions.replaceChildren(table(`Recent transitions (${recent.length} of ${this.history.length})`, ['time', 'from → to', 'source', 'rule', 'line'], rows, 'no transitions yet'));
  }

  private renderTimeline(): void {
    const p = this.id ? this.pane(this.id) : undefined;
    const last = this.history.at(-1);
    if (!last) {
      this.timeline.replaceChildren(el('p', 'none', 'no transitions yet'));
      return;
    }
    // an open pane's last state runs until now; a closed one's until it was last seen changing
    const end = p?.alive === false ? Math.max(last.at, p.since) : Date.now();
    const bar = el('div', 'bar');
    bar.setAttribute('role', 'img');
    const segs = segments(this.history, end);
    bar.setAttribute('aria-label', `timeline: ${segs.map((s) => `${s.state} ${duration(s.end - s.start)}`).join(', ')}`);
    for (const s of segs) {
      const d = el('div', 'seg');
      d.dataset.state = s.state;
      if (s.stalled) d.dataset.stalled = 'true';
      d.style.flexGrow = String(s.frac);
      d.title = `${s.state}${s.stalled ? ' (stalled)' : ''} ${clock(s.start)} – ${clock(s.end)} (${duration(s.end - s.start)})`;
      bar.append(d);
    }
    // what was typed into the pane, as ticks over the bar at their time (hover: who, what, keys)
    const t0 = this.history[0]!.at;
    for (const a of this.actionLog.actions) {
      if (a.at < t0 || a.at > end) continue;
      const m = el('span', 'mark');
      m.dataset.kind = a.kind;
      m.style.left = `${(100 * (a.at - t0)) / Math.max(1, end - t0)}%`;
      m.title = `${clock(a.at)} ${a.origin} from ${a.from}: ${what(a)}${a.keys ? ` (${a.keys})` : ''}`;
      bar.append(m);
    }
    const axis = el('div', 'axis');
    axis.append(el('span', '', clock(this.history[0]!.at)), el('span', '', clock(end)));
    const legend = el('ul', 'legend');
    for (const state of new Set(segs.map((s) => s.state))) {
      const li = el('li', '', state);
      li.dataset.state = state;
      legend.append(li);
    }
    this.timeline.replaceChildren(bar, axis, legend);
  }

  private renderTurns(turns: TurnView[]): void {
    const now = Date.now();
    const rows = [...turns]
      .sort((a, b) => b.start - a.start)
      .map((t) => [clock(t.start), t.durationS !== null ? duration(t.durationS * 1000) : `${duration(now - t.start)} so far`, t.result ?? 'open', t.prompt ?? '']);
    this.turns.replaceChildren(table('Turns', ['started', 'took', 'result', 'prompt'], rows, 'no turns yet'));
  }
}
