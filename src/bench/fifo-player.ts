// Plays recordings into tmux panes in real time: each pane reads a fifo (`cat FIFO`), and every recorded output
// event is written to its pane's fifo at its own time, all panes interleaved. A fifo that is full (the pane's
// reader is behind) keeps the rest queued for that pane alone. The daemon's peak RSS is sampled meanwhile.
import { writeSync } from 'node:fs';
import type { Cast } from '../attach/asciicast.js';
import { memoryKb } from './daemon-proc.js';

/** How often the daemon's RSS is sampled while the recordings play. */
const RSS_SAMPLE_MS = 500;

export interface Played {
  /** Seconds of recording played (the last event's time). */
  lastS: number;
  /** The daemon's peak resident set while playing. */
  peakKb: number;
}

/** `plays[i]` into the non-blocking fifo `fds[i]`; resolves once every byte is written. */
export function playIntoFifos(plays: Array<{ cast: Cast }>, fds: number[], daemonPid: number): Promise<Played> {
  const events = plays.flatMap((p, i) => p.cast.events.map((e) => ({ i, t: e.t, data: Buffer.from(e.data, 'utf8') }))).sort((a, b) => a.t - b.t);
  const lastS = events[events.length - 1]?.t ?? 0;
  const started = Date.now();
  let peakKb = 0;
  let sampledAt = 0;
  const backlog: Buffer[][] = plays.map(() => []);
  let k = 0;
  const flush = (i: number): boolean => {
    const q = backlog[i]!;
    while (q.length) {
      let n = 0;
      try {
        n = writeSync(fds[i]!, q[0]!);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      }
      if (n < q[0]!.length) {
        q[0] = q[0]!.subarray(n);
        return false;
      }
      q.shift();
    }
    return true;
  };
  return new Promise<Played>((resolve) => {
    const step = () => {
      const now = (Date.now() - started) / 1000;
      for (; k < events.length && events[k]!.t <= now; k++) backlog[events[k]!.i]!.push(events[k]!.data);
      let pending = false;
      for (let i = 0; i < plays.length; i++) if (!flush(i)) pending = true;
      if (Date.now() - sampledAt >= RSS_SAMPLE_MS) {
        sampledAt = Date.now();
        peakKb = Math.max(peakKb, memoryKb(daemonPid).rssKb);
      }
      if (k >= events.length && !pending) return resolve({ lastS, peakKb });
      setTimeout(step, pending ? 5 : Math.max(1, Math.min(250, (events[k]!.t - now) * 1000)));
    };
    step();
  });
}
