// What the web layer needs from the daemon: read views, the person's ack, a live feed, and the doors through
// which panes and bridges connect. The daemon implements it; the web layer never reaches past it.
import type { WebSocket } from 'ws';
import type { ActionOrigin, ActionResult, ActionView, AnswerRequest, FocusResult, HistoryHealth, InterruptRequest, PaneView, ReplyRequest, StatsView, TaskDetailView, TaskView, TransitionView, TurnView, WsMessage, NotifyHealthView } from './api-types.js';
import type { HookBody } from '../hooks/hook-body.js';

/** What became of one agent hook event: the pane it was delivered to, or none (counted as `hook.unmatched`). */
export interface HookReply {
  matched: boolean;
  pane?: string;
}

export interface DaemonApi {
  readonly version: string;
  panes(): PaneView[];
  pane(id: string): PaneView | null;
  /** The pane's rendered screen (visible rows), or null for an unknown or closed pane. */
  screen(id: string): string | null;
  transitions(id: string, limit: number): TransitionView[] | null;
  turns(id: string, limit: number): TurnView[] | null;
  /** The person has seen the pane: DONE/FAILED/WAITING → IDLE. Null for an unknown pane. */
  ack(id: string, by: string): PaneView | null;
  stats(): StatsView;
  /** Whether history is being kept (GET /healthz, the dashboard's banner). Absent: no history here. */
  history?(): HistoryHealth;
  /** The notification channels and their health (GET /api/notify); null or absent: this daemon notifies nobody. */
  notifyHealth?(): NotifyHealthView | null;
  /** Figures for GET /metrics, already in Prometheus text exposition format. */
  metrics(): string;
  /** Live pane snapshots and transitions; returns the unsubscribe function. */
  subscribe(listener: (m: WsMessage) => void): () => void;
  /** An authenticated websocket at one of the daemon's link endpoints (a `run` wrapper, a bridge). */
  acceptLink(kind: LinkKind, socket: WebSocket, remote: string): void;
  /** An agent's hook event (POST /api/hooks, already validated). Absent: this daemon takes no hooks (501). */
  hook?(body: HookBody): HookReply;
  /** Why keys may not be typed into this pane (a remote whose config does not allow it: 403), or null. */
  typingRefusal?(id: string): string | null;
  /** Jump to a live pane: make the person's terminal show it where its source can (tmux, iTerm2), else say where
   * it runs; recorded as an action of kind `focus`. Null for an unknown pane. Absent: this daemon cannot (501). */
  focus?(id: string, origin: ActionOrigin, from: string): Promise<FocusResult | null>;
  /** Names a live pane (trimmed, checked); '' gives a tmux pane back its tmux name. The pane after it, a reason it
   * cannot be named, or null for an unknown pane. Absent: 501. */
  rename?(id: string, name: string): Promise<PaneView | string | null>;
  /** Supervised tasks (docs/tasks.md). Absent: this daemon runs none (501). */
  tasks?: TaskApi;
  /** Answer, reply, interrupt, ack with history (src/daemon/pane-actions.ts). Absent: this daemon types nothing
   * (501; ack still works, unrecorded). */
  actions?: PaneActionApi;
  /** Panes of peer daemons shown here (issue 16): what this daemon does not hold of them is asked of their daemon.
   * Absent: no peers. */
  peers?: PeerRelay;
}

/** The peer daemon a pane is shown from. */
export interface PeerOwner {
  name: string;
  /** Answers, replies and interrupts made here may be forwarded (config peers[].allow_typing). */
  allowTyping: boolean;
  /** Set while the peer cannot be reached. */
  unreachable: { since: number; reason: string } | null;
}

/** A request about one of a peer's panes, as this daemon received it. */
export interface ForwardRequest {
  method: 'GET' | 'POST';
  /** The route's rest after `/api/panes/:id` (`/screen`, `/ack`). */
  sub: string;
  /** The query string, with its `?`, or ''. */
  query: string;
  body?: unknown;
  /** The client's own name (x-termsupervisor-client), passed on. */
  client?: string;
}

export interface PeerRelay {
  /** The peer showing this pane, or null (a local pane, or no peer shows it now). */
  owner(id: string): PeerOwner | null;
  /** Sends the request to the pane's daemon; its answer (status, body with this daemon's pane ids) passes through.
   * Throws an Error safe to show when the peer cannot be reached. */
  forward(id: string, r: ForwardRequest): Promise<{ status: number; body: unknown }>;
}

/** Who asks for an action: the client's own name (header x-termsupervisor-client) and its address. */
export interface ActionClient {
  origin: ActionOrigin;
  from: string;
}

/** An action done (200), or refused with the status and the pane as it is now (null for an unknown pane). */
export type ActionOutcome = { ok: true; result: ActionResult } | { ok: false; status: 400 | 403 | 404 | 409 | 503; error: string; pane: PaneView | null };

/** What /api/panes/:id/{answer,reply,interrupt,ack,actions} ask of the daemon (bodies already validated). */
export interface PaneActionApi {
  answer(id: string, body: AnswerRequest, client: ActionClient): Promise<ActionOutcome>;
  reply(id: string, body: ReplyRequest, client: ActionClient): Promise<ActionOutcome>;
  interrupt(id: string, body: InterruptRequest, client: ActionClient): Promise<ActionOutcome>;
  ack(id: string, client: ActionClient): PaneView | null;
  /** Newest first; null for an unknown pane. */
  list(id: string, limit: number): ActionView[] | null;
}

/** What /api/tasks asks of the daemon; refusals are thrown (TaskSpecError, TaskNotFoundError, TaskConflictError). */
export interface TaskApi {
  start(body: unknown): TaskView;
  list(limit: number, pane?: string): TaskView[];
  detail(id: string): TaskDetailView | null;
  stop(id: string, by: string): TaskView;
  resume(id: string): TaskView;
  retry(id: string, more: { iterations?: number; budget?: number }): TaskView;
}

export type LinkKind = 'pane' | 'iterm2';

/** Websocket paths of the link endpoints: `run` wrappers, and the iTerm2 bridge (docs/iterm2-bridge.md). */
export const LINK_PATHS: Record<string, LinkKind> = { '/api/pane-link': 'pane', '/bridge/iterm2': 'iterm2' };
