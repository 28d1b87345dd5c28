// Floods are bounded (issue 27, item 2). A pane whose output holds thousands of marks or titles a second (a `cat` of
// a file full of OSC 133 marks made 49,000 transitions and froze the daemon) publishes a burst, then one transition
// now and then standing for those held, says it floods, and stops flooding once quiet; what it publishes still
// chains (each from the state the one before went to) and ends where its state machine is. Two levels:
//  - the real pipeline in virtual time (PaneMonitor: @xterm/headless, analyzer, state machine), seeded floods of
//    OSC 133 / 633 marks in one command's order, in a pane of each reading (a one-shot, a shell, an agent), and a
//    person-paced session that must come through untouched;
//  - the daemon's real registry (SQLite history, the pino log): a 1 MB mark flood and a 4 MB title flood leave a
//    bounded number of history rows, feed messages and log lines, and the pane's view says "flooding" meanwhile.
// Seeded: a failure names its seed and reproduces.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { virtualPane } from '../../src/daemon/replay.js';
import { FLOOD_BURST, FLOOD_QUIET_S, FLOOD_REFILL_S } from '../../src/daemon/transition-flood.js';
import { SIGNAL_LOG_BURST, SIGNAL_LOG_REFILL_S } from '../../src/daemon/log-budget.js';
import type { Transition } from '../../src/state/pane-machine.js';
import { Prng } from '../../src/bench/prng.js';
import { testRegistry, type TestRegistry } from '../helpers/web-registry.js';

const cfg = loadConfig();
const SEEDS = 6;
/** One read of a pty. */
const CHUNK = 4 << 10;
/** Pane views pushed per second at most under a flood: a screen read every coalescing window (50 ms) and a few more. */
const MAX_VIEWS_PER_S = 40;

/** One command's marks in order, as a shell with integration prints them, `n` times; OSC 133 or 633, BEL or ST. */
function markFlood(r: Prng, bytes: number): string {
  const proto = r.chance(0.5) ? '133' : '633';
  const end = r.chance(0.5) ? '\x07' : '\x1b\\';
  const m = (x: string) => `\x1b]${proto};${x}${end}`;
  let s = '';
  for (let i = 0; s.length < bytes; i++) s += `${m('A')}$ ${m('B')}${m('C')}out ${i}\r\n${m(`D;${r.chance(0.2) ? 1 : 0}`)}`;
  return s;
}

/** Titles flipping between an agent's working and idle kinds (Claude Code's) and plain ones, back to back. */
function titleFlood(r: Prng, bytes: number): string {
  const titles = ['✳ Claude Code', '⠂ Claude Code', '◐ Claude Code', 'bash', `build ${r.int(0, 99)}`];
  let s = '';
  while (s.length < bytes) s += `\x1b]${r.chance(0.5) ? 0 : 2};${r.pick(titles)}\x07`;
  return s;
}

/** `data` in reads of CHUNK. */
const reads = (data: string) => Array.from({ length: Math.ceil(data.length / CHUNK) }, (_, i) => data.slice(i * CHUNK, (i + 1) * CHUNK));

/** Feeds `chunks` to a pane in virtual time, `every` seconds apart from t0; then lets time run. */
async function floodPane(agent: 'auto' | 'shell' | 'claude', command: string, chunks: string[], every: number, oneShot = true) {
  const { clock, monitor } = virtualPane({ cfg, cols: 80, rows: 24, agent, command });
  const published: Transition[] = [];
  let sawFlooding = false;
  monitor.onTransition((tr) => published.push(tr));
  monitor.onScreenChange(() => (sawFlooding ||= monitor.flooding !== null));
  const t0 = 1;
  if (oneShot) monitor.handle({ kind: 'command', t: t0, phase: 'executed' });
  let t = t0;
  for (const data of chunks) {
    monitor.handle({ kind: 'output', t, data });
    t += every;
    if (monitor.backlogged) await monitor.drain();
  }
  await monitor.flush();
  const floodEnd = t;
  clock.advanceTo((floodEnd + FLOOD_QUIET_S * 3) * 1000);
  const after = { flooding: monitor.flooding, state: monitor.state.state };
  monitor.stop();
  return { published, sawFlooding, after, seconds: floodEnd - t0 };
}

function expectBounded(r: Awaited<ReturnType<typeof floodPane>>, seed: number): void {
  const why = `seed ${seed}: ${r.published.length} published in ${r.seconds.toFixed(1)} s`;
  // The burst, one per refill period, and the one that ends the flood.
  expect(r.published.length, why).toBeLessThanOrEqual(FLOOD_BURST + Math.ceil(r.seconds / FLOOD_REFILL_S) + 2);
  for (let i = 1; i < r.published.length; i++) expect(r.published[i]!.from, `${why}: #${i} chains`).toBe(r.published[i - 1]!.to);
  expect(r.after.flooding, why).toBeNull();
  if (r.published.length) expect(r.published.at(-1)!.to, `${why}: ends where the machine is`).toBe(r.after.state);
}

