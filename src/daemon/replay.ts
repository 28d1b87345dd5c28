// Replays a recording through the whole pipeline in virtual time, as fast as the terminal parses.
import type { AgentChoice, Config } from '../config/config.js';
import { ReplaySource } from '../attach/replay-source.js';
import { VirtualClock } from '../state/clock.js';
import { PaneMonitor, type PaneMonitorOptions } from './pane-monitor.js';
import type { Transition } from '../state/pane-machine.js';

/** After the last event, time runs on this long so quiet windows and stability timers can finish. */
const REPLAY_TAIL_S = 5;

export interface ReplayResult {
  transitions: Transition[];
  monitor: PaneMonitor;
  endTime: number;
  skippedLines: number;
}

/** A pane on its own virtual clock: each event moves time to its stamp before it is applied. */
export function virtualPane(opts: Omit<PaneMonitorOptions, 'clock' | 'beforeEvent'>): { clock: VirtualClock; monitor: PaneMonitor } {
  const clock = new VirtualClock();
  const monitor = new PaneMonitor({ ...opts, clock, beforeEvent: (t) => clock.advanceTo(t * 1000) });
  return { clock, monitor };
}

export async function replayCast(source: ReplaySource, cfg: Config, agent: AgentChoice, onTransition?: (tr: Transition) => void): Promise<ReplayResult> {
  const { clock, monitor } = virtualPane({ cfg, cols: source.info.cols, rows: source.info.rows, agent });
  const transitions: Transition[] = [];
  monitor.onTransition((tr) => {
    transitions.push(tr);
    onTransition?.(tr);
  });
  source.onEvent((ev) => monitor.handle(ev));
  // Hook calls recorded beside the bytes reach the pane as the daemon delivers a POST /api/hooks.
  source.onHook((t, h) => monitor.hook(t, { kind: 'hook', agent: h.agent, event: h.event, detail: h.detail, session: h.session, input: h.input }, h.message));
  await source.start(() => (monitor.backlogged ? monitor.drain() : undefined));
  await monitor.flush();
  const end = source.endTime;
  clock.advanceTo(Math.max(end, lastEventTime(source) + REPLAY_TAIL_S) * 1000);
  monitor.stop();
  return { transitions, monitor, endTime: end, skippedLines: source.cast.skipped };
}

function lastEventTime(source: ReplaySource): number {
  return source.cast.events[source.cast.events.length - 1]?.t ?? 0;
}
