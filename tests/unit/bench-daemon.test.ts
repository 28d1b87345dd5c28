import { describe, expect, it } from 'vitest';
import { LoopingSchedule, linkMessage, commandFor } from '../../src/bench/daemon-panes.js';
import { parseStatTicks, parseStatusKb } from '../../src/bench/daemon-proc.js';
import { daemonJson, daemonMeets, percentile, type DaemonResult } from '../../src/bench/daemon-report.js';
import { daemonOptions } from '../../src/bench/daemon-load.js';

const cast = (events: Array<[number, 'o' | 'i' | 'r' | 'm', string]>, duration?: number) => ({
  header: { version: 2 as const, width: 80, height: 24, ...(duration !== undefined && { duration }) },
  events: events.map(([t, code, data]) => ({ t, code, data })),
});

describe('LoopingSchedule', () => {
  it('hands out events when due, skips markers, and loops after the recording plus a gap', () => {
    const s = new LoopingSchedule(cast([[0, 'o', 'a'], [1, 'i', '\r'], [1.5, 'm', 'mark'], [2, 'o', 'b']], 3), 1);
    expect(s.period).toBe(4); // max(last event 2, duration 3) + gap 1
    expect(s.take(0).map((e) => e.data)).toEqual(['a']);
    expect(s.nextAt).toBe(1);
    expect(s.take(2.5).map((e) => e.data)).toEqual(['\r', 'b']);
    expect(s.nextAt).toBe(4);
    expect(s.passes).toBe(1);
    expect(s.take(5).map((e) => e.data)).toEqual(['a', '\r']);
    expect(s.nextAt).toBe(6);
  });

  it('never spins on an empty recording', () => {
    const s = new LoopingSchedule(cast([[0, 'm', 'x']]));
    expect(s.take(100)).toEqual([]);
    expect(s.nextAt).toBe(Infinity);
  });
});

describe('linkMessage', () => {
  it('maps cast events to the run wrapper protocol', () => {
    expect(linkMessage({ t: 0, code: 'o', data: 'x' })).toEqual({ type: 'output', data: 'x' });
    expect(linkMessage({ t: 0, code: 'i', data: '\r' })).toEqual({ type: 'input', data: '\r' });
    expect(linkMessage({ t: 0, code: 'r', data: '100x30' })).toEqual({ type: 'resize', cols: 100, rows: 30 });
    expect(linkMessage({ t: 0, code: 'r', data: 'junk' })).toBeNull();
    expect(linkMessage({ t: 0, code: 'm', data: 'x' })).toBeNull();
  });
  it('names the command from the recording', () => {
    expect(commandFor('claude-approval')).toBe('claude');
    expect(commandFor('shell-spinner')).toBe('bash');
  });
});

describe('/proc parsing', () => {
  it('reads utime + stime after a command name with spaces and parentheses', () => {
    const stat = '1234 (node (x) y) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0 100 1000 200';
    expect(parseStatTicks(stat)).toBe(300);
  });
  it('reads kB fields of status', () => {
    const status = 'Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n';
    expect(parseStatusKb(status, 'VmRSS')).toBe(102400);
    expect(parseStatusKb(status, 'VmHWM')).toBe(204800);
    expect(parseStatusKb(status, 'VmSwap')).toBeNaN();
  });
});

describe('report', () => {
  it('nearest-rank percentiles', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 1..100 unsorted
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  const result = (over: Partial<DaemonResult> = {}): DaemonResult => ({
    panes: 100, recordings: 27, seconds: 60, staggerS: 5, cpuPct: 10, cpuS: 6, rssPeakMb: 150, rssHwmMb: 160, rssSamples: 150,
    latencies: [1, 2, 3], outputBytes: 1 << 20, outputEvents: 1000, inputEvents: 100, passes: 50, idlePanes: 100, idleSeconds: 20,
    settleS: 5, settleCpuPct: 2, idleCpuPct: 0.3, idleCpuS: 0.1, idleSlicesPct: [0.5], idleSlicesWakeupsPerS: [100], daemonLoopDelay: null, wakeupsPerS: 500, idleWakeupsPerS: 100, idleTransitions: 0, benchLoopDelayP99Ms: 3, benchCpuPct: 10, maxLinkBufferedBytes: 0,
    metrics: {}, loadAvg1: 1, ...over,
  });

  it('has every asked-for key and a meets flag per target', () => {
    const j = daemonJson(result());
    for (const k of ['daemon_panes', 'daemon_seconds', 'daemon_cpu_pct', 'daemon_rss_peak_mb', 'ws_latency_p50_ms', 'ws_latency_p99_ms', 'ws_latency_max_ms', 'ws_transitions', 'idle_panes', 'idle_cpu_pct']) {
      expect(j).toHaveProperty(k);
    }
    expect(j['daemon_meets_targets']).toBe(true);
    expect(j['ws_latency_p99_ms']).toBe(3);
  });

  it('misses a target at or past its bound, and with no transitions measured', () => {
    expect(daemonMeets(result({ cpuPct: 15 })).cpu).toBe(false);
    expect(daemonMeets(result({ rssPeakMb: 200 })).rss).toBe(false);
    expect(daemonMeets(result({ idleCpuPct: 0.5 })).idleCpu).toBe(false);
    expect(daemonMeets(result({ latencies: [] })).latency).toBe(false);
    expect(daemonJson(result({ latencies: [] }))['ws_latency_p99_ms']).toBeNull();
  });

  it('parses its options', () => {
    const o = daemonOptions(new Map([['daemon-seconds', '10']]), {});
    expect(o).toMatchObject({ panes: 100, seconds: 10, idleSeconds: 60 });
    expect(() => daemonOptions(new Map([['daemon-panes', '0']]), {})).toThrow(/positive whole number/);
  });
});
