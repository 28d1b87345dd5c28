// A scripted stand-in for the OpenAI Responses API (POST /v1/responses, SSE), for recording the real Codex CLI. It is
// the truth's clock for what the model did: when a reply that asks for a command finished streaming, when the last
// reply of a turn finished. Codex's own side requests (the task title it asks for on a thread of its own) are told
// apart by the request's metadata and answered at once; they are not turns.
import { createServer } from 'node:http';
import { listenBackend, watchAbort, withBody } from './backend-server.mjs';

/**
 * @typedef {{ text: string, chunks?: number, chunkMs?: number, thinkMs?: number }} TextReply   the turn's final answer
 * @typedef {{ call: string, escalate?: boolean, justification?: string, thinkMs?: number }} CallReply   a command to run
 */

/** Codex sends the turn's metadata as JSON in this header; `thread_source` says whose request it is. */
const TURN_METADATA = 'x-codex-turn-metadata';

/**
 * @param {{ replies: Array<TextReply|CallReply>, now: () => number, onEvent: (e: object) => void }} opts
 *   replies: answers to the conversation's requests, in order; now: the recorder's clock (s); onEvent: truth events.
 */
export async function startResponsesBackend({ replies, now, onEvent }) {
  let next = 0;
  let seq = 0;
  const server = createServer(
    withBody((req, res, body) => {
      const t = now();
      if (req.method !== 'POST' || !req.url.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{"error":{"message":"not here"}}');
      }
      let json;
      try {
        json = JSON.parse(body);
      } catch {
        res.writeHead(400);
        return res.end();
      }
      const meta = parseMeta(req.headers[TURN_METADATA]);
      const id = ++seq;
      if (meta.thread_source && meta.thread_source !== 'user') {
        onEvent({ t, kind: 'side_request', source: meta.thread_source, thread: meta.thread_id, note: 'Codex asks for something of its own (not a turn of the conversation)' });
        return stream(res, id, [{ kind: 'text', text: JSON.stringify({ title: 'Say hello' }) }], 0).then(() => onEvent({ t: now(), kind: 'side_request_answered', source: meta.thread_source }));
      }
      const last = lastUserText(json.input);
      const fromTool = lastIsToolOutput(json.input);
      onEvent({ t, kind: 'backend_request', n: next, thread: meta.thread_id, ...(fromTool ? { after: 'tool output' } : { prompt: last }) });
      const reply = replies[next++];
      if (!reply) {
        onEvent({ t, kind: 'unexpected_request', note: 'the script has no reply for this request' });
        res.writeHead(500);
        return res.end();
      }
      const aborted = watchAbort(res, onEvent, now);
      if (reply.call !== undefined) {
        const args = { cmd: reply.call, ...(reply.escalate ? { sandbox_permissions: 'require_escalated', justification: reply.justification ?? 'Run this command?' } : {}) };
        stream(res, id, [{ kind: 'call', name: 'exec_command', args }], reply.thinkMs ?? 300).then(() => {
          if (!aborted()) onEvent({ t: now(), kind: reply.escalate ? 'approval_requested' : 'tool_call_sent', command: reply.call, source: 'backend: the function call finished streaming' });
        });
      } else {
        const n = reply.chunks ?? 3;
        const parts = splitText(reply.text, n).map((text) => ({ kind: 'text', text }));
        stream(res, id, parts, reply.thinkMs ?? 300, reply.chunkMs ?? 150).then(() => {
          if (!aborted()) onEvent({ t: now(), kind: 'turn_complete', source: 'backend: the final answer finished streaming' });
        });
      }
    }),
  );
  return listenBackend(server, '/v1', () => next);
}

/** One SSE response: the parts (text deltas of one message, or one function call), then response.completed. */
async function stream(res, id, parts, thinkMs, chunkMs = 100) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const send = (type, obj) => {
    if (!res.destroyed) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...obj })}\n\n`);
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const respId = `resp_${id}`;
  send('response.created', { response: { id: respId } });
  await sleep(thinkMs);
  const call = parts.find((p) => p.kind === 'call');
  if (call) {
    const item = { type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: call.name, arguments: JSON.stringify(call.args) };
    send('response.output_item.added', { output_index: 0, item: { ...item, arguments: '' } });
    send('response.function_call_arguments.delta', { output_index: 0, item_id: item.id, delta: item.arguments });
    send('response.output_item.done', { output_index: 0, item });
  } else {
    const itemId = `msg_${id}`;
    const text = parts.map((p) => p.text).join('');
    send('response.output_item.added', { output_index: 0, item: { type: 'message', role: 'assistant', id: itemId, content: [] } });
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) await sleep(chunkMs);
      send('response.output_text.delta', { output_index: 0, content_index: 0, item_id: itemId, delta: parts[i].text });
    }
    send('response.output_item.done', { output_index: 0, item: { type: 'message', role: 'assistant', id: itemId, content: [{ type: 'output_text', text }] } });
  }
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 120 };
  send('response.completed', { response: { id: respId, usage } });
  await new Promise((r) => res.end(r));
}

function parseMeta(h) {
  try {
    return JSON.parse(String(h ?? '{}'));
  } catch {
    return {};
  }
}

function lastUserText(input) {
  if (!Array.isArray(input)) return '';
  for (let i = input.length - 1; i >= 0; i--) {
    const it = input[i];
    if (it?.type === 'message' && it.role === 'user') return (it.content ?? []).map((c) => c.text ?? '').join('');
  }
  return '';
}

function lastIsToolOutput(input) {
  const it = Array.isArray(input) ? input[input.length - 1] : null;
  return it?.type === 'function_call_output';
}

/** The text in about n pieces, cut at spaces. */
export function splitText(text, n) {
  const words = text.split(/(?<= )/);
  const per = Math.max(1, Math.ceil(words.length / n));
  const out = [];
  for (let i = 0; i < words.length; i += per) out.push(words.slice(i, i + per).join(''));
  return out;
}
