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

export async function daemonFetch(t: DaemonTarget, path: string, init: { method?: string } = {}): Promise<Response> {
  try {
    return await fetch(t.url + path, { ...init, headers: t.token ? { authorization: `Bearer ${t.token}` } : {} });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    throw new DaemonUnavailable(`cannot reach the daemon at ${t.url} (${cause}; found through ${t.from}): is it running? \`termsupervisor doctor\` says more`);
  }
}
