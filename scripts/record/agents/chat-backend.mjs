// A scripted stand-in for an OpenAI-compatible Chat Completions API (POST .../chat/completions, SSE
// `chat.completion.chunk`), for recording any agent CLI that takes a custom OpenAI-compatible endpoint (opencode,
// Kilo Code CLI, Qwen Code, ...). It is the truth's clock for what the model did: when a reply that asks for a
// command finished streaming, when the last reply of a turn finished, when an HTTP error was answered (whether the
// CLI gave up on it is told afterwards by agent-truth.mjs: no request of the turn came after it). Requests that carry
// the agent's tools are the conversation; the CLI's own side requests (a session title, a next-speaker check, a
// summary) carry none and are answered at once, never counted as turns.
import { createServer } from 'node:http';
import { listenBackend, watchAbort, withBody } from './backend-server.mjs';
import { splitText } from './responses-backend.mjs';

/**
 * @typedef {{ text: string, chunks?: number, chunkMs?: number, thinkMs?: number, reasoning?: string,
 *             reasoningMs?: number, reasoningChunks?: number, reasoningChunkMs?: number }} TextReply
 *   the turn's final answer; `reasoning` is streamed first as `reasoning_content` deltas, `reasoningChunks` pieces
 *   `reasoningChunkMs` apart, or spread over `reasoningMs` (a slow "long thinking" stream: bytes, no answer yet)
 * @typedef {{ call: string, thinkMs?: number, approval?: boolean, reasoning?: string, reasoningMs?: number }} CallReply
 *   a shell command: a tool call to the request's shell tool (named like one, or the first whose parameters have
 *   `command`), after the reasoning if any (as for a TextReply). `approval: false` when the CLI will not ask (the
 *   truth then has `tool_call_sent`)
 * @typedef {{ status: number, message?: string, times?: number, thinkMs?: number }} ErrorReply
 *   an HTTP error (429, 500, 400...) answered to this request and to the next `times - 1` (the CLI's retries);
 *   `error` is accepted for `status`
 */

/**
 * @param {{ replies: Array<TextReply|CallReply|ErrorReply>, now: () => number, onEvent: (e: object) => void }} opts
 *   replies: answers to the conversation's requests, in order; now: the recorder's clock (s); onEvent: truth events.
 */
export async function startChatBackend({ replies, now, onEvent, model: modelName = 'fake-model', sideText = 'Fake session' }) {
  const queue = [];
  for (const r of replies) {
    const status = r.status ?? r.error;
    const reply = status !== undefined ? { ...r, status } : r;
    for (let i = 0; i < (status !== undefined ? (r.times ?? 1) : 1); i++) queue.push(reply);
  }
  let next = 0;
  let seq = 0;
  const server = createServer(
    withBody((req, res, body) => {
      const t = now();
      const url = req.url ?? '';
      if (req.method === 'GET' && /\/models\/?$/.test(url)) {
        onEvent({ t, kind: 'side_request', path: url, note: 'the CLI lists the models (not a turn)' });
        return jsonReply(res, 200, { object: 'list', data: [{ id: modelName, object: 'model', created: 0, owned_by: 'fake' }] });
      }
      if (req.method !== 'POST' || !/\/chat\/completions\/?$/.test(url)) {
        onEvent({ t, kind: 'unknown_request', method: req.method, url });
        return jsonReply(res, 404, { error: { message: 'not here', type: 'not_found' } });
      }
      let json = {};
      try {
        json = JSON.parse(body || '{}');
      } catch {
        return jsonReply(res, 400, { error: { message: 'bad json', type: 'invalid_request_error' } });
      }
      const id = `chatcmpl-${++seq}`;
      const model = json.model ?? modelName;
      const tools = Array.isArray(json.tools) ? json.tools : [];
      if (tools.length === 0) {
        onEvent({ t, kind: 'side_request', note: 'the CLI asks for something of its own (no tools: a title, a check), not a turn of the conversation' });
        const text = json.response_format?.type === 'json_schema' || json.response_format?.type === 'json_object' ? '{}' : sideText;
        return respond(res, json.stream, id, model, { text, chunks: 1, thinkMs: 0 });
      }
      const fromTool = lastIsToolResult(json.messages);
      onEvent({ t, kind: 'backend_request', n: next, ...(fromTool ? { after: 'tool output' } : { prompt: lastUserText(json.messages) }) });
      const reply = queue[next++];
      if (!reply) {
        onEvent({ t, kind: 'unexpected_request', note: 'the script has no reply for this request' });
        return jsonReply(res, 500, { error: { message: 'no scripted reply', type: 'server_error' } });
      }
      const aborted = watchAbort(res, onEvent, now);
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      (async () => {
        if (reply.status !== undefined) {
          await sleep(reply.thinkMs ?? 300);
          const message = reply.message ?? (reply.status === 429 ? 'Rate limit reached for requests' : reply.status >= 500 ? 'The server had an error while processing your request.' : `scripted HTTP ${reply.status}`);
          await new Promise((r) => {
            res.writeHead(reply.status, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { message, type: errorType(reply.status), code: reply.status === 429 ? 'rate_limit_exceeded' : null } }), r);
          });
          return onEvent({ t: now(), kind: 'api_error', status: reply.status, source: 'backend: the HTTP error reply was sent' });
        }
        if (reply.call !== undefined) {
          const tool = shellTool(tools);
          if (!tool) {
            onEvent({ t: now(), kind: 'no_shell_tool', tools: tools.map((x) => x.function?.name) });
            return jsonReply(res, 500, { error: { message: 'no shell tool in the request' } });
          }
          // the reply's reasoning (if any) is streamed before the call, as a model that thinks and then acts
          await respond(res, json.stream, id, model, { ...reply, call: { name: tool, args: { command: reply.call, description: `Run ${reply.call}` } } });
          if (!aborted()) onEvent({ t: now(), kind: reply.approval === false ? 'tool_call_sent' : 'approval_requested', command: reply.call, tool, source: 'backend: the tool call finished streaming' });
          return;
        }
        await respond(res, json.stream, id, model, reply);
        if (!aborted()) onEvent({ t: now(), kind: 'turn_complete', source: 'backend: the final answer finished streaming' });
      })();
    }),
  );
  return listenBackend(server, '/v1', () => next);
}

