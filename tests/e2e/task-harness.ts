// End-to-end harness for supervised tasks: a real daemon (its own dirs, a config with short task timings), a
// `termsupervisor run` pane in a real PTY running the scripted fake agent, and the task API with the token.
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DaemonProcess, daemonScratch, until, type DaemonDirs } from './daemon-harness.js';
import { ROOT, Wrapped } from './harness.js';
import type { PaneView, TaskDetailView, TaskView } from '../../src/web/api-types.js';

export const FAKE_AGENT = join(ROOT, 'tests', 'helpers', 'fake-agent.py');
export const CAST_PLAYER = join(ROOT, 'tests', 'helpers', 'cast-player.py');

/** Task timings short enough for tests, long enough to see a pane settle on a loaded 2-core machine. */
const TEST_TASKS = {
  cooldown_s: 0.3,
  ready_stable_s: 0.6,
  settle_s: 0.6,
  turn_start_timeout_s: 15,
  enter_delay_s: 0.1,
  pane_wait_s: 60,
};

export interface TaskRig {
  d: DaemonDirs;
  dm: DaemonProcess;
  w: Wrapped;
  pane: string;
  files: { echo: string; state: string };
}

export function taskScratch() {
  const s = daemonScratch();

  async function daemon(d: DaemonDirs, tasks: Record<string, unknown> = {}, notify: Record<string, unknown> = {}): Promise<DaemonProcess> {
    const cfg = join(d.dir, 'config.json');
    if (!existsSync(cfg)) writeFileSync(cfg, JSON.stringify({ notify: { desktop: false, ...notify }, tmux: { enabled: false }, tasks: { ...TEST_TASKS, ...tasks } }));
    const dm = await DaemonProcess.start(d, ['--config', cfg]);
    s.cleanups.push(async () => void (await dm.stop('SIGKILL')));
    return dm;
  }

  /** A pane named `name` running `command` under `run`, joined to the daemon; resolves with its pane id. */
  async function pane(dm: DaemonProcess, d: DaemonDirs, command: string[], opts: { name?: string; agent?: string; size?: { cols: number; rows: number } } = {}): Promise<{ w: Wrapped; pane: string }> {
    const name = opts.name ?? 'agent';
    const w = new Wrapped(join(d.dir, `${name}.jsonl`), ['--name', name, '--agent', opts.agent ?? 'generic', '--', ...command], d.env, opts.size ?? { cols: 100, rows: 30 });
    s.cleanups.push(() => w.kill());
    const p = await until('the pane to join the daemon', async () => (await dm.get<PaneView[]>('/api/panes')).find((x) => x.name === name && x.alive), w.diag);
    return { w, pane: p.id };
  }

  /** The daemon plus the fake agent with `agentArgs`, its prompt on screen. */
  async function rig(agentArgs: string[], tasks: Record<string, unknown> = {}, notify: Record<string, unknown> = {}): Promise<TaskRig> {
    const d = s.dirs();
    const dm = await daemon(d, tasks, notify);
    const files = { echo: join(d.dir, 'prompts.txt'), state: join(d.dir, 'state.txt') };
    const { w, pane: id } = await pane(dm, d, ['python3', FAKE_AGENT, '--work', '0.6', '--echo-prompts', files.echo, '--state', files.state, ...agentArgs]);
    await w.waitOutput('the fake agent prompt', (o) => o.includes('> '));
    return { d, dm, w, pane: id, files };
  }

  return { ...s, daemon, pane, rig };
}

export async function api<T>(dm: DaemonProcess, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const r = await fetch(dm.url + path, {
    method,
    headers: { authorization: `Bearer ${dm.token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.json()) as T };
}

export async function startTask(dm: DaemonProcess, body: Record<string, unknown>): Promise<TaskView> {
  const r = await api<TaskView>(dm, 'POST', '/api/tasks', body);
  if (r.status !== 201) throw new Error(`POST /api/tasks: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function taskDetail(dm: DaemonProcess, id: string): Promise<TaskDetailView> {
  return (await api<TaskDetailView>(dm, 'GET', `/api/tasks/${id}`)).body;
}

/** Waits until the task is in one of `statuses`; the diagnosis shows its timeline and the pane's screen. */
export async function taskReaches(dm: DaemonProcess, id: string, statuses: string[], w?: Wrapped, timeoutMs = 60_000): Promise<TaskDetailView> {
  let last: TaskDetailView | null = null;
  return until(
    `task ${id} to reach ${statuses.join('|')}`,
    async () => {
      last = await taskDetail(dm, id);
      return statuses.includes(last.task.status) ? last : null;
    },
    () => `task: ${JSON.stringify(last?.task, null, 1)}\nevents:\n${last?.events.map((e) => `  ${e.kind}: ${e.detail}`).join('\n')}\n${w?.diag() ?? ''}\n${dm.diag()}`,
    timeoutMs,
  );
}

export function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0) : [];
}
