// The dashboard: wires the live feed to the cards, the detail view, the stats view, the alerts and the tasks.
import type { HistoryHealth, PaneView, WsMessage } from '../../src/web/api-types.js';
import { olderThan, PaneActs } from './act.js';
import { api, onAuthDenied, READ_ONLY } from './api.js';
import { Alerts } from './alerts.js';
import { Board } from './board.js';
import { Detail } from './detail.js';
import { byId } from './dom.js';
import { historyBannerText } from './history-banner.js';
import { Live, type ConnState } from './live.js';
import { wsUrl } from './reconnect.js';
import { settingsPanel } from './settings-panel.js';
import { unlockAudio } from './sound.js';
import { Stats } from './stats.js';
import { TaskAlerts, TaskIndex } from './task-model.js';
import { TaskPanel } from './tasks.js';
import { HostFilter } from './host-filter.js';
import { countPanes, needsCount, summaryText } from './board-filter.js';
import { BoardTools } from './board-tools.js';
import { watchNotifyHealth } from './notify-health.js';

function freshPane(p: PaneView): void {
  board.upsert(p);
  detail.onPane(p);
}
// A pane the daemon sent back with an action's answer (or its 409) is news like a `pane` message, unless the feed
// already brought a newer one.
const acts = new PaneActs((p) => {
  const shown = board.get(p.id);
  if (!shown || !olderThan(p, shown)) freshPane(p);
});
const board = new Board(
  byId('cards'),
  byId('empty'),
  { open: (id) => detail.open(id), answer: (p, choice, say) => acts.answer(p, choice, say) },
  { box: byId('closed-box'), list: byId('closed-cards'), count: byId('closed-count') },
  byId('panes'),
);
const tools = new BoardTools((f) => board.setFilter(f), byId('panes'), () => board.unpin());
board.onHeld = (waiting) => tools.orderHeld(waiting);
const taskIndex = new TaskIndex();
const taskAlerts = new TaskAlerts();
const detail = new Detail((id) => board.get(id), new TaskPanel(taskIndex), acts);
const stats = new Stats(byId('stats'));
const settings = settingsPanel();
const alerts = new Alerts(settings, byId('alert-log'), (id) => detail.open(id));

// Audio may start only after a gesture: the first click or key unlocks it, just after the event (making the audio
// context takes tens of ms on a slow phone: not inside the person's first key press; the gesture still counts).
for (const ev of ['pointerdown', 'keydown'] as const) addEventListener(ev, () => setTimeout(unlockAudio), { once: true, capture: true });

onAuthDenied(() => {
  const banner = byId('banner');
  banner.textContent = READ_ONLY;
  banner.hidden = false;
});

// The header's counts and the tab title say how many panes need an answer or a look, even from another tab.
const summary = byId('summary');
const hostFilter = new HostFilter(byId('host-filter-box'), byId('host-filter') as HTMLSelectElement, (v) => board.setHostFilter(v));
board.onRendered = (panes) => {
  hostFilter.update(panes);
  const counts = countPanes(panes.values());
  tools.counts(counts);
  const needs = needsCount(counts);
  const text = panes.size === 0 ? '' : summaryText(counts);
  if (summary.textContent !== text) summary.textContent = text;
  const title = needs ? `(${needs}) termsupervisor` : 'termsupervisor';
  if (document.title !== title) document.title = title;
};

const conn = byId('conn');
let connTimer = 0;
let probed = false;
function showConn(s: ConnState): void {
  clearInterval(connTimer);
  conn.dataset.conn = s.kind;
  // A refused websocket says nothing about why: one plain request tells whether it is the missing token.
  if (s.kind === 'offline' && !probed) {
    probed = true;
    api.stats().catch(() => {});
  }
  if (s.kind === 'live') probed = false;
  if (s.kind !== 'offline') {
    conn.textContent = s.kind === 'live' ? 'live' : 'connecting…';
    return;
  }
  const say = () => (conn.textContent = `offline — retrying in ${Math.max(1, Math.ceil((s.retryAt - Date.now()) / 1000))}s`);
  say();
  connTimer = window.setInterval(say, 1000);
}

