// `top`'s live feed keeps following the daemon: a real websocket server on 127.0.0.1 drops the connection, and
// the feed says so, comes back by itself, and gets the server's hello (every pane) again. It sends the token and
// names itself as a client.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { followFeed, type Feed } from '../../src/cli/top/feed.js';
import type { WsMessage } from '../../src/web/api-types.js';
import { fakePane } from '../helpers/web-fake-api.js';

const undo: Array<() => void> = [];
afterEach(() => {
  for (const u of undo.splice(0).reverse()) u();
});

async function until(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !probe(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!probe()) throw new Error(`timed out waiting for ${what}`);
}

describe('top feed', () => {
  it('reconnects after the daemon drops it and gets every pane again', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(wss, 'listening');
    undo.push(() => wss.close());
    const headers: Array<Record<string, string | string[] | undefined>> = [];
    const sockets: WebSocket[] = [];
    wss.on('connection', (ws, req) => {
      headers.push(req.headers);
      sockets.push(ws);
      const hello: WsMessage = { type: 'hello', version: 't', panes: [fakePane(`p${sockets.length}`)] };
      ws.send(JSON.stringify(hello));
    });
    const port = (wss.address() as AddressInfo).port;
    const got: WsMessage[] = [];
    const ups: boolean[] = [];
    const feed: Feed = followFeed({ url: `http://127.0.0.1:${port}`, token: 'tok', from: 'test' } as never, 'top', { message: (m) => got.push(m), connected: (up) => ups.push(up) });
    undo.push(() => feed.close());
    await until('the first hello', () => got.length === 1);
    expect(headers[0]).toMatchObject({ authorization: 'Bearer tok', 'x-termsupervisor-client': 'top' });
    sockets[0]!.terminate();
    await until('the second hello', () => got.length === 2);
    expect(ups).toEqual([true, false, true]);
    expect(got.map((m) => (m.type === 'hello' ? m.panes[0]!.id : m.type))).toEqual(['p1', 'p2']);
  });
});
