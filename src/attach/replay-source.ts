// Replay: an asciicast v2 recording as a pane source, fed in virtual time. Output events become output at their
// timestamps, input events become typed keys, resize events resize. Nothing waits on the wall clock.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseCast, type Cast } from './asciicast.js';
import type { PaneEvent, PaneEventListener, PaneSource, PaneSourceInfo } from './source.js';

/** A header may declare rest after the last event; more than this is not rest but a wrong duration. */
const MAX_TRAILING_REST_S = 600;

export class ReplaySource implements PaneSource {
  readonly info: PaneSourceInfo;
  private readonly listeners: PaneEventListener[] = [];

  constructor(readonly cast: Cast, name: string) {
    this.info = { id: `replay:${name}`, name, kind: 'replay', cols: cast.header.width, rows: cast.header.height };
  }

  static async fromFile(path: string): Promise<ReplaySource> {
    return new ReplaySource(parseCast(await readFile(path, 'utf8')), basename(path));
  }

  onEvent(listener: PaneEventListener): void {
    this.listeners.push(listener);
  }

  /** The recording's end: its declared duration (believed up to MAX_TRAILING_REST_S past the last event), or its
   * last event. */
  get endTime(): number {
    const last = this.cast.events[this.cast.events.length - 1]?.t ?? 0;
    const dur = this.cast.header.duration;
    return typeof dur === 'number' && Number.isFinite(dur) ? Math.max(last, Math.min(dur, last + MAX_TRAILING_REST_S)) : last;
  }

  /** Emit every event; `pace` lets the consumer apply back-pressure between events. */
  async start(pace?: () => Promise<void> | void): Promise<void> {
    for (const e of this.cast.events) {
      const ev = toEvent(e.t, e.code, e.data);
      if (!ev) continue;
      for (const l of this.listeners) l(ev);
      const p = pace?.();
      if (p) await p;
    }
  }

  async stop(): Promise<void> {}
}

function toEvent(t: number, code: string, data: string): PaneEvent | null {
  switch (code) {
    case 'o':
      return { kind: 'output', t, data };
    case 'i':
      return { kind: 'input', t, data };
    case 'r': {
      const m = /^(\d+)x(\d+)$/.exec(data.trim());
      return m ? { kind: 'resize', t, cols: Number(m[1]), rows: Number(m[2]) } : null;
    }
    default:
      return null; // markers carry no pane content
  }
}
