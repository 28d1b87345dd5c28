// `logs` reads several files (the run event log, the daemon's log, the service output) and prints them as one
// stream: each batch of new lines in time order across the files, and each transition once. A `run` pane that
// joined a daemon has its transitions in two logs — the wrapper's detector writes them to the event log, the
// daemon's to daemon.log — so the same IDLE → RUNNING would otherwise be printed twice.

/** Two logs' records of one transition (same pane, same from → to) are this close in time: both sides read the
 * same events, the daemon stamping them on arrival, so they decide within milliseconds of each other; a real
 * repeat of the same from → to needs a whole turn (and another transition) in between. */
export const SAME_TRANSITION_MS = 3000;
/** Transitions remembered for spotting the other log's copy (older ones are past the window anyway). */
const MAX_RECENT = 512;

type Rec = Record<string, unknown>;

interface Pending {
  source: number;
  seq: number;
  at: number;
  raw: string;
  rec: Rec | null;
}

interface Seen {
  source: number;
  key: string;
  at: number;
}

export class LogMerge {
  private pending: Pending[] = [];
  private seq = 0;
  /** The time of each source's latest line that had one: a line without a time stays after it. */
  private readonly lastAt = new Map<number, number>();
  private readonly recent: Seen[] = [];

  add(source: number, raw: string): void {
    const rec = parse(raw);
    const t = rec ? timeOf(rec) : null;
    const at = t ?? this.lastAt.get(source) ?? 0;
    if (t !== null) this.lastAt.set(source, t);
    this.pending.push({ source, seq: this.seq++, at, raw, rec });
  }

  /** The lines added since the last take, in time order (ties in the order they were read), without the second
   * copy of a transition another source already gave. */
  take(): string[] {
    const batch = this.pending.sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.pending = [];
    const out: string[] = [];
    for (const p of batch) {
      const key = p.rec ? transitionKey(p.rec) : null;
      if (key !== null) {
        if (this.recent.some((s) => s.key === key && s.source !== p.source && Math.abs(s.at - p.at) <= SAME_TRANSITION_MS)) continue;
        this.recent.push({ source: p.source, key, at: p.at });
        if (this.recent.length > MAX_RECENT) this.recent.shift();
      }
      out.push(p.raw);
    }
    return out;
  }
}

function parse(raw: string): Rec | null {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : null;
  } catch {
    return null;
  }
}

/** The run log's `ts`, pino's `time` (ISO, or epoch ms). */
function timeOf(r: Rec): number | null {
  const v = r['ts'] ?? r['time'];
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const ms = new Date(v).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** pane, from, to and the stalled flag of a transition record of either log; null for anything else. */
function transitionKey(r: Rec): string | null {
  if (r['kind'] !== 'transition' || typeof r['pane'] !== 'string') return null;
  const to = 'ts' in r ? r['state'] : r['to'];
  return JSON.stringify([r['pane'], r['from'], to, r['stalled'] === true]);
}
