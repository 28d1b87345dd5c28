// The one line `run` says on stderr before its program starts: whether the pane is watched by a daemon (which) or
// runs unwatched, and how to start one. Before the program, never after: a full-screen program owns the terminal
// from its first byte, and a line printed into it would garble its screen. `--quiet` silences it.
import type { DaemonTarget } from './daemon-link.js';
import { printable } from './printable.js';

/** The daemon is asked once before the program starts; a local one answers in milliseconds. Longer, the pane
 * would start late for nothing: the link keeps trying by itself and joins when the daemon answers. */
export const PROBE_TIMEOUT_MS = 1500;

export type Probe = 'joined' | 'refused' | 'unreachable';

const HOW_TO_START = 'start one with `termsupervisor daemon` (`make run` in a checkout)';

/** Asks the daemon a question that needs the token: answered, refused (another user's token), or nobody there. */
export async function probeDaemon(t: DaemonTarget, timeoutMs = PROBE_TIMEOUT_MS): Promise<Probe> {
  try {
    const res = await fetch(t.url.replace(/\/+$/, '') + '/api/stats', {
      headers: t.token ? { authorization: `Bearer ${t.token}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    return res.ok ? 'joined' : 'refused';
  } catch {
    return 'unreachable';
  }
}

/** The live panes the daemon already shows under `name` (their ids): a second one of that name makes `wait NAME`,
 * `focus NAME` and the board ambiguous, so `run` says so before the program starts. [] when none or not asked. */
export async function namesakes(t: DaemonTarget, name: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string[]> {
  try {
    const res = await fetch(t.url.replace(/\/+$/, '') + '/api/panes', {
      headers: t.token ? { authorization: `Bearer ${t.token}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return void (await res.body?.cancel()), [];
    const panes = (await res.json()) as Array<{ id: string; name: string; alive: boolean }>;
    return panes.filter((p) => p.alive && p.name === name).map((p) => p.id);
  } catch {
    return [];
  }
}

/** The line saying the name is taken (no newline). */
export function namesakeNotice(name: string, ids: string[]): string {
  return `termsupervisor: another live pane is already named ${JSON.stringify(printable(name))} (${ids.map(printable).join(', ')}): commands that take a name will ask for an id; pick another with --name`;
}

const FROM: Record<DaemonTarget['from'], string> = { flag: '--daemon', env: '$TERMSUPERVISOR_DAEMON', 'runtime-file': 'its runtime file' };

/** The line for stderr (no newline). `log`: where the pane's transitions go either way. */
export function runNotice(target: DaemonTarget | null, probe: Probe | null, log: string): string {
  const p = (s: string) => printable(s);
  if (!target) return `termsupervisor: no daemon running: this pane runs unwatched (transitions go to ${p(log)}); ${HOW_TO_START} to see it on a dashboard`;
  const url = p(target.url);
  if (probe === 'joined') return `termsupervisor: watched by the daemon at ${url} (termsupervisor status; dashboard: termsupervisor dashboard)`;
  if (probe === 'refused') return `termsupervisor: the daemon at ${url} refused this wrapper's token (a daemon of another user or config dir?): this pane runs unwatched`;
  return `termsupervisor: no daemon answers at ${url} (found through ${FROM[target.from]}): this pane runs unwatched until one does; ${HOW_TO_START}`;
}
