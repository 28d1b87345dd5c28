// A local stand-in for the Anthropic Messages API, for recording the real Claude Code CLI (scripts/record/).
// POST /v1/messages answers with SSE (message_start, content_block_start/delta/stop, message_delta, message_stop),
// paced by the script so that a turn can think for seconds or stream slowly. The conversation's own requests (those
// that carry the Bash tool) are answered by the scenario, one reply per request, in order; the CLI's side requests
// (titles, topic checks, quota probes) get a short text at once. Every request and every moment that matters is
// logged on the recorder's clock (`clock()` seconds), which is where truth.json takes its times from.
import { createServer } from 'node:http';

/** Pause between streamed deltas when a reply does not set its own pace. */
const DEFAULT_DELTA_MS = 60;

/**
 * A reply is a list of content blocks with their pacing:
 *   { thinking: 'text', seconds }   a thinking block streamed evenly over `seconds`
 *   { text: 'text', seconds }       a text block, likewise
 *   { tool: 'Bash', input: {...} }   a tool_use block (stop_reason tool_use)
 * plus `delayMs` before message_start. A reply `{ status, message }` is an HTTP error (400, 500…) answered after
 * `delayMs`, marked `api_error` when sent.
 */
export function startFakeAnthropic({ clock, replies, log }) {
  const requests = [];
  const marks = [];
  const mark = (kind, extra = {}) => {
    const m = { t: clock(), kind, ...extra };
    marks.push(m);
    log?.(`backend ${m.t.toFixed(3)} ${kind} ${JSON.stringify(extra)}`);
    return m;
  };
  let mainIndex = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || !path.endsWith('/v1/messages')) {
        // count_tokens and anything else the CLI may probe: a small, valid answer.
        const json = path.endsWith('/count_tokens') ? { input_tokens: 100 } : {};
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
        return;
      }
      let parsed = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        // answered as a side request below
      }
      const main = Array.isArray(parsed.tools) && parsed.tools.some((t) => t && t.name === 'Bash');
      const last = Array.isArray(parsed.messages) ? parsed.messages[parsed.messages.length - 1] : undefined;
      const entry = { t: clock(), main, model: parsed.model, stream: parsed.stream === true, last: summarize(last) };
      requests.push(entry);
      log?.(`backend ${entry.t.toFixed(3)} request main=${main} model=${parsed.model} last=${entry.last}`);
      if (!main) {
        void respond(res, parsed, [{ text: sideText(parsed), seconds: 0 }], null);
        return;
      }
      const i = mainIndex++;
      const reply = replies[i] ?? { blocks: [{ text: 'Done.', seconds: 0.2 }] };
      mark('main_request', { index: i, last: entry.last });
      if (reply.status !== undefined) {
        void respondError(res, reply, (kind, extra) => mark(kind, { index: i, ...extra }));
        return;
      }
      void respond(res, parsed, reply.blocks, (kind, extra) => mark(kind, { index: i, ...extra }), reply.delayMs ?? 0);
    });
  });
  const listening = new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ready: listening.then(() => `http://127.0.0.1:${server.address().port}`),
    requests,
    marks,
    close: () => new Promise((resolve) => server.close(() => resolve())),
    closeAll: () => server.closeAllConnections(),
  };
}

/** The last message of a request, in a few words (for the log and the truth's notes). */
function summarize(msg) {
  if (!msg) return '';
  const c = msg.content;
  if (typeof c === 'string') return `${msg.role}:${c.slice(0, 60)}`;
  if (Array.isArray(c)) {
    return c
      .map((b) => (b.type === 'text' ? `text:${String(b.text).slice(0, 60)}` : b.type === 'tool_result' ? `tool_result(${b.is_error ? 'error' : 'ok'}):${JSON.stringify(b.content).slice(0, 60)}` : b.type))
      .join('|');
  }
  return msg.role;
}

/** Side requests: a title, a topic check or a quota probe. A short JSON-ish text serves them all. */
function sideText(parsed) {
  const sys = JSON.stringify(parsed.system ?? '');
  if (/isNewTopic/.test(sys)) return '{"isNewTopic": false, "title": null}';
  return 'Recording session';
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The Messages API's error types by status (what the SDK and the CLI read to decide whether to retry). */
function errorType(status) {
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** An HTTP error in the Messages API's shape, after the reply's delay; marked `api_error` once sent. */
async function respondError(res, reply, mark) {
  if (reply.delayMs) await sleep(reply.delayMs);
  const message = reply.message ?? (reply.status >= 500 ? 'Internal server error' : `scripted HTTP ${reply.status}`);
  res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': `req_${Math.random().toString(36).slice(2, 12)}` });
  res.end(JSON.stringify({ type: 'error', error: { type: errorType(reply.status), message } }), () => mark('api_error', { status: reply.status }));
}

async function respond(res, parsed, blocks, mark, delayMs = 0) {
  const id = `msg_${Math.random().toString(36).slice(2, 12)}`;
  const model = parsed.model ?? 'claude-sonnet-4-5';
  const hasTool = blocks.some((b) => b.tool);
  if (parsed.stream !== true) {
    const content = blocks.map((b) => (b.tool ? { type: 'tool_use', id: `toolu_${id}`, name: b.tool, input: b.input } : b.thinking ? { type: 'thinking', thinking: b.thinking, signature: 'sig' } : { type: 'text', text: b.text }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: hasTool ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 20 } }));
    return;
  }
  let closed = false;
  res.on('close', () => {
    if (!res.writableFinished) {
      closed = true;
      mark?.('client_disconnected');
    }
  });
  const send = (event, data) => {
    if (closed) return false;
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    return true;
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  if (delayMs) await sleep(delayMs);
  send('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 1 } } });
  mark?.('stream_started');
  let outTokens = 1;
  for (let index = 0; index < blocks.length; index++) {
    const b = blocks[index];
    if (b.tool) {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_${id}_${index}`, name: b.tool, input: {} } });
      const json = JSON.stringify(b.input);
      const half = Math.ceil(json.length / 2);
      for (const part of [json.slice(0, half), json.slice(half)]) {
        await sleep(DEFAULT_DELTA_MS);
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
      }
      send('content_block_stop', { index });
      outTokens += 30;
      continue;
    }
    const kind = b.thinking !== undefined ? 'thinking' : 'text';
    const full = b.thinking ?? b.text;
    send('content_block_start', { index, content_block: kind === 'thinking' ? { type: 'thinking', thinking: '' } : { type: 'text', text: '' } });
    const words = full.split(/(?<= )/);
    const pause = b.seconds !== undefined && words.length > 0 ? (b.seconds * 1000) / words.length : DEFAULT_DELTA_MS;
    for (const w of words) {
      if (pause) await sleep(pause);
      const ok = send('content_block_delta', { index, delta: kind === 'thinking' ? { type: 'thinking_delta', thinking: w } : { type: 'text_delta', text: w } });
      if (!ok) return;
      outTokens += 1;
    }
    if (kind === 'thinking') send('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } });
    send('content_block_stop', { index });
  }
  if (closed) return;
  send('message_delta', { delta: { stop_reason: hasTool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: outTokens } });
  send('message_stop', {});
  res.end();
  // The moment the backend has streamed everything: the tool_use is in the CLI's hands, or the final answer is.
  mark?.(hasTool ? 'tool_use_sent' : 'final_answer_sent');
}
