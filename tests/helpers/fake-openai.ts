// A real OpenAI-compatible HTTP server on 127.0.0.1 (port 0) for testing the judge client: each POST to
// /chat/completions is answered by a script (a function of the parsed body and the call index) and recorded with
// its headers, so tests can assert what was sent (Authorization, correction prompts, response_format).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatBody {
  model?: string;
  messages: Array<{ role: string; content: string }>;
  temperature?: number;
  response_format?: { type: string };
  [k: string]: unknown;
}

/** How one request is answered. Exactly one of json / content / status; delayMs waits before answering. */
export type FakeReply = { delayMs?: number } & (
  | { json: unknown; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { status: number; body?: string }
);

export type FakeScript = (body: ChatBody, index: number) => FakeReply;

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: ChatBody;
}

export interface FakeOpenAI {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  if (res.destroyed) return; // the client gave up (timeout test): nothing to answer
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function completion(content: string, usage: { prompt_tokens: number; completion_tokens: number } | undefined): string {
  return JSON.stringify({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    model: 'fake',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  });
}

export async function startFakeOpenAI(script: FakeScript): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      let body: ChatBody;
      try {
        body = JSON.parse(raw) as ChatBody;
      } catch {
        return send(res, 400, JSON.stringify({ error: { message: 'request body is not JSON' } }));
      }
      const index = requests.length;
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const reply = script(body, index);
      const answer = () => {
        if ('status' in reply) return send(res, reply.status, reply.body ?? '', 'text/plain');
        const content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;
        send(res, 200, completion(content, reply.usage));
      };
      if (!reply.delayMs) return answer();
      const t = setTimeout(() => {
        timers.delete(t);
        answer();
      }, reply.delayMs);
      timers.add(t);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
