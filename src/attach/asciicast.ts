// asciicast v2: a JSON header line, then [time, code, data] lines. Reading is forgiving (a bad line is counted and
// skipped, never fatal) because users attach recordings cut off by a crash; writing is append-only and line-buffered.
import { createWriteStream, type WriteStream } from 'node:fs';

export interface CastHeader {
  version: 2;
  width: number;
  height: number;
  timestamp?: number;
  duration?: number;
  env?: Record<string, string>;
  title?: string;
  [k: string]: unknown;
}

/** o output, i typed keys, m marker, r resize; h an agent's hook call recorded beside the bytes (data: JSON
 * `{"agent", "event", "payload"}`, see docs/recording.md): the scorer copies the cast alone, so hooks live in it. */
export type CastEventCode = 'o' | 'i' | 'm' | 'r' | 'h';
export interface CastEvent {
  t: number;
  code: CastEventCode;
  data: string;
}

export interface Cast {
  header: CastHeader;
  events: CastEvent[];
  /** Lines that were not valid events (kept as a count so a damaged file still replays). */
  skipped: number;
}

export class CastFormatError extends Error {}

/** Recordings longer than this (about 11.6 days) are not sessions: their timestamps are wrong. */
export const MAX_CAST_TIME_S = 1_000_000;

export function parseCast(text: string): Cast {
  const lines = text.split('\n');
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  let header: CastHeader;
  try {
    header = JSON.parse(lines[first] ?? '') as CastHeader;
  } catch {
    throw new CastFormatError('not an asciicast v2 file: the first line is not a JSON header');
  }
  if (!header || typeof header !== 'object' || header.version !== 2) {
    throw new CastFormatError(`not an asciicast v2 file: header version is ${JSON.stringify(header?.version)}`);
  }
  const events: CastEvent[] = [];
  let skipped = 0;
  let last = 0;
  for (let i = first + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    let ev: unknown;
    try {
      ev = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    if (!Array.isArray(ev) || typeof ev[0] !== 'number' || !Number.isFinite(ev[0]) || typeof ev[1] !== 'string' || typeof ev[2] !== 'string') {
      skipped++;
      continue;
    }
    const code = ev[1] as CastEventCode;
    if (code !== 'o' && code !== 'i' && code !== 'm' && code !== 'r' && code !== 'h') {
      skipped++;
      continue;
    }
    // A stamp past MAX_CAST_TIME_S is a wall-clock time or garbage, not seconds since the start: skip it.
    if (ev[0] > MAX_CAST_TIME_S) {
      skipped++;
      continue;
    }
    // Time never runs backwards in a replay: a stray earlier stamp is held at the last one.
    const t = Math.max(last, ev[0]);
    last = t;
    events.push({ t, code, data: ev[2] });
  }
  return { header, events, skipped };
}

/** Streams a session to an asciicast v2 file while it happens (output, input and resizes). */
export class CastWriter {
  private readonly out: WriteStream;
  private readonly start: number;
  /** The first write error (disk full, directory gone): kept for the caller, never thrown into the event loop. */
  error: Error | null = null;

  constructor(path: string, header: Omit<CastHeader, 'version'>, now: number = Date.now()) {
    this.start = now;
    this.out = createWriteStream(path, { flags: 'w', mode: 0o600 });
    this.out.on('error', (e) => {
      this.error ??= e;
    });
    this.out.write(JSON.stringify({ version: 2, ...header, timestamp: Math.floor(now / 1000) }) + '\n');
  }

  write(code: CastEventCode, data: string, now: number = Date.now()): void {
    const t = Math.max(0, (now - this.start) / 1000);
    this.out.write(JSON.stringify([Number(t.toFixed(6)), code, data]) + '\n');
  }

  close(): Promise<void> {
    if (this.error || this.out.destroyed) return Promise.resolve();
    return new Promise((resolve) => this.out.end(resolve));
  }
}
