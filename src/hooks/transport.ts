// Sends one hook event to the daemon: POST /api/hooks with the bearer token, over node:http (fetch would load
// undici, tens of milliseconds the agent waits for). Never throws, never outlives its deadline.
import { request } from 'node:http';
import type { HookBody } from './hook-body.js';

export type PostResult =
  | { ok: true; status: number; body: string }
  | { ok: false; error: string };

/** A reply body longer than this is not read (the daemon's replies are a few bytes). */
const MAX_REPLY_CHARS = 4096;

export function postHook(baseUrl: string, token: string | null, body: HookBody, timeoutMs: number): Promise<PostResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: PostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    let url: URL;
    try {
      url = new URL('/api/hooks', baseUrl);
    } catch {
      return finish({ ok: false, error: `not a daemon URL: ${baseUrl}` });
    }
    if (url.protocol !== 'http:') return finish({ ok: false, error: `the daemon speaks http, not ${url.protocol}` });
    const data = JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) };
    if (token) headers['authorization'] = `Bearer ${token}`;
    // No keep-alive agent: the process exits as soon as the reply is in.
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        if (text.length < MAX_REPLY_CHARS) text += d;
      });
      res.on('end', () => finish({ ok: true, status: res.statusCode ?? 0, body: text }));
      res.on('error', (e) => finish({ ok: false, error: e.message }));
    });
    const timer = setTimeout(() => {
      finish({ ok: false, error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => finish({ ok: false, error: e.message }));
    req.end(data);
  });
}