describe('floods are bounded per pane', () => {
  it('a mark flood (1 MB in a second): a burst, then one transition per refill, chained, ending where the pane is', { timeout: 120_000 }, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = new Prng(seed);
      const [agent, command] = r.pick([['auto', 'cat marks.txt'], ['shell', 'bash'], ['claude', 'claude']] as const);
      const res = await floodPane(agent, command, reads(markFlood(r, 1 << 20)), 1 / 256);
      expect(res.sawFlooding || res.published.length <= FLOOD_BURST, `seed ${seed}: said it floods`).toBe(true);
      expectBounded(res, seed);
    }
  });

  it('a person-paced session is untouched: every transition published as made', async () => {
    // 15 commands, one every 2 s: 30 transitions, under the burst, none coalesced.
    let data = '';
    const { clock, monitor } = virtualPane({ cfg, cols: 80, rows: 24, agent: 'shell', command: 'bash' });
    const published: Transition[] = [];
    monitor.onTransition((tr) => published.push(tr));
    const m = (x: string) => `\x1b]133;${x}\x07`;
    monitor.handle({ kind: 'output', t: 0.1, data: `${m('A')}$ ${m('B')}` });
    for (let i = 0; i < 15; i++) {
      const t = 1 + i * 2;
      monitor.handle({ kind: 'input', t, data: 'true\r' });
      monitor.handle({ kind: 'output', t: t + 0.01, data: `true\r\n${m('C')}` });
      monitor.handle({ kind: 'output', t: t + 0.5, data: `${m('D;0')}${m('A')}$ ${m('B')}` });
      data += '.';
    }
    await monitor.flush();
    clock.advanceTo(40_000);
    monitor.stop();
    expect(published.map((t) => t.to)).toEqual(Array.from({ length: 15 }, () => ['RUNNING', 'DONE']).flat());
    expect(published.every((t) => !t.line.startsWith('flooding'))).toBe(true);
  });
});

describe('the daemon under a flood', () => {
  let r: TestRegistry | null = null;
  afterEach(() => r?.close());

  it('a title flood (4 MB of titles changing kind): bounded history rows, feed messages and log lines', { timeout: 60_000 }, async () => {
    r = testRegistry();
    const reg = r.registry;
    reg.open({ id: 'titles', name: 'claude', attach: 'run', command: 'claude', cols: 80, rows: 24, agent: 'auto' });
    const data = titleFlood(new Prng(7), 4 << 20);
    const started = performance.now();
    const pane = reg.livePane('titles')!;
    for (let i = 0; i < data.length; i += CHUNK) {
      reg.feed('titles', { kind: 'output', data: data.slice(i, i + CHUNK) });
      if (pane.monitor.backlogged) await pane.monitor.drain();
    }
    await pane.monitor.flush();
    const seconds = (performance.now() - started) / 1000;
    await new Promise((res) => setTimeout(res, 200)); // the last commit
    const bound = FLOOD_BURST + Math.ceil(seconds / FLOOD_REFILL_S) + 2;
    expect(reg.transitions('titles', 100_000)!.length).toBeLessThanOrEqual(bound);
    expect(r.feed.messages.filter((m) => m.type === 'transition').length).toBeLessThanOrEqual(bound);
    // Pane views go out per screen read (coalesced), not per title.
    const views = r.feed.messages.filter((m) => m.type === 'pane').length;
    expect(views, `${views} pane views in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(MAX_VIEWS_PER_S * seconds + FLOOD_BURST);
    const lines = r.log.entries.filter((e) => e.obj['pane'] === 'titles').length;
    expect(lines, `${lines} log lines`).toBeLessThanOrEqual(SIGNAL_LOG_BURST + Math.ceil(seconds / SIGNAL_LOG_REFILL_S) + bound + 10);
  });

  it('history rows, feed messages and log lines stay bounded; the pane says it floods, then stops', { timeout: 60_000 }, async () => {
    r = testRegistry();
    const reg = r.registry;
    reg.open({ id: 'flood', name: 'cat', attach: 'run', command: 'cat marks.txt', cols: 80, rows: 24, agent: 'auto' });
    reg.feed('flood', { kind: 'command', phase: 'executed' });
    const data = markFlood(new Prng(42), 1 << 20);
    const started = performance.now();
    let sawFlooding = false;
    const unsub = reg.subscribe((m) => {
      if (m.type === 'pane' && m.pane.id === 'flood' && m.pane.flooding) sawFlooding = true;
    });
    const pane = reg.livePane('flood')!;
    for (let i = 0; i < data.length; i += CHUNK) {
      reg.feed('flood', { kind: 'output', data: data.slice(i, i + CHUNK) });
      if (pane.monitor.backlogged) await pane.monitor.drain();
    }
    await pane.monitor.flush();
    const seconds = (performance.now() - started) / 1000;
    expect(sawFlooding, 'the pane view said flooding').toBe(true);
    // Wall clock here: the flood ends FLOOD_QUIET_S after its last transition.
    await r.feed.paneView('flood', (p) => !p.flooding, 'the flood over', r.feed.messages.length);
    unsub();
    const bound = FLOOD_BURST + Math.ceil((seconds + FLOOD_QUIET_S + 1) / FLOOD_REFILL_S) + 2;
    await new Promise((res) => setTimeout(res, 200)); // the last commit
    const rows = reg.transitions('flood', 100_000)!;
    expect(rows.length, `${rows.length} history rows in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(bound);
    const sent = r.feed.messages.filter((m) => m.type === 'transition').length;
    expect(sent).toBeLessThanOrEqual(bound);
    const lines = r.log.entries.filter((e) => e.obj['pane'] === 'flood').length;
    // Signals: the burst and one a refill period; transitions as above; a few pane and flood lines.
    const lineBound = SIGNAL_LOG_BURST + Math.ceil((seconds + FLOOD_QUIET_S + 1) / SIGNAL_LOG_REFILL_S) + bound + 10;
    expect(lines, `${lines} log lines`).toBeLessThanOrEqual(lineBound);
    expect(r.log.entries.some((e) => e.obj['event'] === 'log_flood')).toBe(true);
  });
});