/** The streamed (SSE) or plain answer: reasoning deltas, then text deltas or one tool call, then finish + usage. */
async function respond(res, stream, id, model, reply) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  const finish = reply.call ? 'tool_calls' : 'stop';
  const toolCall = reply.call && { index: 0, id: `call_${id}`, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.args) } };
  if (!stream) {
    await sleep((reply.thinkMs ?? 300) + (reply.reasoningMs ?? 0));
    const message = { role: 'assistant', content: reply.call ? null : reply.text, ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}), ...(toolCall ? { tool_calls: [toolCall] } : {}) };
    return jsonReply(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const send = (delta, finish_reason = null, extra = {}) => {
    if (!res.destroyed) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`);
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  send({ role: 'assistant', content: '' });
  await sleep(reply.thinkMs ?? 300);
  if (reply.reasoning) {
    // `reasoningChunks` pieces `reasoningChunkMs` apart, or about one piece per 0.5 s spread over `reasoningMs`
    const spread = reply.reasoningChunkMs === undefined;
    const parts = splitText(reply.reasoning, reply.reasoningChunks ?? Math.max(1, Math.round((reply.reasoningMs ?? 3000) / 500)));
    const gap = spread ? (reply.reasoningMs ?? 3000) / parts.length : reply.reasoningChunkMs;
    for (let i = 0; i < parts.length && !res.destroyed; i++) {
      if (i > 0 && !spread) await sleep(gap);
      send({ reasoning_content: parts[i] });
      if (spread) await sleep(gap);
    }
  }
  if (toolCall) send({ tool_calls: [toolCall] });
  else {
    const parts = splitText(reply.text, reply.chunks ?? 3);
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) await sleep(reply.chunkMs ?? 150);
      send({ content: parts[i] });
    }
  }
  send({}, finish);
  if (!res.destroyed) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  if (!res.destroyed) res.write('data: [DONE]\n\n');
  await new Promise((r) => res.end(r));
}

/** OpenAI's error types by status: the words some CLIs read to decide whether to retry ("server_error" is retried). */
function errorType(status) {
  if (status === 429) return 'rate_limit_error';
  if (status === 401) return 'authentication_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function jsonReply(res, status, o) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(o));
}

/** The request's tool that runs a shell command: named like one, or the first whose parameters have `command`. */
function shellTool(tools) {
  const fns = tools.map((t) => t.function ?? t).filter((f) => f?.name);
  const hasCommand = (f) => Object.hasOwn(f.parameters?.properties ?? {}, 'command');
  const named = fns.find((f) => /^(bash|shell|run_shell_command|execute_command|exec)$/i.test(f.name) && hasCommand(f));
  return (named ?? fns.find(hasCommand))?.name;
}

function lastUserText(messages) {
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return (typeof m.content === 'string' ? m.content : (m.content ?? []).map((c) => c.text ?? '').join('')).slice(-200);
  }
  return '';
}

function lastIsToolResult(messages) {
  const m = Array.isArray(messages) ? messages[messages.length - 1] : null;
  return m?.role === 'tool';
}
