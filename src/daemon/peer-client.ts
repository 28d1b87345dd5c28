// Requests to a peer daemon's REST API with its token: what its feed does not carry (a pane's screen, turns and
// actions, transitions missed while the link was down) and what the person does here to its panes (acks, answers).
import type { PeerSpec } from '../config/peers.js';

/** A peer that has not answered a request in this long is not waited for any more (ms): the client gets a 502. */
export const PEER_REQUEST_TIMEOUT_MS = 5000;
/** The peer's answer is a pane, a list of history rows or a screen: far below this. */
const MAX_ANSWER_BYTES = 16 << 20;

export interface PeerAnswer {
  status: number;
  body: unknown;
}

export interface PeerRequest {
  method: 'GET' | 'POST';
  /** Path and query on the peer, e.g. `/api/panes/run-1-ab/turns?limit=20`. */
  path: string;
  body?: unknown;
  /** The client's own name (x-termsupervisor-client), so the peer's history says who acted. */
  client?: string;
}

/** Sends one request; a peer that cannot be reached is a thrown Error whose message is safe to show. */
export async function peerRequest(spec: PeerSpec, token: string, r: PeerRequest): Promise<PeerAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (r.client) headers['x-termsupervisor-client'] = r.client;
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(spec.url + r.path, {
      method: r.method,
      headers,
      ...(r.body !== undefined && { body: JSON.stringify(r.body) }),
      signal: AbortSignal.timeout(PEER_REQUEST_TIMEOUT_MS),
    });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError') throw new Error(`peer "${spec.name}" did not answer within ${PEER_REQUEST_TIMEOUT_MS / 1000} s`);
    throw new Error(`peer "${spec.name}" cannot be reached: ${err.cause?.code ?? err.message}`);
  }
  const text = await res.text();
  if (text.length > MAX_ANSWER_BYTES) throw new Error(`peer "${spec.name}" answered more than ${MAX_ANSWER_BYTES} bytes`);
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a proxy's error page): passed on as text
  }
  return { status: res.status, body };
}
