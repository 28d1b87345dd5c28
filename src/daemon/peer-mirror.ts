// One peer daemon's panes as this daemon shows them: the peer's own views (never analysed again here), their ids
// prefixed with the peer's name and its name as their host, kept in this daemon's history, and marked unreachable
// (last state kept, stale) while the peer cannot be reached. Fed by the peer's /ws messages (PeerLink).
import type { ActionView, PaneView, TransitionView, WsMessage } from '../web/api-types.js';
import type { HistoryStore } from '../store/history-store.js';
import type { PaneRecord, TransitionRecord } from '../store/records.js';
import { transitionEvent, type NotifyEvent, type NotifyKind } from '../notify/types.js';
import type { PeerSpec } from '../config/peers.js';
import type { PeerAnswer, PeerRequest } from './peer-client.js';
import type { Logger } from './logger.js';
import { MAX_PEER_PANES, PeerMessageError, parseTransition } from './peer-message.js';

/** Transitions read back from a peer per pane after a gap (its own history holds the rest). */
const BACKFILL_LIMIT = 100;

export interface MirrorDeps {
  store: HistoryStore;
  /** To this daemon's live feed (dashboards, `wait`, `top`). */
  emit(m: WsMessage): void;
  notify(ev: NotifyEvent): void;
  /** Every transition, for the notifier's memory of where each pane is (answered, at rest). */
  noteState?(paneId: string, to: string, rule: string, program: string): void;
  log: Logger;
  /** A REST request to the peer (the backfill after a gap). */
  request(r: PeerRequest): Promise<PeerAnswer>;
  now?: () => number;
}

/** `<peer>:<its pane id>`: the id this daemon gives a peer's pane. */
export function hubPaneId(peer: string, id: string): string {
  return `${peer}:${id}`;
}

export class PeerMirror {
  private readonly views = new Map<string, PaneView>();
  /** Each pane's record as last written here (read from history once), so a snapshot that changed nothing of what
   * history keeps writes nothing. */
  private readonly records = new Map<string, PaneRecord>();
  private unreachable: { since: number; reason: string } | null = null;
  private readonly now: () => number;

  constructor(
    readonly spec: PeerSpec,
    private readonly deps: MirrorDeps,
  ) {
    this.now = deps.now ?? Date.now;
  }

  get name(): string {
    return this.spec.name;
  }

  /** The peer's own id of one of its panes shown here, or null when `hubId` is not this peer's. */
  peerId(hubId: string): string | null {
    const prefix = `${this.spec.name}:`;
    return hubId.startsWith(prefix) ? hubId.slice(prefix.length) : null;
  }

  owns(hubId: string): boolean {
    return this.views.has(hubId);
  }

  view(hubId: string): PaneView | null {
    return this.views.get(hubId) ?? null;
  }

  all(): PaneView[] {
    return [...this.views.values()];
  }

  get reachable(): boolean {
    return this.unreachable === null;
  }

  /** A message of the peer's feed, checked by parsePeerMessage (PeerLink) before it gets here. */
  handle(m: WsMessage): void {
    switch (m.type) {
      case 'hello':
        return this.hello(m.panes);
      case 'pane':
        return void this.put(m.pane);
      case 'transition':
        return this.transition(m.transition, m.unsaved === true);
      case 'pane_removed':
        return this.remove(hubPaneId(this.spec.name, m.id));
      case 'action':
        return this.deps.emit({ type: 'action', action: this.toHubAction(m.action) });
      default:
        // Its history's health and its tasks are the peer's own business (its board shows them).
        return;
    }
  }

  /** The peer cannot be reached: every pane keeps its last state, marked stale from the first failure on. */
  down(reason: string, at: number): void {
    if (this.unreachable) return void (this.unreachable = { ...this.unreachable, reason });
    this.unreachable = { since: at, reason };
    for (const [id, v] of this.views) {
      const stale = { ...v, unreachable: this.unreachable };
      this.views.set(id, stale);
      this.deps.emit({ type: 'pane', pane: stale });
    }
  }

  /** The hello snapshot replaces every pane: what the peer no longer has goes, the rest is fresh. */
  private hello(panes: PaneView[]): void {
    this.unreachable = null;
    const fresh = new Set<string>();
    const gaps: Array<{ id: string; since: number }> = [];
    for (const p of panes) {
      const before = this.record(hubPaneId(this.spec.name, p.id));
      // A hello's list is bounded by itself (parsePeerMessage), and what it does not name goes below.
      const v = this.put(p, true);
      fresh.add(v.id);
      // Changed while we were not listening: its transitions meanwhile are read back from the peer. A closed pane
      // met for the first time is left in the peer's history (a peer may keep a month of them).
      const changed = before ? before.since < v.since : v.alive;
      if (changed) gaps.push({ id: p.id, since: v.since });
    }
    for (const id of [...this.views.keys()]) if (!fresh.has(id)) this.remove(id);
    // A rejection left unhandled would end the daemon: whatever the read-back meets is logged.
    if (gaps.length) this.backfill(gaps).catch((e: Error) => this.deps.log.warn({ kind: 'peer', peer: this.spec.name, err: e.message }, 'peer transitions not read back'));
  }

