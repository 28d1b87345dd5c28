// `termsupervisor wait PANE --until STATE`: blocks until a pane reaches a state, for scripts ("start the agent,
// wait until it is done, then run the tests"). Follows the daemon's live feed (/ws): transitions arrive there at
// once, so a short-lived state (DONE acknowledged a moment later) is not missed between two polls.
import { WebSocket } from 'ws';
import type { MachineState, PaneView, WsMessage } from '../web/api-types.js';
import { oneOf, parseArgs, UsageError } from './args.js';
import { DAEMON_OPTION_HELP, daemonTarget } from './daemon-client.js';
import { printableLines } from './printable.js';

export const WAIT_TARGETS = ['done', 'waiting', 'idle', 'failed', 'running'] as const;
type Target = (typeof WAIT_TARGETS)[number];

/** The machine states each --until word accepts (running: LONG_RUNNING is still running). */
const REACHED: Record<Target, readonly MachineState[]> = {
  done: ['DONE'],
  waiting: ['WAITING_APPROVAL'],
  idle: ['IDLE'],
  failed: ['FAILED'],
  running: ['RUNNING', 'LONG_RUNNING'],
};

export const WAIT_EXIT = { reached: 0, timeout: 1, usage: 2, failed: 3, gone: 4 } as const;

export const WAIT_USAGE = `usage: termsupervisor wait PANE --until done|waiting|idle|failed|running [--timeout SECONDS]
                           [--appear-timeout SECONDS] [--daemon URL]

Waits until the pane reaches the state (at once if it is in it already). PANE is a pane id from
\`termsupervisor status\` (GET /api/panes), or a pane's name when only one live pane has it.
  --until    done (DONE), waiting (WAITING_APPROVAL), idle (IDLE), failed (FAILED), running (RUNNING, LONG_RUNNING)
  --timeout  give up after this many seconds (default: wait for ever)
  --appear-timeout  PANE may not be there yet (a \`run --name PANE\` about to start): wait up to this many seconds
             for a live pane of that id or name to appear (without it, a pane that is not there is exit 2 at once)
${DAEMON_OPTION_HELP}
Exit status:
  0  the pane reached the state
  1  timed out (the pane's state is printed), or no daemon answers
  2  usage, or no such pane (the known panes are listed), or none appeared within --appear-timeout
  3  --until done, and the pane FAILED instead (its turn ended in failure)
  4  the pane closed, or the daemon went away, before the state was reached
examples:
  termsupervisor wait api --until done --timeout 1800 && make test
  termsupervisor run --name build -- make & termsupervisor wait build --until done --appear-timeout 10
  termsupervisor wait tmux:default:%3 --until waiting; notify-send "review wants you"`;

