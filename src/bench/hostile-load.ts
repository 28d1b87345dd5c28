// `npm run bench -- --only hostile`: a real daemon with N pane links replaying the corpus at real speed while, one
// after another, each storm of hostile-storms.ts runs in a pane of its own (scroll pairs, title spam, alternate-
// screen flapping, forged marks, the costliest sequences, 500 panes joining at once). Measured per storm: how late
// the other panes' transitions reach a dashboard websocket, /healthz of the daemon and of a control server polled
// the same way (a loaded machine slows both, a stalled daemon only its own), the daemon's event-loop delay; then the
// daemon's RSS a minute after the last storm against its start, and how long the `run` wrapper takes to return
// after its program (10 MB of scroll pairs) exits, with this daemon and with none. A storm pane sends as fast as a
// `run` wrapper would let it through: the wrapper parses the same bytes in its own PaneScreen and reads its pty
// only as fast as that keeps up, so this pane does the same, in a process of its own (storm-child.ts).
// A measurement, never a test: nothing here asserts.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { LINK_PROTOCOL_VERSION, type LinkHello } from '../attach/link-protocol.js';
import { loadCorpus } from './corpus.js';
import { FeedClient } from './daemon-feed.js';
import { commandFor, ReplayLink } from './daemon-panes.js';
import { daemonDiagnostics, memoryKb, startDaemonProcess, type DaemonProcess } from './daemon-proc.js';
import type { ProbeFigures } from './daemon-probe.js';
import { ControlServer, HealthPoller, measureWrapperExit, type WrapperExit } from './hostile-probes.js';
import { STORMS, type Storm } from './hostile-storms.js';
import { hostileJson, hostileLines } from './hostile-report.js';
import { positiveIntOption } from './options.js';

export { hostileJson, hostileLines };

export interface HostileBenchOptions {
  panes: number;
  /** Each storm lasts this long (s). */
  seconds: number;
  /** The storms to run, in order. */
  storms: Storm[];
  /** Panes joining at once in the `joins` storm. */
  joins: number;
  /** How long after the last storm RSS is read again (s). */
  restSeconds: number;
  /** The same windows with the storm panes attached and silent: what the machine gives without them. */
  control: boolean;
  /** Node flags for the daemon and a file for its output ($BENCH_DAEMON_NODE_FLAGS, $BENCH_DAEMON_OUTPUT: daemon-proc.ts). */
  nodeFlags?: string[];
  outputFile?: string;
}
export const HOSTILE_VALUE_OPTIONS = ['hostile-seconds', 'hostile-panes', 'hostile-storms', 'hostile-joins', 'hostile-rest'];
export const HOSTILE_FLAGS = ['hostile-control'];
export const HOSTILE_USAGE = `  --hostile-seconds N  each storm's window (default 10)   --hostile-panes N  normal pane links beside the storms (default 50)
  --hostile-storms a,b  which storms, in order (default ${STORMS.join(',')})   --hostile-joins N  panes in the joins storm (default 500)
  --hostile-rest N     seconds after the last storm before RSS is read again (default 60)
  --hostile-control    the same run with the storm panes silent (a baseline for the figures)`;
const DEFAULTS = { panes: 50, seconds: 10, joins: 500, rest: 60 };
/** Normal panes start over this long (s) before the first storm, as in the daemon bench. */
const STAGGER_S = 5;
const SEED = 0x4057113;
/** The storm panes' process (built next to this file). */
const STORM_CHILD = join(dirname(fileURLToPath(import.meta.url)), 'storm-child.js');

export function hostileOptions(options: Map<string, string | true>, env: NodeJS.ProcessEnv = process.env): HostileBenchOptions {
  const list = options.get('hostile-storms');
  const storms = typeof list === 'string' ? list.split(',').map((s) => s.trim()) : [...STORMS];
  for (const s of storms) if (!(STORMS as readonly string[]).includes(s)) throw new Error(`--hostile-storms: unknown storm ${JSON.stringify(s)} (${STORMS.join(', ')})`);
  return {
    panes: positiveIntOption(options, 'hostile-panes', DEFAULTS.panes),
    seconds: positiveIntOption(options, 'hostile-seconds', DEFAULTS.seconds),
    storms: storms as Storm[],
    joins: positiveIntOption(options, 'hostile-joins', DEFAULTS.joins),
    restSeconds: positiveIntOption(options, 'hostile-rest', DEFAULTS.rest),
    control: options.has('hostile-control'),
    ...daemonDiagnostics(env),
  };
}

export interface StormResult {
  storm: Storm;
  bytes: number;
  /** joins: panes welcomed, and how long until the last was (ms). */
  joined?: { panes: number; ms: number };
  transitions: number[];
  health: number[];
  control: number[];
  loop: ProbeFigures | null;
}

export interface HostileResult {
  control: boolean;
  panes: number;
  seconds: number;
  storms: StormResult[];
  healthFailures: number;
  rssStartKb: number;
  rssPeakKb: number;
  rssAfterKb: number;
  restSeconds: number;
  /** The daemon's V8 heap (total, used) and external memory after the rest (MB), from /metrics; null if unread. */
  heapAfter: { totalMb: number; usedMb: number; externalMb: number } | null;
  wrapperWithDaemon: WrapperExit | null;
  wrapperAlone: WrapperExit | null;
}

