// A scripted stand-in for an OpenAI-compatible Chat Completions API (POST <base>/chat/completions, streamed as SSE
// `chat.completion.chunk`s), for recording Qwen Code (OPENAI_BASE_URL points it here). It is the truth's clock for
// what the model did: when a reply that asks for a command finished streaming, when a turn's final answer finished,
// when an HTTP error was answered. Requests that carry the agent's tools are the conversation; the CLI's own side
// requests (no tools: a title, a next-speaker check, a summary) are answered at once and are not turns.
import { createServer } from 'node:http';
import { splitText } from './responses-backend.mjs';

/**
 * @typedef {{ text: string, chunks?: number, chunkMs?: number, thinkMs?: number,
 *             reasoning?: string, reasoningChunks?: number, reasoningChunkMs?: number }} TextReply
 *   the turn's final answer; `reasoning` is streamed first as `reasoning_content` deltas (a model thinking aloud)
 * @typedef {{ call: string, thinkMs?: number }} CallReply   a shell command to run (`run_shell_command`)
 * @typedef {{ status: number, message?: string, times?: number, thinkMs?: number }} ErrorReply
 *   an HTTP error (429, 500) answered to this request and to the next `times - 1` (the CLI's retries)
 */

/** The shell tool Qwen Code (like Gemini CLI, which it forks) offers the model. */
const SHELL_TOOL = 'run_shell_command';

/**
 * @param {{ replies: Array<TextReply|CallReply|ErrorReply>, now: () => number, onEvent: (e: object) => void,
 *           model?: string }} opts
 */
export async function startChatBackend({ replies, now, onEvent, model = 'fake-model' }) {
  const queue = [];
  for (const r of replies) for (let i = 0; i < (r.status ? (r.times ?? 1) : 1); i++) queue.push(r);
  let next = 0;
  let seq = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const t = now();
      if (req.method === 'GET' && /\/models\/?$/.test(req.url ?? '')) {
        onEvent({ t, kind: 'side_request', path: req.url, note: 'the CLI lists the models (not a turn)' });
        return jsonReply(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'fake' }] });
      }
      if (req.method !== 'POST' || !/\/chat\/completions\/?$/.test(req.url ?? '')) {
        onEvent({ t, kind: 'side_request', path: req.url, method: req.method, note: 'not a chat completion: 404' });
        return jsonReply(res, 404, { error: { message: 'not here', type: 'invalid_request_error' } });
      }
      let json = {};
      try {
        json = JSON.parse(body || '{}');
      } catch {
        return jsonReply(res, 400, { error: { message: 'bad json', type: 'invalid_request_error' } });
      }
      const id = `chatcmpl-${++seq}`;
      const conversation = Array.isArray(json.tools) && json.tools.length > 0;
      if (!conversation) {
        onEvent({ t, kind: 'side_request', stream: !!json.stream, note: 'the CLI asks for something of its own (not a turn of the conversation)' });
        return answer(res, json, id, 'ok');
      }
      const fromTool = lastIsToolResult(json.messages);
      onEvent({ t, kind: 'backend_request', n: next, ...(fromTool ? { after: 'tool output' } : { prompt: lastUserText(json.messages) }) });
      const reply = queue[next++];
      if (!reply) {
        onEvent({ t, kind: 'unexpected_request', note: 'the script has no reply for this request' });
        return jsonReply(res, 500, { error: { message: 'no scripted reply', type: 'server_error' } });
      }
      let aborted = false;
      res.on('close', () => {
        if (!res.writableFinished) {
          aborted = true;
          onEvent({ t: now(), kind: 'backend_stream_aborted_by_client' });
        }
      });
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      (async () => {
        await sleep(reply.thinkMs ?? 300);
        if (reply.status) {
          const message = reply.message ?? (reply.status === 429 ? 'Rate limit reached for requests' : 'The server had an error while processing your request.');
          const type = reply.status === 429 ? 'rate_limit_error' : 'server_error';
          await new Promise((r) => {
            res.writeHead(reply.status, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { message, type, code: reply.status === 429 ? 'rate_limit_exceeded' : null } }), r);
          });
          onEvent({ t: now(), kind: 'api_error', status: reply.status, source: 'backend: the HTTP error reply was sent' });
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const send = (delta, finish = null, extra = {}) => {
          if (!res.destroyed) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
        };
        const end = async () => {
          if (!res.destroyed) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage: usage() })}\n\n`);
          if (!res.destroyed) res.write('data: [DONE]\n\n');
          await new Promise((r) => res.end(r));
        };
        if (reply.call !== undefined) {
          const args = JSON.stringify({ command: reply.call, description: `Run ${reply.call}` });
          send({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: `call_${seq}`, type: 'function', function: { name: SHELL_TOOL, arguments: args } }] });
          send({}, 'tool_calls');
          await end();
          if (!aborted) onEvent({ t: now(), kind: 'approval_requested', command: reply.call, source: 'backend: the function call finished streaming' });
          return;
        }
        if (reply.reasoning) {
          const parts = splitText(reply.reasoning, reply.reasoningChunks ?? 5);
          for (let i = 0; i < parts.length && !aborted; i++) {
            if (i > 0) await sleep(reply.reasoningChunkMs ?? 1000);
            send({ ...(i === 0 ? { role: 'assistant' } : {}), reasoning_content: parts[i] });
          }
        }
        const parts = splitText(reply.text, reply.chunks ?? 3);
        for (let i = 0; i < parts.length && !aborted; i++) {
          if (i > 0) await sleep(reply.chunkMs ?? 150);
          send({ ...(i === 0 && !reply.reasoning ? { role: 'assistant' } : {}), content: parts[i] });
        }
        send({}, 'stop');
        await end();
        if (!aborted) onEvent({ t: now(), kind: 'turn_complete', source: 'backend: the final answer finished streaming' });
      })();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    get served() {
      return next;
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

/** A side request's answer, streamed or not as it asked. */
function answer(res, json, id, text) {
  const model = json.model ?? 'fake-model';
  if (!json.stream) {
    return jsonReply(res, 200, { id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: usage() });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (choices, extra = {}) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices, ...extra })}\n\n`;
  res.end(chunk([{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }]) + chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]) + chunk([], { usage: usage() }) + 'data: [DONE]\n\n');
}

function jsonReply(res, status, o) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(o));
}

function usage() {
  return { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
}

function lastUserText(messages) {
  const m = Array.isArray(messages) ? [...messages].reverse().find((x) => x.role === 'user') : null;
  const c = m?.content;
  return (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => p.text ?? '').join('') : '').slice(-200);
}

function lastIsToolResult(messages) {
  const m = Array.isArray(messages) ? messages[messages.length - 1] : null;
  return m?.role === 'tool';
}
