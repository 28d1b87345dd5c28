// `npm run bench -- --only hostile`: a real daemon with N pane links replaying the corpus at real speed while one
// more pane prints the costliest output found (src/bench/hostile-stream.ts) without pause. Measured: how long the
// other panes' transitions take to reach a dashboard websocket, how long `/healthz` takes, and the daemon's
// event-loop delay. The hostile pane sends as fast as a `run` wrapper would let it through: the wrapper parses the
// same bytes in its own PaneScreen and reads its pty only as fast as that keeps up, so this pane does the same
// (its parse here, in the bench process, paces it). A measurement, never a test: nothing here asserts.
import { WebSocket } from 'ws';
import { LINK_PROTOCOL_VERSION, type LinkHello } from '../attach/link-protocol.js';
import { PaneScreen } from '../screen/pane-screen.js';
import { loadCorpus } from './corpus.js';
import { FeedClient } from './daemon-feed.js';
import { commandFor, ReplayLink } from './daemon-panes.js';
import { startDaemonProcess } from './daemon-proc.js';
import type { ProbeFigures } from './daemon-probe.js';
import { percentile } from './daemon-report.js';
import { hostileStream, unterminatedString } from './hostile-stream.js';
import { positiveIntOption } from './options.js';
import { Prng } from './prng.js';
import { round } from './report.js';

export interface HostileBenchOptions {
  panes: number;
  seconds: number;
  /** The same window with the hostile pane attached and silent: what the machine gives without it. */
  control: boolean;
  /** Node flags for the daemon ($BENCH_DAEMON_NODE_FLAGS, as in the daemon bench). */
  nodeFlags?: string[];
}
export const HOSTILE_VALUE_OPTIONS = ['hostile-seconds', 'hostile-panes'];
export const HOSTILE_FLAGS = ['hostile-control'];
export const HOSTILE_USAGE = `  --hostile-seconds N  hostile window (default 30)   --hostile-panes N  normal pane links beside the hostile one (default 50)
  --hostile-control    the same run with the hostile pane silent (a baseline for the figures)`;
const DEFAULTS = { panes: 50, seconds: 30 };
/** The issue's target for the other panes' transitions and for /healthz while one pane is hostile. */
export const HOSTILE_TARGET_P99_MS = 100;
/** Normal panes start over this long (s) before the window, as in the daemon bench. */
const STAGGER_S = 5;
/** The hostile pane's size: large, so each whole-screen sequence costs what a big terminal's would. */
const HOSTILE_COLS = 200;
const HOSTILE_ROWS = 60;
/** One hostile read, as a pty hands them over. */
const HOSTILE_CHUNK = 4 << 10;
/** Every this many chunks, a 1 MB OSC string left open (the next chunk's ESC aborts it). */
const OPEN_STRING_EVERY = 256;
/** /healthz is asked this often, one request at a time. */
const HEALTH_EVERY_MS = 50;
const SEED = 0x4057113;

export function hostileOptions(options: Map<string, string | true>, env: NodeJS.ProcessEnv = process.env): HostileBenchOptions {
  const nodeFlags = env['BENCH_DAEMON_NODE_FLAGS']?.split(/\s+/).filter(Boolean);
  return {
    panes: positiveIntOption(options, 'hostile-panes', DEFAULTS.panes),
    seconds: positiveIntOption(options, 'hostile-seconds', DEFAULTS.seconds),
    control: options.has('hostile-control'),
    ...(nodeFlags?.length && { nodeFlags }),
  };
}

export interface HostileResult {
  control: boolean;
  panes: number;
  seconds: number;
  hostileBytes: number;
  transitions: number[];
  health: number[];
  healthFailures: number;
  daemonLoopDelay: ProbeFigures | null;
}

export async function runHostileBench(o: HostileBenchOptions, progress: (msg: string) => void): Promise<HostileResult> {
  const corpus = loadCorpus();
  progress('hostile: starting a daemon');
  const d = await startDaemonProcess({ probe: true, ...(o.nodeFlags && { nodeFlags: o.nodeFlags }) });
  const feed = new FeedClient();
  const links: ReplayLink[] = [];
  const starts: NodeJS.Timeout[] = [];
  let hostile: HostilePane | null = null;
  try {
    await feed.connect(d.url);
    for (let i = 0; i < o.panes; i++) {
      const rec = corpus.recordings[i % corpus.recordings.length]!;
      const { width, height } = rec.cast.header;
      const hello = { id: `bench-${i}`, name: `${rec.name} #${i}`, agent: 'auto' as const, command: commandFor(rec.name), cols: width || 80, rows: height || 24 };
      links.push(new ReplayLink({ url: d.url, token: d.token, hello, cast: rec.cast }));
    }
    await Promise.all(links.map((l) => l.connect()));
    progress(`hostile: ${o.panes} panes attached; starting replays over ${STAGGER_S} s`);
    links.forEach((l, i) => starts.push(setTimeout(() => l.start(), (i * STAGGER_S * 1000) / o.panes)));
    await sleep(STAGGER_S * 1000);

    hostile = new HostilePane(d.url, d.token);
    feed.untimed.add(hostile.id);
    await hostile.connect();
    progress(`hostile: one ${HOSTILE_COLS}x${HOSTILE_ROWS} pane printing the costliest sequences; measuring ${o.seconds} s`);
    feed.record('hostile');
    d.probeStart();
    const health = new HealthPoller(d.url);
    const running = o.control ? Promise.resolve() : hostile.run();
    await sleep(o.seconds * 1000);
    hostile.stop();
    await running;
    health.stop();
    feed.record(null);
    const loop = await d.probe();
    if (d.exited()) throw new Error(d.exited()!);
    return { control: o.control, panes: o.panes, seconds: o.seconds, hostileBytes: hostile.sent, transitions: feed.samples('hostile'), health: health.samples, healthFailures: health.failures, daemonLoopDelay: loop };
  } finally {
    for (const t of starts) clearTimeout(t);
    for (const l of links) l.close();
    hostile?.close();
    feed.close();
    await d.stop();
  }
}

