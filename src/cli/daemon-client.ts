// For commands that ask the running daemon something (dashboard, status, wait, doctor): found the way `run` finds
// it (--daemon URL, $TERMSUPERVISOR_DAEMON, the runtime file), asked with the token, and a clear message when
// nobody answers.
import { findDaemon, type DaemonTarget } from './daemon-link.js';
import { runtimeFilePath } from '../daemon/runtime-file.js';
import { UsageError } from './args.js';

/** No daemon to ask, or it did not answer: the command says so and exits 1 (main.ts). */
export class DaemonUnavailable extends Error {}

export const DAEMON_OPTION_HELP = `  --daemon  the daemon's address (default: $TERMSUPERVISOR_DAEMON, else the running daemon's runtime file)`;

/** The daemon to ask; throws DaemonUnavailable when none is running. */
export function daemonTarget(flag: string | true | undefined): DaemonTarget {
  if (flag === true) throw new UsageError('--daemon needs a URL');
  const t = findDaemon(flag);
  if (!t) throw new DaemonUnavailable(`no running daemon found (no live runtime file at ${runtimeFilePath()}): start one with \`termsupervisor daemon\` or \`make run\``);
  return { ...t, url: t.url.replace(/\/+$/, '') };
}

/** One request to the daemon with the token (when there is one); the JSON answer, or a DaemonUnavailable. */
export async function daemonJson<T>(t: DaemonTarget, path: string, init: { method?: string } = {}): Promise<T> {
  const res = await daemonFetch(t, path, init);
  if (!res.ok) throw new DaemonUnavailable(`the daemon at ${t.url} refused ${path}: HTTP ${res.status}${res.status === 401 || res.status === 403 ? ' (a daemon of another user or config dir?)' : ''}`);
  return (await res.json()) as T;
}

export async function daemonFetch(t: DaemonTarget, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
  const json = init.body !== undefined;
  try {
    return await fetch(t.url + path, {
      method: init.method ?? 'GET',
      headers: { ...init.headers, ...(t.token && { authorization: `Bearer ${t.token}` }), ...(json && { 'content-type': 'application/json' }) },
      ...(json && { body: JSON.stringify(init.body) }),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    throw new DaemonUnavailable(`cannot reach the daemon at ${t.url} (${cause}; found through ${t.from}): is it running? \`termsupervisor doctor\` says more`);
  }
}

/** A request the daemon may refuse for a reason the person must fix (a bad task, a task in the wrong state): its
 * `error` and `problems` become a UsageError (exit 2); no daemon at all stays DaemonUnavailable (exit 1). */
export async function daemonAsk<T>(t: DaemonTarget, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await daemonFetch(t, path, { method, ...(body !== undefined && { body }) });
  const text = await res.text();
  type Answer = { error?: string; problems?: string[] } | null;
  let parsed: Answer = null;
  try {
    parsed = text ? (JSON.parse(text) as Answer) : null;
  } catch {
    // not JSON: the text itself is reported
  }
  if (res.ok) return parsed as T;
  if (res.status === 401 || res.status === 403) throw new DaemonUnavailable(`the daemon at ${t.url} refused ${path}: HTTP ${res.status} (a daemon of another user or config dir?)`);
  const answer = parsed as Answer;
  const why = answer?.problems?.length ? answer.problems.join('\n  ') : (answer?.error ?? text.slice(0, 200));
  throw new UsageError(`the daemon refused: HTTP ${res.status}: ${why}`);
}
