// The daemon's end of the iTerm2 bridge (/bridge/iterm2): one Python process next to iTerm2 connects, says hello,
// and streams every iTerm2 session. Each session is a pane (`iterm2:<session id>`, the same id across reconnects,
// so history continues); it goes through the same door as every attach source (registry open/feed/close). Screens
// are repainted into the pane's terminal, prompt events become OSC 133 marks, the title an OSC 2, Enter typed input,
// focus an ack. When the bridge goes away its panes are shown closed until it comes back. A malformed message is
// refused with a logged reason and the link survives until it has sent too many of them.
import { randomBytes } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import {
  BridgeMessageError,
  ITERM2_PROTOCOL_VERSION,
  MAX_SEND_TEXT,
  parseBridgeMessage,
  type BridgeMessage,
  type BridgeSession,
  type DaemonToBridge,
} from '../attach/iterm2/protocol.js';
import { ScreenPainter } from '../attach/iterm2/screen-painter.js';
import { KEY_BYTES, promptMark, titleBytes } from '../attach/iterm2/in-band.js';
import { fitScreen, fitSize, MAX_BRIDGE_SESSIONS, oversize } from '../attach/iterm2/screen-bounds.js';
import type { PaneRegistry } from './pane-registry.js';
import type { Logger } from './logger.js';
import { redactCommand } from './redact.js';
import type { FocusOutcome } from './pane-focus.js';

/** A bridge must say hello this soon after connecting, or it is closed (a stray connection holds nothing). */
const HELLO_TIMEOUT_MS = 5000;
/** Malformed messages tolerated per bridge before it is closed (a broken bridge must not fill the log). */
const MAX_BAD_MESSAGES = 20;
/** Websocket close code for protocol errors. */
const CLOSE_PROTOCOL = 1002;
/**
 * Close code for a bridge replaced by a newer one (two bridges on one iTerm2 would each paint every pane): the
 * bridge stops rather than reconnecting, so two of them never take turns replacing each other.
 */
export const CLOSE_REPLACED = 4001;
/** Pane ids of iTerm2 sessions: the prefix keeps them apart from `run` and tmux panes. */
export const ITERM2_PANE_PREFIX = 'iterm2:';

export function iterm2PaneId(session: string): string {
  return ITERM2_PANE_PREFIX + session;
}

/** One iTerm2 session as this bridge link has it open. */
/** The bridge answers an activate as soon as iTerm2 has done it; no answer this long means an older bridge that
 * does not know the request, or an iTerm2 that is not answering: the jump says so rather than waiting. */
const ACTIVATE_TIMEOUT_MS = 3000;
/** Bytes of randomness in a pane's mark nonce. */
const MARK_NONCE_BYTES = 16;

interface SessionState {
  paneId: string;
  cols: number;
  rows: number;
  painter: ScreenPainter;
  jobPid: number | null;
  /** Put on the prompt events' marks: the pane believes only those (src/analysis/mark-gate.ts). */
  nonce: string;
  /** Its screens were cut to the bound (logged once per session, not per frame). */
  trimmed: boolean;
}

interface BridgeConn {
  ws: WebSocket;
  sessions: Map<string, SessionState>;
  /** A newer bridge said hello: what this one still sends is not read. */
  replaced: boolean;
  /** Sessions past MAX_BRIDGE_SESSIONS in its latest list (logged when the number changes). */
  unwatched: number;
}

export class Iterm2Bridges {
  /** Which link opened each pane: a bridge replaced by a newer one must not close the newer one's panes. */
  private readonly owner = new Map<string, BridgeConn>();
  private readonly conns = new Set<BridgeConn>();
  /** Messages refused (malformed, unknown, out of order), for tests and metrics. */
  refused = 0;
  /** Activates sent and not yet answered, by request id. */
  private readonly activating = new Map<number, { conn: BridgeConn; done: (o: FocusOutcome) => void }>();
  private activateSeq = 0;

  constructor(private readonly registry: PaneRegistry, private readonly log: Logger) {}