export async function waitCommand(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['until', 'timeout', 'appear-timeout', 'daemon'], flags: ['help'] });
  if (a.options.has('help')) return void process.stdout.write(WAIT_USAGE + '\n'), 0;
  const [pane, ...extra] = a.positional;
  if (!pane || extra.length) throw new UsageError(`wait needs exactly one pane\n\n${WAIT_USAGE}`);
  if (!a.options.has('until')) throw new UsageError(`wait needs --until ${WAIT_TARGETS.join('|')}\n\n${WAIT_USAGE}`);
  const until = oneOf(a.options.get('until'), WAIT_TARGETS, 'until', 'done');
  const timeoutS = seconds(a.options.get('timeout'), 'timeout');
  const appearS = seconds(a.options.get('appear-timeout'), 'appear-timeout');
  const target = daemonTarget(a.options.get('daemon'));
  const say = (s: string) => process.stderr.write(`termsupervisor wait: ${printableLines(s)}\n`);

  const ws = new WebSocket(target.url.replace(/^http/, 'ws') + '/ws', { headers: target.token ? { authorization: `Bearer ${target.token}` } : {} });
  return await new Promise<number>((resolve) => {
    let id: string | null = null;
    let state: MachineState | null = null;
    let appearTimer: NodeJS.Timeout | undefined;
    const finish = (code: number, msg?: string) => {
      clearTimeout(timer);
      clearTimeout(appearTimer);
      if (msg) say(msg);
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
      resolve(code);
    };
    /** Decides on a state the pane is in (now, or one it passed through). */
    const judge = (s: MachineState): boolean => {
      state = s;
      if (REACHED[until].includes(s)) return finish(WAIT_EXIT.reached), true;
      // A turn ends DONE or FAILED: a script waiting for done must not wait for ever on a failed one.
      if (s === 'FAILED' && until === 'done') return finish(WAIT_EXIT.failed, `pane ${id} FAILED (waited for done)`), true;
      return false;
    };
    const timer = timeoutS === null ? undefined : setTimeout(() => finish(WAIT_EXIT.timeout, `timed out after ${timeoutS}s: pane ${id ?? pane} is ${state ?? 'unknown'}, not ${until}`), timeoutS * 1000);
    ws.on('error', (e) => finish(WAIT_EXIT.timeout, `cannot reach the daemon at ${target.url} (${e.message}): is it running? \`termsupervisor doctor\` says more`));
    ws.on('close', (code, reason) => finish(id === null ? WAIT_EXIT.timeout : WAIT_EXIT.gone, `the daemon at ${target.url} closed the connection${reason.length ? `: ${code} ${reason.toString()}` : ''}`));
    /** Follows this pane from now on. */
    const adopt = (found: PaneView) => {
      clearTimeout(appearTimer);
      id = found.id;
      if (!found.alive) {
        // Say how it ended: "is closed" alone leaves the script's reader to look it up. A turn that FAILED is exit 3
        // for --until done whether or not its pane has closed since.
        const code = found.state === 'FAILED' && until === 'done' ? WAIT_EXIT.failed : WAIT_EXIT.gone;
        return void finish(code, closedText(found));
      }
      judge(found.state);
    };
    let appearing = false;
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as WsMessage;
      if (m.type === 'hello') {
        // Not there yet, and told it may come: wait for a live pane of that id or name (a closed one of that name
        // is an earlier run of it, not the one to wait for).
        if (appearS !== null && !m.panes.some((p) => p.alive && (p.id === pane || p.name === pane))) {
          appearing = true;
          appearTimer = setTimeout(() => finish(WAIT_EXIT.usage, `no pane ${JSON.stringify(pane)} appeared within ${appearS}s`), appearS * 1000);
          return;
        }
        const found = resolvePane(pane, m.panes);
        if (typeof found === 'string') return finish(WAIT_EXIT.usage, found);
        return adopt(found);
      }
      if (appearing && id === null) {
        if (m.type === 'pane' && m.pane.alive && (m.pane.id === pane || m.pane.name === pane)) adopt(m.pane);
        return;
      }
      if (id === null) return;
      if (m.type === 'transition' && m.transition.paneId === id) judge(m.transition.to);
      else if (m.type === 'pane' && m.pane.id === id && !m.pane.alive) finish(WAIT_EXIT.gone, `pane ${id} closed while ${state}`);
      else if (m.type === 'pane_removed' && m.id === id) finish(WAIT_EXIT.gone, `pane ${id} went away`);
    });
  });
}

/** The pane PANE names (an id, else the one live pane of that name), or a message saying why none. */
export function resolvePane(name: string, panes: PaneView[]): PaneView | string {
  const byId = panes.find((p) => p.id === name);
  if (byId) return byId;
  const named = panes.filter((p) => p.name === name);
  const live = named.filter((p) => p.alive);
  if (live.length === 1) return live[0]!;
  if (live.length === 0 && named.length === 1) return named[0]!;
  const list = (ps: PaneView[]) => ps.map((p) => `  ${p.id}  ${p.name}  ${p.state}${p.alive ? '' : ' (closed)'}`).join('\n');
  if (named.length > 1) return `${JSON.stringify(name)} names ${named.length} panes: use an id\n${list(named)}`;
  return panes.length ? `no pane ${JSON.stringify(name)}; known panes (id, name, state):\n${list(panes)}` : `no pane ${JSON.stringify(name)}: the daemon has no panes`;
}

/** A closed pane's last word: its last state, when, and what decided it. */
export function closedText(p: PaneView, now = Date.now()): string {
  const ago = Math.max(0, Math.round((now - p.since) / 1000));
  const why = [p.rule, p.line].filter(Boolean).join(': ');
  return `pane ${p.id} is closed: it ended ${p.state} ${ago}s ago${why ? ` (${why})` : ''}`;
}

function seconds(v: string | true | undefined, option: string): number | null {
  if (v === undefined) return null;
  if (v === true || !/^\d+(\.\d+)?$/.test(v)) throw new UsageError(`--${option} must be a number of seconds, got ${JSON.stringify(v)}`);
  return Number(v);
}
