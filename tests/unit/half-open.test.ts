// Half-open connections (issue 27): a client that opens a /ws upgrade (or any request) and never finishes its
// headers is closed after the app's headers timeout, not held for minutes; 2,000 of them once stayed open 8 s and
// more. A real fastify on 127.0.0.1 and raw sockets.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningApp, TOKEN, type TestApp } from '../helpers/web-fake-api.js';
import { WebSocket } from 'ws';

/** Short, so the test is quick; the daemon's own is HEADERS_TIMEOUT_MS (build-app.ts). */
const TIMEOUT_MS = 400;
/** Node looks for expired connections every min(1 s, timeout): each is closed within timeout + that + slack. */
const CLOSED_WITHIN_MS = 2 * TIMEOUT_MS + 1500;
const HALF_OPEN = 300;

let apps: TestApp[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
});

describe('half-open upgrades', () => {
  it(`${HALF_OPEN} /ws upgrades whose headers never end are all closed within the timeout; a full one still opens`, async () => {
    const t = await listeningApp({ headersTimeoutMs: TIMEOUT_MS });
    apps.push(t);
    const start = Date.now();
    const closedAt: number[] = [];
    await Promise.all(
      Array.from({ length: HALF_OPEN }, () => new Promise<void>((resolve) => {
        const s = connect(t.port, '127.0.0.1', () => {
          // The request line and some headers, never the blank line that ends them.
          s.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`);
          resolve();
        });
        s.on('error', () => {});
        s.resume(); // read the 408, so its end is seen
        // The server's end of it: a 408 and its FIN (it destroys its socket), whatever this side does after.
        let done = false;
        const closed = () => {
          if (!done) closedAt.push(Date.now() - start);
          done = true;
        };
        s.on('end', closed);
        s.on('close', closed);
        sockets.push(s);
      })),
    );
    const deadline = Date.now() + CLOSED_WITHIN_MS;
    while (closedAt.length < HALF_OPEN && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(closedAt.length).toBe(HALF_OPEN);
    expect(Math.max(...closedAt)).toBeLessThan(CLOSED_WITHIN_MS);
    // None was closed before its headers had their time.
    expect(Math.min(...closedAt)).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);

    const ws = new WebSocket(`ws://127.0.0.1:${t.port}/ws`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => resolve());
      ws.on('error', reject);
    });
    // Open well past the headers timeout: it bounds the headers, not the connection.
    await new Promise((r) => setTimeout(r, 3 * TIMEOUT_MS));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  }, 20_000);
});