/** The hostile pane: a pane link sending the costliest output, paced by parsing it here first (as `run` would). */
class HostilePane {
  readonly id = 'bench-hostile';
  sent = 0;
  private ws: WebSocket | null = null;
  private stopped = false;
  private readonly screen = new PaneScreen({ cols: HOSTILE_COLS, rows: HOSTILE_ROWS });
  private readonly r = new Prng(SEED);

  constructor(private readonly url: string, private readonly token: string) {}

  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url.replace(/^http/, 'ws') + '/api/pane-link', { headers: { authorization: `Bearer ${this.token}` } });
      this.ws = ws;
      ws.on('open', () => {
        const hello: LinkHello = { type: 'hello', v: LINK_PROTOCOL_VERSION, id: this.id, name: 'hostile', agent: 'auto', command: 'cat hostile.bin', cols: HOSTILE_COLS, rows: HOSTILE_ROWS };
        ws.send(JSON.stringify(hello));
      });
      ws.on('message', (data) => {
        if (String(data).includes('"welcome"')) resolve();
      });
      ws.on('error', reject);
    });
  }

  async run(): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const chunk = i % OPEN_STRING_EVERY === OPEN_STRING_EVERY - 1 ? unterminatedString('osc', 1 << 20) : hostileStream(this.r, HOSTILE_CHUNK);
      await new Promise<void>((r) => this.screen.write(chunk, r));
      const ws = this.ws;
      if (!ws || ws.readyState !== ws.OPEN) return;
      ws.send(JSON.stringify({ type: 'output', data: chunk }));
      this.sent += chunk.length;
    }
  }

  stop(): void {
    this.stopped = true;
  }

  close(): void {
    this.stopped = true;
    this.ws?.terminate();
    this.screen.dispose();
  }
}

/** Asks /healthz every HEALTH_EVERY_MS, one request at a time, and keeps each answer's time. */
class HealthPoller {
  readonly samples: number[] = [];
  failures = 0;
  private stopped = false;
  constructor(private readonly url: string) {
    void this.loop();
  }
  stop(): void {
    this.stopped = true;
  }
  private async loop(): Promise<void> {
    while (!this.stopped) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${this.url}/healthz`);
        await res.text();
        if (res.ok) this.samples.push(performance.now() - t0);
        else this.failures++;
      } catch {
        this.failures++;
      }
      await sleep(HEALTH_EVERY_MS);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

const p = (xs: number[], q: number) => round(percentile(xs, q), 1);

export function hostileLines(r: HostileResult): string {
  const loop = r.daemonLoopDelay;
  return [
    r.control
      ? `hostile (control): ${r.panes} panes replaying the corpus + 1 ${HOSTILE_COLS}x${HOSTILE_ROWS} pane attached and silent, ${r.seconds} s`
      : `hostile: ${r.panes} panes replaying the corpus + 1 ${HOSTILE_COLS}x${HOSTILE_ROWS} pane printing the costliest sequences (${(r.hostileBytes / (1 << 20)).toFixed(1)} MB in ${r.seconds} s)`,
    `  other panes' transitions → /ws: p50 ${p(r.transitions, 50)} ms, p99 ${p(r.transitions, 99)} ms, max ${p(r.transitions, 100)} ms (${r.transitions.length}; target p99 < ${HOSTILE_TARGET_P99_MS} ms)`,
    `  /healthz: p50 ${p(r.health, 50)} ms, p99 ${p(r.health, 99)} ms, max ${p(r.health, 100)} ms (${r.health.length} answered, ${r.healthFailures} failed; target p99 < ${HOSTILE_TARGET_P99_MS} ms)`,
    loop ? `  daemon event-loop delay: p50 ${round(loop.p50Ms, 1)} ms, p99 ${round(loop.p99Ms, 1)} ms, max ${round(loop.maxMs, 1)} ms` : '  daemon event-loop delay: not measured',
  ].join('\n');
}

export function hostileJson(r: HostileResult): Record<string, number | boolean | null> {
  const num = (x: number) => (Number.isFinite(x) ? round(x, 1) : null);
  const tp99 = percentile(r.transitions, 99);
  const hp99 = percentile(r.health, 99);
  return {
    hostile_control: r.control,
    hostile_panes: r.panes,
    hostile_seconds: r.seconds,
    hostile_mb: round(r.hostileBytes / (1 << 20), 2),
    hostile_transition_p99_ms: num(tp99),
    hostile_transition_max_ms: num(percentile(r.transitions, 100)),
    hostile_transitions: r.transitions.length,
    hostile_healthz_p99_ms: num(hp99),
    hostile_healthz_max_ms: num(percentile(r.health, 100)),
    hostile_healthz_failures: r.healthFailures,
    hostile_loop_delay_p99_ms: r.daemonLoopDelay ? num(r.daemonLoopDelay.p99Ms) : null,
    hostile_loop_delay_max_ms: r.daemonLoopDelay ? num(r.daemonLoopDelay.maxMs) : null,
    hostile_meets_target: r.transitions.length > 0 && tp99 < HOSTILE_TARGET_P99_MS && hp99 < HOSTILE_TARGET_P99_MS,
  };
}
