// Builds an asciicast in memory, event by event, on a virtual clock that only moves forward. Counts output bytes
// as UTF-8 (what a pty would have delivered), the unit of every MB/s figure.
import type { Cast, CastEvent } from '../attach/asciicast.js';

export class CastBuilder {
  readonly events: CastEvent[] = [];
  /** UTF-8 bytes of all output events. */
  outputBytes = 0;
  private t = 0;

  constructor(readonly cols: number, readonly rows: number) {}

  /** Seconds on the recording's clock. */
  get now(): number {
    return this.t;
  }

  /** Let `ms` of virtual time pass without an event. */
  wait(ms: number): void {
    this.t += ms / 1000;
  }

  output(data: string, afterMs: number): void {
    if (!data) return;
    this.wait(afterMs);
    this.events.push({ t: round6(this.t), code: 'o', data });
    this.outputBytes += Buffer.byteLength(data, 'utf8');
  }

  input(data: string, afterMs: number): void {
    this.wait(afterMs);
    this.events.push({ t: round6(this.t), code: 'i', data });
  }

  toCast(): Cast {
    return { header: { version: 2, width: this.cols, height: this.rows, duration: round6(this.t) }, events: this.events, skipped: 0 };
  }
}

/** Recorders write microsecond stamps. */
function round6(t: number): number {
  return Math.round(t * 1e6) / 1e6;
}
