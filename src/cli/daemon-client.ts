// How a command talks to the running daemon: its address (--daemon, $TERMSUPERVISOR_DAEMON, the runtime file),
// the token from the XDG config dir, and JSON over HTTP with failures turned into clear messages.
import { readRuntimeFile } from '../daemon/runtime-file.js';
import { readToken } from '../daemon/token.js';
import { UsageError } from './args.js';

export class DaemonRequestError extends UsageError {
  constructor(message: string, readonly status: number | null, readonly body: unknown) {
    super(message);
  }
}

export function daemonUrl(flag: string | true | undefined): string {
  if (flag === true) throw new UsageError('--daemon needs a URL');
  const url = (flag ?? process.env['TERMSUPERVISOR_DAEMON'] ?? readRuntimeFile()?.url)?.replace(/\/+$/, '');
  if (!url) throw new UsageError('no running daemon found: start one with `make run` or `termsupervisor daemon`');
  return url;
}

export async function daemonRequest<T>(url: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = readToken();
  if (!token) throw new UsageError('no token found in the XDG config dir: start the daemon once as this user');
  let res: Response;
  try {
    res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  } catch (e) {
    throw new DaemonRequestError(`cannot reach the daemon at ${url}: ${(e as Error).message}`, null, null);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported as text below
  }
  if (!res.ok) {
    const err = parsed as { error?: string; problems?: string[] } | null;
    const what = err?.problems?.length ? err.problems.join('\n  ') : (err?.error ?? String(text).slice(0, 200));
    const hint = res.status === 401 || res.status === 403 ? ' (a daemon of another user or config dir?)' : '';
    throw new DaemonRequestError(`the daemon refused: HTTP ${res.status}${hint}: ${what}`, res.status, parsed);
  }
  return parsed as T;
}
