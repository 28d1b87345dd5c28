// Whether the history is being kept: "ok", or "degraded" with the cause (a full disk, a lock held too long, a
// damaged page) since when, and how much waits in memory. Set by the store on a failing write, read or retention
// prune; cleared by itself when the same kind of operation succeeds again, and every change is reported once.
import { causeOf, isDamaged } from './store-error.js';

/** Which part of the store failed: writes (queued history), reads (the API's history), the retention prune, a
 * supervised task's checkpoint, an urgent notification kept until delivered. */
export type StoreOp = 'write' | 'read' | 'prune' | 'task' | 'notify';

export interface HistoryHealth {
  status: 'ok' | 'degraded';
  /** What failed, in words with the SQLite code ("SQLITE_FULL: database or disk is full"). */
  cause: string | null;
  op: StoreOp | null;
  /** Epoch ms the current degraded stretch began. */
  since: number | null;
  /** The file itself is damaged: it does not mend by itself (the way out is to move it aside). */
  damaged: boolean;
  /** Writes waiting in memory for the database to take them. */
  queued: number;
  /** Writes lost: the oldest beyond the memory cap while degraded, and any made after close. */
  dropped: number;
  /** Degraded stretches that ended by themselves since the daemon started. */
  recoveries: number;
  /** Failed operations since the daemon started. */
  failures: number;
}

/** A change of health: degraded (with its cause) or recovered (with how long it lasted and what it saved). */
export interface HealthChange {
  health: HistoryHealth;
  /** Set on recovery: how long history was degraded (ms). */
  degradedMs?: number;
}

export class StoreHealth {
  private fault: { cause: string; op: StoreOp; since: number; damaged: boolean } | null = null;
  private recoveries = 0;
  private failures = 0;

  constructor(
    private readonly now: () => number,
    private readonly onChange: (c: HealthChange) => void,
    private readonly counts: () => { queued: number; dropped: number },
  ) {}

  get degraded(): boolean {
    return this.fault !== null;
  }

  /** Operations of this kind fail now. */
  failing(op: StoreOp): boolean {
    return this.fault?.op === op;
  }

  failed(op: StoreOp, err: unknown): void {
    this.failures++;
    const cause = causeOf(err);
    const prev = this.fault;
    if (prev && prev.cause === cause && prev.op === op) return;
    this.fault = { cause, op, since: prev?.since ?? this.now(), damaged: isDamaged(err) };
    this.report({ health: this.snapshot() });
  }

  /** An operation of this kind went through: a fault it caused is over. */
  succeeded(op: StoreOp): void {
    const f = this.fault;
    if (!f || f.op !== op) return;
    this.fault = null;
    this.recoveries++;
    this.report({ health: this.snapshot(), degradedMs: this.now() - f.since });
  }

  snapshot(): HistoryHealth {
    const f = this.fault;
    return {
      status: f ? 'degraded' : 'ok',
      cause: f?.cause ?? null,
      op: f?.op ?? null,
      since: f?.since ?? null,
      damaged: f?.damaged ?? false,
      ...this.counts(),
      recoveries: this.recoveries,
      failures: this.failures,
    };
  }

  private report(c: HealthChange): void {
    try {
      this.onChange(c);
    } catch {
      // a throwing listener must not turn a reported failure into a crash on the hot path
    }
  }
}
