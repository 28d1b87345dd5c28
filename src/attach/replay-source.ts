// Replay: an asciicast v2 recording as a pane source, fed in virtual time. Output events become output at their
// timestamps, input events become typed keys, resize events resize. Nothing waits on the wall clock.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseCast, type Cast } from './asciicast.js';
import type { PaneEvent, PaneEventListener, PaneSource, PaneSourceInfo } from './source.js';
import { hookEventFrom, type HookEvent } from '../hooks/payload.js';
import { isHookAgent } from '../hooks/agents.js';

/** A recorded hook call, ready for the pane (as the daemon hands it a POST /api/hooks). */
export type ReplayHookListener = (t: number, hook: HookEvent) => void;

/** Output chunks closer together than this are one frame (a pty read split a program's write). */
export const SAME_FRAME_S = 0.002;
/** A merged write stays below this size (a flood is still fed in pieces, with back-pressure between them). */
export const MAX_MERGED_CHARS = 64 << 10;
/** A header may declare rest after the last event; more than this is not rest but a wrong duration. */
const MAX_TRAILING_REST_S = 600;

export class ReplaySource implements PaneSource {
  readonly info: PaneSourceInfo;
  private readonly listeners: PaneEventListener[] = [];
  private readonly hookListeners: ReplayHookListener[] = [];
  /** "h" events that did not name an agent and an event (counted, never fatal). */
  badHooks = 0;

  constructor(readonly cast: Cast, name: string) {
    this.info = { id: `replay:${name}`, name, kind: 'replay', cols: cast.header.width, rows: cast.header.height };
  }

  static async fromFile(path: string): Promise<ReplaySource> {
    return new ReplaySource(parseCast(await readFile(path, 'utf8')), basename(path));
  }

  onEvent(listener: PaneEventListener): void {
    this.listeners.push(listener);
  }

  /** Recorded hook calls, in order with the events (register before start()). */
  onHook(listener: ReplayHookListener): void {
    this.hookListeners.push(listener);
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
    const events = this.cast.events;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      let ev: PaneEvent | null;
      if (e.code === 'o') {
        // Output chunks a pty delivered back to back (one frame written in pieces) are one write here, as a
        // terminal would see them: stamped with the last chunk's time (nothing is reported before it was shown).
        let data = e.data;
        let t = e.t;
        while (i + 1 < events.length && events[i + 1]!.code === 'o' && events[i + 1]!.t - e.t <= SAME_FRAME_S && data.length < MAX_MERGED_CHARS) {
          const next = events[++i]!;
          data += next.data;
          t = next.t;
        }
        ev = { kind: 'output', t, data };
      } else if (e.code === 'h') {
        const hook = parseHook(e.data);
        if (!hook) {
          this.badHooks++;
          continue;
        }
        for (const l of this.hookListeners) l(e.t, hook);
        const p = pace?.();
        if (p) await p;
        continue;
      } else {
        ev = toEvent(e.t, e.code, e.data);
        if (!ev) continue;
      }
      for (const l of this.listeners) l(ev);
      const p = pace?.();
      if (p) await p;
    }
  }

  async stop(): Promise<void> {}
}

function toEvent(t: number, code: string, data: string): PaneEvent | null {
  switch (code) {
    case 'i':
      return { kind: 'input', t, data };
    case 'r': {
      const m = /^(\d+)x(\d+)$/.exec(data.trim());
      return m ? { kind: 'resize', t, cols: Number(m[1]), rows: Number(m[2]) } : null;
    }
    case 'm':
      return commandMarker(t, data);
    default:
      return null;
  }
}

/** `run --record` marks its one-shot program's start and end: "command executed", "command finished 1". Any other
 * marker (a person's chapter mark) carries no pane content. */
export const COMMAND_MARKER = /^termsupervisor: command (executed|finished (\d{1,3}))$/;

/** ...and each foreground process it saw: "process {"name":"python3","reading":true}" (processMarker). */
const PROCESS_MARKER = 'termsupervisor: process ';
/** A recorded process marker longer than this is no marker of ours. */
const MAX_PROCESS_MARKER = 4096;

/** The marker `run --record` writes for a foreground process change (its names, whether it reads the terminal). */
export function processMarker(ev: { name: string; names?: string[]; reading?: boolean }): string {
  return PROCESS_MARKER + JSON.stringify({ name: ev.name, ...(ev.names && { names: ev.names }), ...(ev.reading !== undefined && { reading: ev.reading }) });
}

function parseProcessMarker(t: number, label: string): PaneEvent | null {
  if (label.length > MAX_PROCESS_MARKER) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(label.slice(PROCESS_MARKER.length));
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== 'object') return null;
  const { name, names, reading } = raw as { name?: unknown; names?: unknown; reading?: unknown };
  if (typeof name !== 'string' || !name) return null;
  const list = Array.isArray(names) && names.every((n) => typeof n === 'string') ? (names as string[]) : undefined;
  return { kind: 'process', t, name, ...(list && { names: list }), ...(typeof reading === 'boolean' && { reading }) };
}

function commandMarker(t: number, label: string): PaneEvent | null {
  if (label.startsWith(PROCESS_MARKER)) return parseProcessMarker(t, label);
  const m = COMMAND_MARKER.exec(label);
  if (!m) return null;
  return m[2] === undefined ? { kind: 'command', t, phase: 'executed' } : { kind: 'command', t, phase: 'finished', exitCode: Number(m[2]) };
}

/** An "h" event's data: `{"agent", "event", "payload"}` as the hook command received it; null if it names none. */
function parseHook(data: string): HookEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== 'object') return null;
  const { agent, event, payload } = raw as { agent?: unknown; event?: unknown; payload?: unknown };
  if (!isHookAgent(agent)) return null;
  const ev = hookEventFrom(agent, payload, typeof event === 'string' && event ? event : undefined);
  return typeof ev === 'string' ? null : ev;
}
