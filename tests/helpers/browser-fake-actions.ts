// The stand-in daemon's pane actions (issue 15 contract, src/web/api-types.ts): POST answer / reply / interrupt /
// focus and GET actions. It keeps the contract's rules that the page must cope with: a stale `rev` or a state that
// does not take the action answers 409 with the fresh pane; no token answers 401. What the page sent is kept in
// `requests` (with its x-termsupervisor-client header) so tests can say exactly what a click did.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActionKind, ActionView, MachineState, PaneView } from '../../src/web/api-types.js';

export interface ActionRequest {
  route: 'answer' | 'reply' | 'interrupt' | 'focus';
  pane: string;
  body: Record<string, unknown>;
  client: string | undefined;
}

/** What the stand-in daemon lends the action routes. */
export interface ActionHost {
  readonly panes: Map<string, PaneView>;
  authorized(): boolean;
  json(res: ServerResponse, status: number, body: unknown): void;
  /** Moves the pane (transition + snapshot pushed), the way the daemon reports what the keys did. */
  move(id: string, to: MachineState): void;
  pushPane(p: PaneView): void;
  pushAction(a: ActionView): void;
}

const AT_REST: MachineState[] = ['DONE', 'IDLE'];
const INTERRUPTIBLE: MachineState[] = ['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL'];

export class FakeActions {
  readonly requests: ActionRequest[] = [];
  readonly history = new Map<string, ActionView[]>();
  /** What POST focus answers (a `run` pane says where it runs). */
  focus = { focused: false, how: 'runs on devbox in /dev/pts/3 (pid 4242)' };

  constructor(private readonly host: ActionHost) {}

  record(paneId: string, kind: ActionKind, keys: string, detail: string, rev: number | null, origin: ActionView['origin'] = 'dashboard'): ActionView {
    const a: ActionView = { paneId, at: Date.now(), kind, origin, from: '127.0.0.1', keys, detail, rev };
    this.history.set(paneId, [...(this.history.get(paneId) ?? []), a]);
    this.host.pushAction(a);
    return a;
  }

  handle(req: IncomingMessage, res: ServerResponse, id: string, route: string, url: URL): void {
    const h = this.host;
    if (route === 'actions') {
      const limit = Number(url.searchParams.get('limit') ?? 100);
      return h.json(res, 200, [...(this.history.get(id) ?? [])].reverse().slice(0, limit));
    }
    if (req.method !== 'POST') return h.json(res, 405, { error: 'method' });
    if (!h.authorized()) return h.json(res, 401, { error: 'token required' });
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      const client = req.headers['x-termsupervisor-client'];
      this.requests.push({ route: route as ActionRequest['route'], pane: id, body, client: typeof client === 'string' ? client : undefined });
      this.act(res, h.panes.get(id)!, route, body);
    });
  }

  private act(res: ServerResponse, p: PaneView, route: string, body: Record<string, unknown>): void {
    const h = this.host;
    const stale = (why: string) => h.json(res, 409, { error: why, pane: p });
    if (route === 'focus') return h.json(res, 200, { action: this.record(p.id, 'focus', '', this.focus.how, null), pane: p, ...this.focus });
    if (body['rev'] !== p.rev) return stale('the pane changed — look again');
    const done = (kind: ActionKind, keys: string, detail: string, to: MachineState) => {
      const action = this.record(p.id, kind, keys, detail, p.rev ?? null);
      h.pushPane({ ...p, rev: (p.rev ?? 0) + 1, question: null });
      h.move(p.id, to);
      h.json(res, 200, { action, pane: h.panes.get(p.id) });
    };
    if (route === 'answer') {
      const option = p.state === 'WAITING_APPROVAL' ? p.question?.options.find((o) => o.id === body['option']) : undefined;
      if (!option) return stale(`${p.name} is ${p.state}: it asks nothing of that`);
      return done('answer', option.keys, option.label, 'RUNNING');
    }
    if (route === 'reply') {
      if (!AT_REST.includes(p.state)) return stale(`${p.name} is ${p.state}: a reply waits until it is at rest`);
      return done('reply', `${String(body['text'])} Enter`, String(body['text']), 'RUNNING');
    }
    if (!INTERRUPTIBLE.includes(p.state)) return stale(`${p.name} is ${p.state}: nothing to interrupt`);
    done('interrupt', p.program === 'shell' ? 'Ctrl-C' : 'Esc', '', 'IDLE');
  }
}