export async function runHostileBench(o: HostileBenchOptions, progress: (msg: string) => void): Promise<HostileResult> {
  const corpus = loadCorpus();
  progress('hostile: starting a daemon and a control server');
  const d = await startDaemonProcess({ probe: true, ...(o.nodeFlags && { nodeFlags: o.nodeFlags }), ...(o.outputFile && { outputFile: o.outputFile }) });
  const controlServer = new ControlServer();
  const feed = new FeedClient();
  const links: ReplayLink[] = [];
  const starts: NodeJS.Timeout[] = [];
  let health: HealthPoller | null = null;
  let control: HealthPoller | null = null;
  try {
    await controlServer.start();
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
    health = new HealthPoller(`${d.url}/healthz`);
    control = new HealthPoller(controlServer.url);
    await sleep(STAGGER_S * 1000);
    const rssStartKb = memoryKb(d.pid).rssKb;
    let rssPeakKb = rssStartKb;
    const storms: StormResult[] = [];
    for (const storm of o.storms) {
      progress(`hostile: storm ${storm} for ${o.seconds} s${o.control ? ' (control: silent)' : ''}`);
      health.phase = control.phase = storm;
      feed.record(storm);
      d.probeStart();
      const run = storm === 'joins' ? await joinStorm(d, o, feed) : await byteStorm(d, o, storm, feed);
      feed.record(null);
      const loop = await d.probe();
      rssPeakKb = Math.max(rssPeakKb, memoryKb(d.pid).rssKb);
      if (d.exited()) throw new Error(d.exited()!);
      storms.push({ storm, ...run, transitions: feed.samples(storm), health: [], control: [], loop });
    }
    health.phase = control.phase = 'rest';
    progress(`hostile: resting ${o.restSeconds} s (the normal panes go on) before reading RSS again`);
    await sleep(o.restSeconds * 1000);
    const rssAfterKb = memoryKb(d.pid).rssKb;
    const heapAfter = await heapFigures(d);
    await Promise.all([health.stop(), control.stop()]);
    for (const s of storms) Object.assign(s, { health: health.of(s.storm), control: control.of(s.storm) });
    progress('hostile: the run wrapper on 10 MB of scroll pairs, with this daemon, then alone');
    const wrapperWithDaemon = o.control ? null : await measureWrapperExit({ url: d.url, dir: d.dir });
    const wrapperAlone = o.control ? null : await measureWrapperExit(null);
    return { control: o.control, panes: o.panes, seconds: o.seconds, storms, healthFailures: health.failures, rssStartKb, rssPeakKb, rssAfterKb, restSeconds: o.restSeconds, heapAfter, wrapperWithDaemon, wrapperAlone };
  } finally {
    for (const t of starts) clearTimeout(t);
    for (const l of links) l.close();
    await health?.stop();
    await control?.stop();
    controlServer.stop();
    feed.close();
    await d.stop();
  }
}

/** One storm pane sending for the window from a process of its own (storm-child.ts); its transitions are not timed. */
async function byteStorm(d: DaemonProcess, o: HostileBenchOptions, storm: Exclude<Storm, 'joins'>, feed: FeedClient): Promise<{ bytes: number }> {
  const id = `bench-storm-${storm}`;
  feed.untimed.add(id);
  const args = [STORM_CHILD, d.url, d.token, id, storm, String(o.seconds), String(SEED), ...(o.control ? ['--silent'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += String(b)));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`storm ${storm}: its pane's process failed (${code}): ${out.slice(-200)}`);
  return { bytes: (JSON.parse(last) as { sent: number }).sent };
}

/** `o.joins` pane links say hello at once, each prints a prompt, and all leave at the window's end. */
async function joinStorm(d: DaemonProcess, o: HostileBenchOptions, feed: FeedClient): Promise<{ bytes: number; joined: { panes: number; ms: number } }> {
  const t0 = performance.now();
  const panes = o.control ? [] : Array.from({ length: o.joins }, (_, i) => new StormPane(d.url, d.token, `bench-join-${i}`, 'bash'));
  for (const p of panes) feed.untimed.add(p.id);
  const joined = await Promise.allSettled(panes.map(async (p) => {
    await p.connect();
    p.send('\x1b]133;A\x07$ \x1b]133;B\x07');
  }));
  const ms = performance.now() - t0;
  await sleep(Math.max(0, o.seconds * 1000 - ms));
  for (const p of panes) p.close();
  return { bytes: 0, joined: { panes: joined.filter((j) => j.status === 'fulfilled').length, ms } };
}

/** A pane link of the joins storm: says hello, prints a prompt. */
class StormPane {
  private ws: WebSocket | null = null;

  constructor(private readonly url: string, private readonly token: string, readonly id: string, private readonly command: string) {}

  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url.replace(/^http/, 'ws') + '/api/pane-link', { headers: { authorization: `Bearer ${this.token}` } });
      this.ws = ws;
      ws.on('open', () => {
        const hello: LinkHello = { type: 'hello', v: LINK_PROTOCOL_VERSION, id: this.id, name: this.id, agent: 'auto', command: this.command, cols: 80, rows: 24 };
        ws.send(JSON.stringify(hello));
      });
      ws.on('message', (data) => {
        if (String(data).includes('"welcome"')) resolve();
      });
      ws.on('error', reject);
    });
  }

  send(data: string): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'output', data }));
  }

  close(): void {
    this.ws?.terminate();
  }
}

/** The daemon's heap figures from /metrics. */
async function heapFigures(d: DaemonProcess): Promise<HostileResult['heapAfter']> {
  try {
    const text = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } })).text();
    const g = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
    return { totalMb: g('nodejs_heap_size_total_bytes'), usedMb: g('nodejs_heap_size_used_bytes'), externalMb: g('nodejs_external_memory_bytes') };
  } catch {
    return null;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
