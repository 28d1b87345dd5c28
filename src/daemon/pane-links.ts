// The daemon's end of pane links: each `termsupervisor run` wrapper connects, says hello, and streams its pane.
// A link that dies closes its pane (history stays); a malformed message is refused with a logged reason and the
// link survives until it has sent too many of them.
import type { WebSocket, RawData } from 'ws';
import { LINK_PROTOCOL_VERSION, LinkMessageError, parseLinkMessage, type LinkReply } from '../attach/link-protocol.js';
import type { PaneRegistry } from './pane-registry.js';
import type { Logger } from './logger.js';
import { sharedParseBudget, type ParseBudget } from '../screen/parse-budget.js';

/** A link must say hello this soon after connecting, or it is closed (a stray connection holds nothing). */
const HELLO_TIMEOUT_MS = 5000;
/** Malformed messages tolerated per link before it is closed (a broken client must not fill the log). */
const MAX_BAD_MESSAGES = 20;
/** Websocket close code for protocol errors. */
const CLOSE_PROTOCOL = 1002;

export class PaneLinks {
  private readonly byPane = new Map<string, WebSocket>();
  refused = 0;

  /**
   * @param budget the thread's share for work that holds it (the panes' parsing shares it): a pane's hello (a
   *   terminal, its records) is admitted in this turn while the slice lasts, else in a later one, its link paused
   *   and its next messages held until then. 500 links saying hello at once held the daemon 451 ms in one turn.
   */
  constructor(private readonly registry: PaneRegistry, private readonly log: Logger, private readonly budget: ParseBudget = sharedParseBudget) {}

  accept(ws: WebSocket, remote: string): void {
    let paneId: string | null = null;
    let bad = 0;
    /** Messages that came while the hello waited for a later turn (in order); null when none waits. */
    let held: Array<[RawData, boolean]> | null = null;
    const helloTimer = setTimeout(() => ws.close(CLOSE_PROTOCOL, 'no hello'), HELLO_TIMEOUT_MS);
    helloTimer.unref();
    const onMessage = (data: RawData, isBinary: boolean, admitted = false): void => {
      if (held && !admitted) {
        held.push([data, isBinary]);
        return;
      }
      let m;
      try {
        if (isBinary) throw new LinkMessageError('binary frames are not part of the protocol');
        m = parseLinkMessage(data.toString());
        if (paneId === null && m.type !== 'hello') throw new LinkMessageError(`${m.type} before hello`);
        if (paneId !== null && m.type === 'hello') throw new LinkMessageError('second hello');
      } catch (e) {
        this.refused++;
        this.log.warn({ kind: 'pane', event: 'link_refused', pane: paneId, remote, reason: (e as Error).message }, 'pane link message refused');
        if (paneId === null || ++bad > MAX_BAD_MESSAGES) ws.close(CLOSE_PROTOCOL, (e as Error).message.slice(0, 100));
        return;
      }
      // A link replaced by a newer one for the same pane may still deliver a few messages: they are not this pane's.
      if (paneId !== null && this.byPane.get(paneId) !== ws) return;
      // A checked message whose handling still throws costs this link, never the daemon.
      try {
        switch (m.type) {
          case 'hello': {
            if (!admitted && this.budget.spent()) {
              // The slice is spent: this pane is admitted in a later turn, its link quiet until then.
              held = [];
              ws.pause();
              const admit = (): void => {
                if (ws.readyState !== ws.OPEN) return; // gone while it waited: no pane to open
                if (this.budget.spent()) return this.budget.later(admit, false); // still no room in this turn
                onMessage(data, isBinary, true);
                const rest = held ?? [];
                held = null;
                for (const [d, b] of rest) onMessage(d, b);
                ws.resume();
              };
              this.budget.later(admit, false);
              return;
            }
            clearTimeout(helloTimer);
            paneId = m.id;
            this.byPane.get(m.id)?.close(1000, 'replaced by a new link');
            this.byPane.set(m.id, ws);
            const where = { ...(m.host && { host: m.host }), ...(m.tty && { tty: m.tty }), ...(m.pid !== undefined && { pid: m.pid }), ...(m.tmuxPane && m.tmuxSocket && { pane: m.tmuxPane, tmuxSocket: m.tmuxSocket }) };
            this.registry.open({ id: m.id, name: m.name, attach: 'run', command: m.command, cols: m.cols, rows: m.rows, agent: m.agent, markNonce: m.markNonce ?? null, where });
            this.reply(ws, { type: 'welcome', v: LINK_PROTOCOL_VERSION, id: m.id });
            return;
          }
          case 'output':
          case 'input':
            this.registry.feed(paneId!, { kind: m.type, data: m.data });
            return this.holdWhileBehind(ws, paneId!);
          case 'resize':
            return this.registry.feed(paneId!, { kind: 'resize', cols: m.cols, rows: m.rows });
          case 'process':
            return this.registry.feed(paneId!, { kind: 'process', name: m.name, ...(m.pid !== undefined && { pid: m.pid }), ...(m.names && { names: m.names }), ...(m.reading !== undefined && { reading: m.reading }) });
          case 'command':
            return this.registry.feed(paneId!, m.phase === 'executed' ? { kind: 'command', phase: 'executed' } : { kind: 'command', phase: 'finished', exitCode: m.exitCode });
          case 'exit':
            return this.registry.feed(paneId!, { kind: 'exit', code: m.code, signal: m.signal ?? null });
        }
      } catch (e) {
        this.refused++;
        const reason = `handling ${m.type} failed: ${(e as Error).message}`;
        this.log.warn({ kind: 'pane', event: 'link_refused', pane: paneId, remote, reason }, 'pane link message refused');
        ws.close(CLOSE_PROTOCOL, reason.slice(0, 100));
      }
    };
    ws.on('message', (data: RawData, isBinary: boolean) => onMessage(data, isBinary));
    const gone = () => {
      clearTimeout(helloTimer);
      if (paneId !== null && this.byPane.get(paneId) === ws) {
        this.byPane.delete(paneId);
        void this.registry.closeWhenRead(paneId, 'link closed');
      }
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  /**
   * A link that sends faster than its pane parses is not read until the pane has caught up: its bytes wait in the
   * socket, then in the wrapper, which drops output for a daemon that far behind (daemon-link.ts), rather than in
   * this process (a storm of titles once grew the daemon to 617 MB, and what it had queued delayed every pane).
   */
  private holdWhileBehind(ws: WebSocket, paneId: string): void {
    const monitor = this.registry.livePane(paneId)?.monitor;
    if (!monitor?.backlogged || ws.isPaused) return;
    ws.pause();
    void monitor.drain().then(() => ws.resume());
  }

  /** Bytes for the person's own terminal (terminal bell notifications); false when the pane has no link. */
  bell(paneId: string, data: string): boolean {
    const ws = this.byPane.get(paneId);
    if (!ws) return false;
    this.reply(ws, { type: 'bell', data });
    return true;
  }

  /** Keys for the pane's program (a supervised task); the wrapper reports them back as input. */
  send(paneId: string, data: string): boolean {
    const ws = this.byPane.get(paneId);
    if (!ws || ws.readyState !== ws.OPEN) return false;
    this.reply(ws, { type: 'send', data });
    return true;
  }

  closeAll(): void {
    for (const ws of this.byPane.values()) ws.close(1001, 'daemon stopping');
    this.byPane.clear();
  }

  private reply(ws: WebSocket, m: LinkReply): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  }
}
