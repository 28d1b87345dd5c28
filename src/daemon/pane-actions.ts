// What a person does to a pane from where they see it: answer its question, reply to it at rest, interrupt it, ack
// it. Keys go in only while the pane still shows what the person acted on (its revision), each key through the
// pane's own source, and every action is kept in history (who, from where, what) and published once committed.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/config.js';
import type { HistoryStore } from '../store/history-store.js';
import type { ActionRecord } from '../store/records.js';
import type { ActionView, AnswerRequest, InterruptRequest, PaneView, ReplyRequest, WsMessage } from '../web/api-types.js';
import type { ActionClient, ActionOutcome, PaneActionApi } from '../web/daemon-api.js';
import type { LivePane } from './live-pane.js';
import type { PaneRegistry } from './pane-registry.js';
import { keyBytes, printableKeys } from './typed-keys.js';
import { cut, redactText } from './redact.js';
import { needsPaste, replyTextProblem } from './reply-text.js';

/** Longest printable keys kept in history (characters): a reply is a prompt, history keeps its start. */
export const ACTION_KEYS_MAX = 200;
/** Longest detail kept (the option's label, the reply's first line). */
export const ACTION_DETAIL_MAX = 200;

const WORKING = new Set(['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL']);
/** A turn has ended (DONE, FAILED: the program is back at its prompt) or none began: a reply may start one. */
const AT_REST = new Set(['DONE', 'FAILED', 'IDLE']);
/** Bracketed paste: a reply of several lines arrives as one paste, not as several submitted lines. */
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export interface PaneActionsOptions {
  registry: PaneRegistry;
  store: HistoryStore;
  cfg: Config;
  /** Each key typed this long after the one before (tasks.enter_delay_s): a TUI takes a burst for a paste. */
  enterDelayS: number;
  publish(m: WsMessage): void;
  now?: () => number;
}

type Live = { live: LivePane } | ActionOutcome;

export class PaneActions implements PaneActionApi {
  /** One action at a time per pane: the second is checked against the screen the first left. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly now: () => number;

  constructor(private readonly opts: PaneActionsOptions) {
    this.now = opts.now ?? Date.now;
  }

  answer(id: string, body: AnswerRequest, client: ActionClient): Promise<ActionOutcome> {
    return this.onLive(id, (l, rev, view) => {
      if (view.state !== 'WAITING_APPROVAL') return refuse(409, `the pane is ${view.state}: it is not waiting for an answer — look again`, view);
      if (body.rev !== rev) return stale(view);
      const option = view.question?.options.find((o) => o.id === body.option);
      if (!option) {
        const offered = view.question?.options.map((o) => o.id).join(', ') || 'none';
        return refuse(400, `option ${JSON.stringify(body.option)} is not offered (offered: ${offered})`, view);
      }
      return this.type(l.live, { kind: 'answer', keys: keyBytes(option.keys), printable: option.keys, detail: option.label, rev: body.rev }, client);
    });
  }

  reply(id: string, body: ReplyRequest, client: ActionClient): Promise<ActionOutcome> {
    return this.onLive(id, (l, rev, view) => {
      // Whatever the pane's state, such a text is never a reply.
      const problem = replyTextProblem(body.text.replace(/\r\n?/g, '\n'));
      if (problem) return refuse(400, problem, view);
      if (!AT_REST.has(view.state)) return refuse(409, `the pane is ${view.state}: a reply is typed only at rest (DONE, FAILED or IDLE) — look again`, view);
      if (body.rev !== rev) return stale(view);
      const max = this.opts.cfg.actions.max_reply_chars;
      if (body.text.length > max) return refuse(400, `a reply is at most ${max} characters (actions.max_reply_chars)`, view);
      const text = body.text.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
      let typed = text;
      if (needsPaste(text)) {
        if (!l.live.monitor.screen.term.modes.bracketedPasteMode) return refuse(400, 'this pane takes one line at a time (it has bracketed paste off): send one line, without Tabs', view);
        typed = PASTE_START + text + PASTE_END;
      }
      return this.type(l.live, { kind: 'reply', keys: [typed, '\r'], printable: printableKeys(`${text}\r`), detail: text.split('\n')[0]!, rev: body.rev }, client);
    });
  }

  interrupt(id: string, body: InterruptRequest, client: ActionClient): Promise<ActionOutcome> {
    return this.onLive(id, (l, rev, view) => {
      if (!WORKING.has(view.state)) return refuse(409, `the pane is ${view.state}: nothing to interrupt — look again`, view);
      // A running pane redraws every frame: any revision it showed since it entered its state will do, one from
      // before (another state) will not.
      if (body.rev < l.live.stateRev || body.rev > rev) return stale(view);
      const k = this.opts.cfg.actions.keys;
      const printable = (k[view.program] ?? k['default'])?.interrupt ?? 'Ctrl-C';
      return this.type(l.live, { kind: 'interrupt', keys: keyBytes(printable), printable, detail: `interrupted ${view.state}`, rev: body.rev }, client);
    });
  }

  /** The person has seen the pane (DONE/FAILED/WAITING → IDLE), kept as an action `ack`. */
  ack(id: string, client: ActionClient): PaneView | null {
    const view = this.opts.registry.ack(id, client.origin);
    if (view?.alive) this.record({ paneId: id, at: this.now(), kind: 'ack', origin: client.origin, from: client.from, keys: '', detail: '', rev: null });
    return view;
  }

