// A bench workload: recordings replayed one after another (each in a fresh pane), with the byte and event counts
// every throughput figure is divided by.
import type { Cast } from '../attach/asciicast.js';

export interface Recording {
  name: string;
  cast: Cast;
}

export interface Workload {
  name: string;
  recordings: Recording[];
  /** UTF-8 bytes of all output events. */
  bytes: number;
  /** Output events (pty reads). */
  outputEvents: number;
  /** Seconds of recorded (virtual) time, summed over recordings. */
  virtualSeconds: number;
}

export function workload(name: string, recordings: Recording[]): Workload {
  let bytes = 0;
  let outputEvents = 0;
  let virtualSeconds = 0;
  for (const { cast } of recordings) {
    for (const e of cast.events) {
      if (e.code !== 'o') continue;
      bytes += Buffer.byteLength(e.data, 'utf8');
      outputEvents++;
    }
    virtualSeconds += cast.events[cast.events.length - 1]?.t ?? 0;
  }
  return { name, recordings, bytes, outputEvents, virtualSeconds };
}

/** The first `bytes` of output of a workload (whole events, recordings in order): a cheaper warm-up pass. */
export function head(w: Workload, bytes: number): Workload {
  const recordings: Recording[] = [];
  let taken = 0;
  for (const r of w.recordings) {
    if (taken >= bytes) break;
    const events = [];
    for (const e of r.cast.events) {
      if (taken >= bytes) break;
      events.push(e);
      if (e.code === 'o') taken += Buffer.byteLength(e.data, 'utf8');
    }
    recordings.push({ name: r.name, cast: { ...r.cast, events } });
  }
  return workload(`${w.name} (head)`, recordings);
}
