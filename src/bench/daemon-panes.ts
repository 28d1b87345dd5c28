// The load on the daemon: pane links speaking the `run` wrapper's protocol (src/attach/link-protocol.ts), each
// replaying a corpus recording at real speed — output, typed input (so turn anchors work) and resizes at their
// recorded times — and starting over when the recording ends, in the same pane, as a new session would.
import { WebSocket } from 'ws';
import { LINK_PROTOCOL_VERSION, type LinkHello, type LinkMessage } from '../attach/link-protocol.js';
import type { Cast, CastEvent } from '../attach/asciicast.js';

/** Silence between the end of a recording and its next pass (s), on top of the recording's own tail. */
export const LOOP_GAP_S = 1;
const CONNECT_TIMEOUT_MS = 10_000;

type ReplayEvent = Pick<CastEvent, 't' | 'code' | 'data'>;

/** A recording's events played in a loop: which are due by a given time, and when the next one is. */
export class LoopingSchedule {
  readonly events: ReplayEvent[];
  /** Seconds from one pass's start to the next. */
  readonly period: number;
  private i = 0;
  private pass = 0;

  constructor(cast: Pick<Cast, 'header' | 'events'>, gapS = LOOP_GAP_S) {
    this.events = cast.events.filter((e) => e.code === 'o' || e.code === 'i' || e.code === 'r');
    const last = this.events[this.events.length - 1]?.t ?? 0;
    const duration = typeof cast.header.duration === 'number' && Number.isFinite(cast.header.duration) ? cast.header.duration : 0;
    this.period = Math.max(last, duration) + gapS;
  }

  /** Seconds (from the first pass's start) of the next event not yet taken; Infinity for an empty recording. */
  get nextAt(): number {
    const e = this.events[this.i];
    return e ? e.t + this.pass * this.period : Infinity;
  }

  /** Every event due at or before `elapsedS`, in order. */
  take(elapsedS: number): ReplayEvent[] {
    const out: ReplayEvent[] = [];
    while (this.events.length && this.nextAt <= elapsedS) {
      out.push(this.events[this.i]!);
      if (++this.i === this.events.length) {
        this.i = 0;
        this.pass++;
      }
    }
    return out;
  }

  get passes(): number {
    return this.pass;
  }
}

/** A cast event as the link message the `run` wrapper would send (null for one it would not). */
export function linkMessage(e: ReplayEvent): LinkMessage | null {
  if (e.code === 'o') return { type: 'output', data: e.data };
  if (e.code === 'i') return { type: 'input', data: e.data };
  if (e.code === 'r') {
    const m = /^(\d+)x(\d+)$/.exec(e.data.trim());
    return m ? { type: 'resize', cols: Number(m[1]), rows: Number(m[2]) } : null;
  }
  return null;
}

export interface ReplayLinkOptions {
  /** http://host:port of the daemon. */
  url: string;
  token: string;
  hello: Omit<LinkHello, 'type' | 'v'>;
  cast: Cast;
}

/** One pane link replaying one recording. */
export class ReplayLink {
  readonly schedule: LoopingSchedule;
  /** Messages and UTF-8 bytes of output sent (all passes). */
  outputEvents = 0;
  outputBytes = 0;
  inputEvents = 0;
  /** The most this link ever had queued in its socket (bytes): the daemon reading slower than we send. */
  maxBuffered = 0;
  closedEarly: string | null = null;
  private ws: WebSocket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private t0 = 0;

  constructor(private readonly o: ReplayLinkOptions) {
    this.schedule = new LoopingSchedule(o.cast);
  }

  /** Opens the link and says hello; resolves once the daemon welcomed the pane. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.o.url.replace(/^http/, 'ws') + '/api/pane-link', {
        headers: { authorization: `Bearer ${this.o.token}` },
        handshakeTimeout: CONNECT_TIMEOUT_MS,
      });
      this.ws = ws;
      let welcomed = false;
      const timer = setTimeout(() => fail(new Error(`pane ${this.o.hello.id}: no welcome within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      const fail = (e: Error) => {
        clearTimeout(timer);
        if (!welcomed) reject(e);
      };
      ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', v: LINK_PROTOCOL_VERSION, ...this.o.hello } satisfies LinkHello)));
      ws.on('message', (data) => {
        if (welcomed) return;
        let m: { type?: string; message?: string };
        try {
          m = JSON.parse(data.toString()) as typeof m;
        } catch {
          return;
        }
        if (m.type === 'welcome') {
          welcomed = true;
          clearTimeout(timer);
          resolve();
        } else if (m.type === 'error') fail(new Error(`pane ${this.o.hello.id}: daemon said ${m.message}`));
      });
      ws.on('unexpected-response', (_req, res) => fail(new Error(`pane ${this.o.hello.id}: link refused, HTTP ${res.statusCode}`)));
      ws.on('error', (e) => fail(e));
      ws.on('close', (code, reason) => {
        this.stop();
        if (welcomed && this.ws === ws) this.closedEarly = `${code} ${reason.toString()}`.trim();
        fail(new Error(`pane ${this.o.hello.id}: link closed before welcome (${code})`));
      });
    });
  }

  /** Starts the replay now (first pass from the recording's start). */
  start(): void {
    this.t0 = performance.now();
    this.step();
  }

  /** Stops sending; the link stays open (an idle pane). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  close(): void {
    this.stop();
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState !== ws.CLOSED) ws.terminate();
  }

  private step(): void {
    this.timer = null;
    const ws = this.ws;
    if (!ws || ws.readyState !== ws.OPEN) return;
    const elapsed = (performance.now() - this.t0) / 1000;
    for (const e of this.schedule.take(elapsed)) {
      const m = linkMessage(e);
      if (!m) continue;
      ws.send(JSON.stringify(m));
      if (m.type === 'output') {
        this.outputEvents++;
        this.outputBytes += Buffer.byteLength(m.data, 'utf8');
      } else if (m.type === 'input') this.inputEvents++;
    }
    this.maxBuffered = Math.max(this.maxBuffered, ws.bufferedAmount);
    const next = this.schedule.nextAt;
    if (Number.isFinite(next)) this.timer = setTimeout(() => this.step(), Math.max(0, (next - elapsed) * 1000));
  }
}

/** The command a `termsupervisor run -- <cmd>` of this recording would have had (claude-…, codex-…, shell-…). */
export function commandFor(recording: string): string {
  const kind = recording.split('-')[0];
  if (kind === 'claude' || kind === 'codex' || kind === 'gemini' || kind === 'qwen') return kind;
  return 'bash';
}
