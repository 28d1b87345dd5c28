// `top` follows the daemon's live feed (/ws) and keeps following it: when the daemon restarts or the network
// drops, it tries again, waiting longer each time (half a second doubling to 10 s), and the first message of a new
// connection (hello) carries every pane again, so nothing missed in between stays wrong.
import { WebSocket } from 'ws';
import type { WsMessage } from '../../web/api-types.js';
import type { DaemonTarget } from '../daemon-link.js';
import { CLIENT_HEADER } from '../pane-actions.js';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

export interface FeedHandlers {
  message(m: WsMessage): void;
  /** The feed came up (true) or went away (false; a retry is scheduled). */
  connected(up: boolean, why?: string): void;
}

export interface Feed {
  close(): void;
}

export function followFeed(target: DaemonTarget, client: string, on: FeedHandlers): Feed {
  let ws: WebSocket | null = null;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const url = target.url.replace(/^http/, 'ws') + '/ws';
  const connect = (): void => {
    const headers: Record<string, string> = { [CLIENT_HEADER]: client, ...(target.token && { authorization: `Bearer ${target.token}` }) };
    const sock = new WebSocket(url, { headers });
    ws = sock;
    sock.on('open', () => {
      attempt = 0;
      on.connected(true);
    });
    sock.on('message', (data) => {
      let m: WsMessage;
      try {
        m = JSON.parse(data.toString()) as WsMessage;
      } catch {
        return; // not ours to understand: the feed speaks JSON
      }
      on.message(m);
    });
    sock.on('error', () => {}); // 'close' follows and retries
    sock.on('close', (code, reason) => {
      if (closed) return;
      on.connected(false, reason.length ? `${code} ${reason.toString()}` : String(code));
      const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt++);
      timer = setTimeout(connect, delay);
    });
  };
  connect();
  return {
    close(): void {
      closed = true;
      clearTimeout(timer);
      ws?.removeAllListeners();
      ws?.on('error', () => {});
      ws?.terminate();
    },
  };
}
