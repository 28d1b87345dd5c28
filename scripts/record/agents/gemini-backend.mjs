// A scripted stand-in for the Gemini API (POST /v1beta/models/<m>:streamGenerateContent?alt=sse), for recording the
// real Gemini CLI (GOOGLE_GEMINI_BASE_URL points its genai client here). It is the truth's clock for what the model
// did. Requests that carry the agent's tools are the conversation; the CLI's own side requests (its model router,
// answered as JSON to the schema it sends) are not turns.
import { createServer } from 'node:http';
import { listenBackend, watchAbort, withBody } from './backend-server.mjs';
import { splitText } from './responses-backend.mjs';

/**
 * @param {{ replies: Array<{text: string, chunks?: number, chunkMs?: number, thinkMs?: number} | {call: string, thinkMs?: number}
 *                          | {status: number, message?: string, times?: number, thinkMs?: number}>,
 *           now: () => number, onEvent: (e: object) => void }} opts
 *   A text reply with `loop` ('recover' | 'ask') repeats itself (see below). A `status` reply is an HTTP error (400, 500…) in the Gemini API's shape, answered to this request and to the next
 *   `times - 1` (the CLI's retries), marked `api_error` once sent.
 */
export async function startGeminiBackend({ replies: script, now, onEvent }) {
  const replies = script.flatMap((r) => (r.status !== undefined ? Array.from({ length: r.times ?? 1 }, () => r) : [r]));
  let next = 0;
  const server = createServer(
    withBody((req, res, body) => {
      const t = now();
      let json = {};
      try {
        json = JSON.parse(body || '{}');
      } catch {
        /* answered below */
      }
      const m = /\/models\/([^/:]+):(\w+)/.exec(req.url ?? '');
      if (!m) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{}');
      }
      const [, model, method] = m;
      if (method === 'countTokens') return jsonReply(res, { totalTokens: 100 });
      const conversation = Array.isArray(json.tools) && json.tools.length > 0 && method === 'streamGenerateContent';
      if (!conversation) {
        onEvent({ t, kind: 'side_request', model, method, note: 'the CLI asks for something of its own (not a turn of the conversation)' });
        const schema = json.generationConfig?.responseJsonSchema ?? json.generationConfig?.responseSchema;
        const text = schema ? JSON.stringify(example(schema)) : 'ok';
        const cand = { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage() };
        if (method === 'streamGenerateContent') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return res.end(`data: ${JSON.stringify(cand)}\r\n\r\n`);
        }
        return jsonReply(res, cand);
      }
      const fromTool = lastIsFunctionResponse(json.contents);
      onEvent({ t, kind: 'backend_request', n: next, ...(fromTool ? { after: 'tool output' } : { prompt: lastUserText(json.contents) }) });
      const reply = replies[next++];
      if (!reply) {
        onEvent({ t, kind: 'unexpected_request', note: 'the script has no reply for this request' });
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end('{"error":{"code":500,"message":"no scripted reply","status":"INTERNAL"}}');
      }
      const aborted = watchAbort(res, onEvent, now);
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const send = (o) => {
        if (!res.destroyed) res.write(`data: ${JSON.stringify({ ...o, modelVersion: model })}\r\n\r\n`);
      };
      if (reply.status !== undefined) {
        return void (async () => {
          await sleep(reply.thinkMs ?? 300);
          const message = reply.message ?? `scripted HTTP ${reply.status}`;
          await new Promise((r) => {
            res.writeHead(reply.status, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { code: reply.status, message, status: googleStatus(reply.status) } }), r);
          });
          onEvent({ t: now(), kind: 'api_error', status: reply.status, source: 'backend: the HTTP error reply was sent' });
        })();
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      (async () => {
        await sleep(reply.thinkMs ?? 300);
        if (reply.call !== undefined) {
          send({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: reply.call, description: `Run ${reply.call}` } } }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage() });
          await new Promise((r) => res.end(r));
          if (!aborted()) onEvent({ t: now(), kind: 'approval_requested', command: reply.call, source: 'backend: the function call finished streaming' });
          return;
        }
        const parts = splitText(reply.text, reply.chunks ?? 3);
        for (let i = 0; i < parts.length; i++) {
          if (i > 0) await sleep(reply.chunkMs ?? 150);
          const last = i === parts.length - 1;
          send({ candidates: [{ content: { role: 'model', parts: [{ text: parts[i] }] }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }], ...(last ? { usageMetadata: usage() } : {}) });
        }
        await new Promise((r) => res.end(r));
        if (aborted()) return;
        // A reply that repeats itself (`loop`) trips the CLI's loop detection as it arrives: the first time the CLI
        // sends the model a note of its own and goes on ('recover'), the second time it halts the request and asks
        // the person ('ask'). Neither is the turn's end.
        if (reply.loop === 'recover') onEvent({ t: now(), kind: 'loop_streamed', note: 'a repeating answer: the CLI sends the model a loop-recovery note by itself' });
        else if (reply.loop === 'ask') onEvent({ t: now(), kind: 'approval_requested', dialog: 'loop detection', source: 'backend: the repeating answer finished streaming (the CLI halts the request and asks the person)' });
        else onEvent({ t: now(), kind: 'turn_complete', source: 'backend: the final answer finished streaming' });
      })();
    }),
  );
  return listenBackend(server, '', () => next);
}

function jsonReply(res, o) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(o));
}

/** The Google API status names by HTTP status (what the CLI reads to decide whether to retry). */
function googleStatus(code) {
  if (code === 429) return 'RESOURCE_EXHAUSTED';
  if (code === 503) return 'UNAVAILABLE';
  if (code >= 500) return 'INTERNAL';
  if (code === 403) return 'PERMISSION_DENIED';
  if (code === 401) return 'UNAUTHENTICATED';
  return 'INVALID_ARGUMENT';
}

function usage() {
  return { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 };
}

/** A minimal value of a JSON schema (the router's `{complexity_reasoning, complexity_score}`). */
function example(s) {
  const type = String(s?.type ?? 'object').toLowerCase();
  if (type === 'object') return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, example(v)]));
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 10;
  if (type === 'boolean') return false;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  return 'simple';
}

function lastUserText(contents) {
  const c = Array.isArray(contents) ? contents[contents.length - 1] : null;
  return (c?.parts ?? []).map((p) => p.text ?? '').join('').slice(-200);
}

function lastIsFunctionResponse(contents) {
  const c = Array.isArray(contents) ? contents[contents.length - 1] : null;
  return (c?.parts ?? []).some((p) => p.functionResponse);
}