  list(id: string, limit: number): ActionView[] | null {
    if (this.opts.registry.pane(id) === null) return null;
    return this.opts.store.actions(id, limit);
  }

  /** A supervised task typed into its pane (src/daemon/task-panes.ts): kept like a person's keys. */
  taskTyped(id: string, text: string): void {
    this.record({ paneId: id, at: this.now(), kind: 'keys', origin: 'task', from: '', keys: printableKeys(text), detail: text.split(/[\r\n]/)[0] ?? '', rev: null });
  }

  /** Stored, then published once committed (as transitions are); returns the record as kept. */
  private record(a: ActionRecord): ActionRecord {
    const rec: ActionRecord = { ...a, keys: cut(redactText(a.keys), ACTION_KEYS_MAX), detail: cut(redactText(a.detail), ACTION_DETAIL_MAX) };
    this.opts.store.addAction(rec, () => this.opts.publish({ type: 'action', action: rec }));
    // Committed now, so the reply (and the feed) shows it.
    this.opts.store.flush();
    return rec;
  }

  private async type(pane: LivePane, a: { kind: ActionRecord['kind']; keys: string[]; printable: string; detail: string; rev: number }, client: ActionClient): Promise<ActionOutcome> {
    const reg = this.opts.registry;
    // A remote whose config does not allow typing: refused before any key, with the reason (registry.sendText
    // refuses it too, whoever asks).
    const refusal = reg.typingRefusal(pane.id);
    if (refusal) return refuse(403, refusal, reg.pane(pane.id));
    let sent = 0;
    for (const k of a.keys) {
      if (sent > 0) await sleep(this.opts.enterDelayS * 1000);
      if (reg.livePane(pane.id) !== pane || !reg.sendText(pane.id, k)) break;
      sent++;
    }
    if (sent === 0) return refuse(503, "this pane's source cannot type into it (nothing was sent)", reg.pane(pane.id));
    // Keys the person sent: the turn they start is theirs; an interrupt they asked for ends one they know about.
    if (a.kind === 'interrupt') pane.attention.interruptAction();
    else pane.attention.keys('');
    // The screen answered is spent: a second click made on it is stale, whatever the program draws next.
    pane.monitor.revision.bump();
    const printable = sent === a.keys.length ? a.printable : printableKeys(a.keys.slice(0, sent).join(''));
    const detail = sent === a.keys.length ? a.detail : `${a.detail} (stopped after ${sent} of ${a.keys.length} keys: the pane's source went away)`;
    // The pane's new revision first: the action's message then flushes it to the feed with it (build-app.ts).
    const view = reg.pane(pane.id)!;
    this.opts.publish({ type: 'pane', pane: view });
    const action = this.record({ paneId: pane.id, at: this.now(), kind: a.kind, origin: client.origin, from: client.from, keys: printable, detail, rev: a.rev });
    if (sent < a.keys.length) return refuse(503, `the pane's source went away after ${sent} of ${a.keys.length} keys`, view);
    return { ok: true, result: { action, pane: view } };
  }

  /** The live pane, its queued output read; a closed pane is refused (409), an unknown one is 404. */
  private async live(id: string): Promise<Live> {
    const pane = this.opts.registry.livePane(id);
    if (!pane) {
      const view = this.opts.registry.pane(id);
      return view ? refuse(409, 'the pane is closed', view) : refuse(404, 'no such pane', null);
    }
    await pane.monitor.flush();
    if (this.opts.registry.livePane(id) !== pane) return refuse(409, 'the pane is closed', this.opts.registry.pane(id));
    return { live: pane };
  }

  /** One action on a live pane, after those already queued for it: `act` sees the pane, its revision read fresh
   * (output not yet read is read first) and its view. */
  private onLive(id: string, act: (l: { live: LivePane }, rev: number, view: PaneView) => ActionOutcome | Promise<ActionOutcome>): Promise<ActionOutcome> {
    return this.serial(id, async () => {
      const l = await this.live(id);
      if (!('live' in l)) return l;
      return act(l, l.live.monitor.freshRev(), l.live.view());
    });
  }

  private serial(id: string, f: () => Promise<ActionOutcome>): Promise<ActionOutcome> {
    const run = (this.queues.get(id) ?? Promise.resolve()).then(f, f);
    const tail = run.catch(() => {});
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return run;
  }
}

function refuse(status: 400 | 403 | 404 | 409 | 503, error: string, pane: PaneView | null): ActionOutcome {
  return { ok: false, status, error, pane };
}

function stale(pane: PaneView): ActionOutcome {
  return refuse(409, 'the pane changed — look again', pane);
}