  accept(ws: WebSocket, remote: string): void {
    let conn: BridgeConn | null = null;
    let bad = 0;
    const helloTimer = setTimeout(() => ws.close(CLOSE_PROTOCOL, 'no hello'), HELLO_TIMEOUT_MS);
    helloTimer.unref();
    ws.on('message', (data: RawData, isBinary: boolean) => {
      let m: BridgeMessage;
      try {
        if (isBinary) throw new BridgeMessageError('binary frames are not part of the protocol');
        m = parseBridgeMessage(data.toString());
        if (conn === null && m.type !== 'hello') throw new BridgeMessageError(`${m.type} before hello`);
        if (conn !== null && m.type === 'hello') throw new BridgeMessageError('second hello');
      } catch (e) {
        this.refused++;
        const reason = (e as Error).message;
        this.log.warn({ kind: 'pane', attach: 'iterm2', event: 'bridge_refused', remote, reason }, 'iterm2 bridge message refused');
        if (conn === null || ++bad > MAX_BAD_MESSAGES) ws.close(CLOSE_PROTOCOL, reason.slice(0, 100));
        return;
      }
      if (m.type === 'hello') {
        clearTimeout(helloTimer);
        for (const other of this.conns) {
          other.replaced = true;
          other.ws.close(CLOSE_REPLACED, 'replaced by a newer bridge');
        }
        conn = { ws, sessions: new Map(), replaced: false, unwatched: 0 };
        this.conns.add(conn);
        this.log.info({ kind: 'pane', attach: 'iterm2', event: 'bridge_connected', remote, bridge: m.bridge, iterm2: m.iterm2 ?? null }, 'iterm2 bridge connected');
        this.send(ws, { type: 'welcome', v: ITERM2_PROTOCOL_VERSION, daemon: this.registry.version });
        return;
      }
      if (conn!.replaced) return;
      // A checked message whose handling still throws costs this link, never the daemon.
      try {
        this.handle(conn!, m);
      } catch (e) {
        this.refused++;
        const reason = `handling ${m.type} failed: ${(e as Error).message}`;
        this.log.warn({ kind: 'pane', attach: 'iterm2', event: 'bridge_refused', remote, reason }, 'iterm2 bridge message refused');
        ws.close(CLOSE_PROTOCOL, reason.slice(0, 100));
      }
    });
    const gone = () => {
      clearTimeout(helloTimer);
      if (conn === null || !this.conns.delete(conn)) return;
      for (const [, a] of this.activating) if (a.conn === conn) a.done({ focused: false, how: 'the iTerm2 bridge went away before it answered' });
      for (const s of conn.sessions.values()) this.closePane(conn, s.paneId, 'bridge disconnected');
      this.log.info({ kind: 'pane', attach: 'iterm2', event: 'bridge_disconnected', remote }, 'iterm2 bridge disconnected');
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  /**
   * Types `text` into an iTerm2 pane through its bridge, as if the person had (supervised runs). False when the
   * pane is not an attached iTerm2 session or the text is too long for one message.
   */
  sendText(paneId: string, text: string): boolean {
    const conn = this.owner.get(paneId);
    if (!conn || text.length > MAX_SEND_TEXT || conn.ws.readyState !== conn.ws.OPEN) return false;
    this.send(conn.ws, { type: 'send_text', session: paneId.slice(ITERM2_PANE_PREFIX.length), text });
    return true;
  }

  /** Asks the bridge to show the session to the person (select its tab, its window to the front); null when the
   * pane is not an attached iTerm2 session. */
  activate(paneId: string): Promise<FocusOutcome> | null {
    const conn = this.owner.get(paneId);
    if (!conn || conn.ws.readyState !== conn.ws.OPEN) return null;
    const id = ++this.activateSeq;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done({ focused: false, how: 'the iTerm2 bridge did not answer (an older bridge? update bridge/iterm2_bridge.py)' }), ACTIVATE_TIMEOUT_MS);
      const done = (o: FocusOutcome) => {
        clearTimeout(timer);
        this.activating.delete(id);
        resolve(o);
      };
      this.activating.set(id, { conn, done });
      this.send(conn.ws, { type: 'activate', session: paneId.slice(ITERM2_PANE_PREFIX.length), id });
    });
  }

  closeAll(): void {
    for (const c of this.conns) c.ws.close(1001, 'daemon stopping');
  }

  private handle(conn: BridgeConn, m: Exclude<BridgeMessage, { type: 'hello' }>): void {
    if (m.type === 'sessions') return this.syncSessions(conn, m.sessions);
    if (m.type === 'activated') return this.activated(conn, m);
    const s = conn.sessions.get(m.session);
    // A late message for a session the bridge has just listed as gone: a race, not a fault.
    if (!s) return void this.log.debug({ kind: 'pane', attach: 'iterm2', event: 'bridge_unknown_session', type: m.type, session: m.session }, 'iterm2 message for an unknown session');
    const id = s.paneId;
    switch (m.type) {
      case 'screen': {
        const sent = { cols: m.cols ?? s.cols, rows: m.rows.length };
        const size = this.fit(s, sent);
        if (size.rows !== s.rows || size.cols !== s.cols) this.resize(s, size.cols, size.rows);
        const screen = fitScreen(m.rows, m.cursor, size);
        const bytes = s.painter.paint(screen.rows, screen.cursor, s);
        if (bytes) this.registry.feed(id, { kind: 'output', data: bytes });
        return;
      }
      case 'prompt':
        return this.registry.feed(id, { kind: 'output', data: promptMark(m.event, m.status, s.nonce) });
      case 'key':
        return this.registry.feed(id, { kind: 'input', data: KEY_BYTES[m.key] });
      case 'focus':
        return void this.registry.ack(id, 'focus');
      case 'variable':
        return this.variable(s, m.name, m.value);
    }
  }

  private activated(conn: BridgeConn, m: Extract<BridgeMessage, { type: 'activated' }>): void {
    const a = this.activating.get(m.id);
    if (!a || a.conn !== conn) return; // answered too late (timed out), or not this bridge's request
    a.done(m.ok ? { focused: true, how: 'iTerm2 shows the session (its tab selected, its window in front)' } : { focused: false, how: `iTerm2 refused: ${m.error ?? 'no reason given'}` });
  }

  private variable(s: SessionState, name: Extract<BridgeMessage, { type: 'variable' }>['name'], value: string | number | null): void {
    switch (name) {
      case 'jobName':
        // The foreground job names the program (claude, node, sleep); its pid is the latest one iTerm2 reported.
        if (typeof value === 'string' && value) this.registry.feed(s.paneId, { kind: 'process', name: value, ...(s.jobPid !== null && { pid: s.jobPid }) });
        return;
      case 'jobPid':
        s.jobPid = typeof value === 'number' ? value : null;
        return;
      case 'commandLine': {
        // Redacted here, on arrival: the raw line is never logged, stored or shown.
        const pane = this.registry.livePane(s.paneId);
        if (pane && typeof value === 'string') pane.record.command = redactCommand(value);
        return;
      }
      case 'terminalWindowName':
        if (typeof value === 'string') this.registry.feed(s.paneId, { kind: 'output', data: titleBytes(value) });
        return;
      case 'tty':
        this.log.debug({ kind: 'pane', attach: 'iterm2', event: 'tty', pane: s.paneId, tty: value }, 'iterm2 session tty');
        if (typeof value === 'string' && value) this.registry.setWhere(s.paneId, { tty: value });
        return;
    }
  }

  /** The bridge's list is the whole truth: open what is new, resize what changed, close what is gone. */
  private syncSessions(conn: BridgeConn, list: BridgeSession[]): void {
    const listed = new Set<string>();
    // Sessions already watched keep their place; new ones fill what is left of MAX_BRIDGE_SESSIONS in list order.
    const kept = list.filter((b) => conn.sessions.has(b.session));
    const fresh = list.filter((b) => !conn.sessions.has(b.session)).slice(0, Math.max(0, MAX_BRIDGE_SESSIONS - kept.length));
    const unwatched = list.length - kept.length - fresh.length;
    if (unwatched !== conn.unwatched) {
      conn.unwatched = unwatched;
      if (unwatched > 0) this.log.warn({ kind: 'pane', attach: 'iterm2', event: 'bridge_sessions_capped', listed: list.length, watched: MAX_BRIDGE_SESSIONS, unwatched }, 'iterm2 bridge lists more sessions than are watched: the rest are not');
    }
    for (const b of [...kept, ...fresh]) {
      listed.add(b.session);
      const s = conn.sessions.get(b.session);
      if (s) {
        const size = this.fit(s, b);
        if (s.cols !== size.cols || s.rows !== size.rows) this.resize(s, size.cols, size.rows);
        continue;
      }
      const paneId = iterm2PaneId(b.session);
      const nonce = randomBytes(MARK_NONCE_BYTES).toString('hex');
      const state: SessionState = { paneId, cols: 0, rows: 0, painter: new ScreenPainter(), jobPid: null, trimmed: false, nonce };
      Object.assign(state, this.fit(state, b));
      this.registry.open({ id: paneId, name: b.name, attach: 'iterm2', command: b.command ?? '', cols: state.cols, rows: state.rows, agent: 'auto', markNonce: nonce, where: { sessionId: b.session } });
      this.owner.set(paneId, conn);
      conn.sessions.set(b.session, state);
    }
    for (const [session, s] of conn.sessions) {
      if (listed.has(session)) continue;
      conn.sessions.delete(session);
      this.closePane(conn, s.paneId, 'iterm2 session ended');
    }
  }

  /** The size a session's pane gets (screen-bounds.ts); the first cut of a session is logged. */
  private fit(s: SessionState, sent: { cols: number; rows: number }): { cols: number; rows: number } {
    if (!oversize(sent)) return { cols: sent.cols, rows: sent.rows };
    const size = fitSize(sent);
    if (!s.trimmed) this.log.warn({ kind: 'pane', attach: 'iterm2', event: 'bridge_screen_trimmed', pane: s.paneId, sent, kept: size }, 'iterm2 screen larger than a pane may be: its bottom rows are kept');
    s.trimmed = true;
    return size;
  }

  private resize(s: SessionState, cols: number, rows: number): void {
    s.cols = cols;
    s.rows = rows;
    s.painter.reset();
    this.registry.feed(s.paneId, { kind: 'resize', cols, rows });
  }

  private closePane(conn: BridgeConn, paneId: string, why: string): void {
    if (this.owner.get(paneId) !== conn) return;
    this.owner.delete(paneId);
    this.registry.close(paneId, why);
  }

  private send(ws: WebSocket, m: DaemonToBridge): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  }
}
