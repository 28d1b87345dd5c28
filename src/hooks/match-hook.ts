// Which live pane a hook belongs to. Claude Code and Gemini CLI run their hooks inside the pane's own process tree,
// so the pane reference the hook process read from its environment names the pane (resolve-pane.ts). Codex does
// not: its turns run in a background `codex app-server` that outlives the TUI that started it and serves later
// panes, and notify inherits that server's environment, the one of whichever pane started it first. A Codex hook is
// therefore matched by what it carries (its thread id, its cwd, the prompt it answered) together with the panes' own
// signals (which Codex pane has a turn running, or just ended one), never by the environment. Pure.
import type { ProgramId } from '../config/config.js';
import type { MachineState } from '../analysis/types.js';
import type { HookBody } from './hook-body.js';
import { resolveHookPane, type HookCandidate } from './resolve-pane.js';

export interface PaneFacts extends HookCandidate {
  /** The program the pane's analyzer reads it as. */
  program: ProgramId;
  state: MachineState;
  /** Epoch ms at which the pane entered its state. */
  since: number;
  /** The prompt of the pane's open turn (first line), when its keys were seen. */
  prompt?: string | null;
}

export interface HookMatch {
  pane: string | null;
  /** How it was matched (or why not), for the log: env, thread, running, recent, ambiguous, none. */
  how: string;
}

const BUSY: ReadonlySet<MachineState> = new Set(['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL']);
/** Prompts are compared on this many leading characters: both sides may be cut (hook messages, turn records). */
const PROMPT_PREFIX = 120;

/**
 * @param threads Codex thread id -> pane id, learned from earlier matches (the caller keeps it).
 * @param cwdOf   the pane's working directory, when it can be known (asked only to tell candidates apart).
 * @param recentMs a pane that ended a turn this recently (its screen said so before the hook came) still counts.
 */
export function matchHookPane(
  body: HookBody,
  panes: readonly PaneFacts[],
  threads: ReadonlyMap<string, string>,
  now: number,
  recentMs: number,
  cwdOf: (id: string) => string | undefined = () => undefined,
): HookMatch {
  if (body.agent !== 'codex') {
    const id = resolveHookPane(body.pane, panes);
    return { pane: id, how: id ? 'env' : 'none' };
  }
  const bound = body.session ? threads.get(body.session) : undefined;
  if (bound !== undefined && panes.some((p) => p.id === bound)) return { pane: bound, how: 'thread' };

  const codex = panes.filter((p) => p.program === 'codex');
  const running = codex.filter((p) => BUSY.has(p.state));
  const recent = codex.filter((p) => (p.state === 'DONE' || p.state === 'FAILED') && now - p.since <= recentMs);
  for (const [how, group] of [['running', running], ['recent', recent]] as const) {
    if (group.length === 0) continue;
    const pick = narrow(body, group, cwdOf);
    return pick ? { pane: pick, how } : { pane: null, how: 'ambiguous' };
  }
  return { pane: null, how: 'none' };
}

/** One pane of the group: alone, or the only one in the hook's cwd, or the only one whose prompt it answers. */
function narrow(body: HookBody, group: readonly PaneFacts[], cwdOf: (id: string) => string | undefined): string | null {
  if (group.length === 1) return group[0]!.id;
  let left = group;
  if (body.cwd) {
    // A pane whose cwd is known and differs is out; one whose cwd is unknown stays in.
    const same = left.filter((p) => {
      const c = cwdOf(p.id);
      return c === undefined || c === body.cwd;
    });
    if (same.length > 0) left = same;
    if (left.length === 1) return left[0]!.id;
  }
  if (body.input) {
    const want = body.input.slice(0, PROMPT_PREFIX);
    const asked = left.filter((p) => p.prompt && p.prompt.slice(0, PROMPT_PREFIX) === want);
    if (asked.length === 1) return asked[0]!.id;
  }
  return null;
}