// Every pane's tasks, for the cards' task badges and as the baseline of task alerts: what had already ended when
// the page (or the reconnected feed) looked is not news. A daemon without tasks answers 404/501: no badges.
const badgeTasks = (pane: string) => board.setTask(pane, taskIndex.driving(pane)?.status ?? null);
function loadTasks(): void {
  api.tasks().then(
    (list) => {
      taskIndex.merge(list);
      taskAlerts.baseline(list);
      for (const pane of taskIndex.panes()) badgeTasks(pane);
    },
    () => {},
  );
}

// History not being kept (the daemon's disk is full, its file damaged): said until it recovers.
const historyBanner = byId('history-banner');
let historyTimer = 0;
function showHistory(h: HistoryHealth | undefined): void {
  clearInterval(historyTimer);
  const say = () => {
    const text = historyBannerText(h);
    historyBanner.hidden = text === null;
    if (text !== null && historyBanner.textContent !== text) historyBanner.textContent = text;
  };
  say();
  if (h?.status === 'degraded') historyTimer = window.setInterval(say, 1000);
}

function onMessage(m: WsMessage): void {
  switch (m.type) {
    case 'hello':
      byId('version').textContent = `daemon ${m.version}`;
      board.reset(m.panes);
      showHistory(m.history);
      detail.onHello(new Set(m.panes.map((p) => p.id)));
      loadTasks();
      openLinkedPane(m.panes);
      break;
    case 'task': {
      taskIndex.upsert(m.task);
      const kind = taskAlerts.change(m.task);
      if (kind) alerts.onTask(kind, m.task, board.get(m.task.spec.pane));
      badgeTasks(m.task.spec.pane);
      detail.tasks.onTask(m.task);
      break;
    }
    case 'task_event': {
      // An approval the task may not answer alerts as the pane's own WAITING_APPROVAL: one alert, not two.
      detail.tasks.onEvent(m.event);
      break;
    }
    case 'pane':
      freshPane(m.pane);
      break;
    case 'action':
      detail.onAction(m.action);
      break;
    case 'transition':
      detail.onTransition(m.transition);
      alerts.onTransition(m.transition, board.get(m.transition.paneId));
      break;
    case 'history':
      showHistory(m.history);
      break;
    case 'pane_removed':
      board.remove(m.id);
      detail.onRemoved(m.id);
      break;
  }
}

// Panes or stats: one view at a time, remembered in the URL's hash so a reload keeps it.
const tabs = { panes: byId<HTMLButtonElement>('tab-panes'), stats: byId<HTMLButtonElement>('tab-stats') };
function showView(view: 'panes' | 'stats'): void {
  byId('panes').hidden = view !== 'panes';
  if (view === 'stats') stats.show();
  else stats.hide();
  tabs.panes.setAttribute('aria-pressed', String(view === 'panes'));
  tabs.stats.setAttribute('aria-pressed', String(view === 'stats'));
  history.replaceState(null, '', view === 'stats' ? '#stats' : location.pathname);
}
tabs.panes.addEventListener('click', () => showView('panes'));
tabs.stats.addEventListener('click', () => showView('stats'));
// Read before showView rewrites the URL.
let linkedPane: string | null = /^#pane=(.+)$/.exec(location.hash) ? decodeURIComponent(location.hash.slice('#pane='.length)) : null;
showView(location.hash === '#stats' ? 'stats' : 'panes');

/** A notification's link (`#pane=<id>`, src/daemon/daemon-notify.ts) opens that pane once the board knows it. */
function openLinkedPane(panes: PaneView[]): void {
  const id = linkedPane;
  linkedPane = null; // once: a reconnection's hello does not reopen it
  if (id !== null && panes.some((p) => p.id === id)) detail.open(id);
}

// The same link followed in a tab already open: only the hash changes.
window.addEventListener('hashchange', () => {
  const m = /^#pane=(.+)$/.exec(location.hash);
  if (!m) return;
  const id = decodeURIComponent(m[1]!);
  history.replaceState(null, '', location.pathname);
  if (board.get(id)) detail.open(id);
});

new Live(wsUrl(location), onMessage, showConn).start();
watchNotifyHealth(byId('notify-health'), api.notifyHealth);