  private put(theirs: PaneView, inHello = false): PaneView {
    const v = this.toHubView(theirs);
    // One pane message at a time could add panes without end: the same bound as a hello's list.
    if (!inHello && !this.views.has(v.id) && this.views.size >= MAX_PEER_PANES) throw new PeerMessageError(`more than ${MAX_PEER_PANES} panes`);
    this.views.set(v.id, v);
    this.save(v);
    this.deps.emit({ type: 'pane', pane: v });
    return v;
  }

  private remove(id: string): void {
    const v = this.views.get(id);
    if (!v) return;
    this.views.delete(id);
    const rec = this.record(id);
    this.records.delete(id);
    if (rec && rec.closedAt === null) this.deps.store.upsertPane({ ...rec, closedAt: this.now() });
    this.deps.emit({ type: 'pane_removed', id });
  }

  /** Published once its row is committed here, as this daemon's own transitions are. */
  private transition(t: TransitionView, unsaved: boolean): void {
    const rec: TransitionRecord = { ...t, paneId: hubPaneId(this.spec.name, t.paneId) };
    this.deps.store.addTransition(rec, (saved) => {
      this.deps.emit(saved && !unsaved ? { type: 'transition', transition: rec } : { type: 'transition', transition: rec, unsaved: true });
      const kind = notifyKind(rec);
      const v = this.views.get(rec.paneId);
      if (kind) {
        this.deps.notify(transitionEvent(rec.paneId, v?.name ?? rec.paneId, v?.program ?? '', kind, rec));
      }
      this.deps.noteState?.(rec.paneId, rec.to, rec.rule, v?.program ?? '');
    });
  }

  /** Transitions the peer made while the link was down (or before we first met it), up to its hello. */
  private async backfill(gaps: Array<{ id: string; since: number }>): Promise<void> {
    for (const g of gaps) {
      const id = hubPaneId(this.spec.name, g.id);
      const last = this.deps.store.transitions(id, 1)[0]?.at ?? 0;
      let a: PeerAnswer;
      try {
        a = await this.deps.request({ method: 'GET', path: `/api/panes/${encodeURIComponent(g.id)}/transitions?limit=${BACKFILL_LIMIT}` });
      } catch (e) {
        return void this.deps.log.warn({ kind: 'peer', peer: this.spec.name, err: (e as Error).message }, 'peer transitions not read back');
      }
      if (a.status !== 200 || !Array.isArray(a.body)) continue;
      let rows: TransitionView[];
      try {
        // An answer is untrusted as the feed is: checked row by row, at most what was asked for.
        rows = a.body.slice(0, BACKFILL_LIMIT).map((t, i) => parseTransition(t, `transitions[${i}]`));
      } catch (e) {
        return void this.deps.log.warn({ kind: 'peer', peer: this.spec.name, err: (e as Error).message }, 'peer transitions refused');
      }
      const missed = rows.filter((t) => t.at > last && t.at <= g.since).reverse();
      for (const t of missed) this.deps.store.addTransition({ ...t, paneId: id });
    }
  }

  /** The peer's view as shown here. A pane the peer marks unreachable (its own remote) stays so. */
  toHubView(theirs: PaneView): PaneView {
    const v: PaneView = { ...theirs, id: hubPaneId(this.spec.name, theirs.id), host: this.spec.name };
    if (this.unreachable) v.unreachable = this.unreachable;
    return v;
  }

  toHubAction(a: ActionView): ActionView {
    return { ...a, paneId: hubPaneId(this.spec.name, a.paneId) };
  }

  /** The pane's record as history has it (undefined: never seen here). */
  private record(id: string): PaneRecord | undefined {
    let r = this.records.get(id);
    if (!r) {
      r = this.deps.store.pane(id);
      if (r) this.records.set(id, r);
    }
    return r;
  }

  /** Kept in this daemon's history with its host, written only when what is kept changed. */
  private save(v: PaneView): void {
    const prev = this.record(v.id);
    const now = this.now();
    const rec: PaneRecord = {
      id: v.id,
      name: v.name,
      program: v.program,
      attach: v.attach,
      command: v.command,
      cols: v.cols,
      rows: v.rows,
      createdAt: prev?.createdAt ?? now,
      lastSeenAt: now,
      closedAt: v.alive ? null : (prev?.closedAt ?? now),
      state: v.state,
      since: v.since,
      startedAt: v.startedAt,
      tier: v.tier,
      source: v.source,
      rule: v.rule,
      line: v.line,
      stalled: v.stalled,
      host: this.spec.name,
    };
    if (prev && sameKept(prev, rec)) return;
    this.records.set(v.id, rec);
    this.deps.store.upsertPane(rec);
  }
}

/** Two records alike in everything history keeps but the time the pane was last heard from. */
function sameKept(a: PaneRecord, b: PaneRecord): boolean {
  for (const k of Object.keys(b) as Array<keyof PaneRecord>) if (k !== 'lastSeenAt' && a[k] !== b[k]) return false;
  return true;
}

/** The transitions a person may want to hear about (as for this daemon's own panes). */
function notifyKind(t: TransitionRecord): NotifyKind | null {
  if (t.stalled && t.from === t.to) return 'STALLED';
  if (t.from === t.to) return null;
  if (t.to === 'WAITING_APPROVAL' || t.to === 'FAILED' || t.to === 'DONE') return t.to;
  return null;
}
