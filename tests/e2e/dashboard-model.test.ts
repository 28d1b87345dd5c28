// The dashboard's pure parts (no browser): card order, timeline segments, counter tables, alert decisions,
// settings parsing, reconnect backoff, durations.
import { describe, expect, it } from 'vitest';
import { comparePanes } from '../../web/src/order.js';
import { segments } from '../../web/src/timeline.js';
import { groupCounters } from '../../web/src/stats-model.js';
import { alertFor } from '../../web/src/alert-kind.js';
import { defaults, parseSettings } from '../../web/src/settings.js';
import { retryDelay, wsUrl } from '../../web/src/reconnect.js';
import { duration } from '../../web/src/format.js';
import { paneView } from '../helpers/browser-fake-daemon.js';
import type { TransitionView } from '../../src/web/api-types.js';

const tr = (at: number, from: TransitionView['from'], to: TransitionView['to'], stalled = false): TransitionView => ({
  paneId: 'p', at, from, to, tier: 2, source: 'profile', rule: 'r', line: '', stalled, startedAt: 0, startedAtKept: false,
});

describe('dashboard model', () => {
  it('orders: needing the person first, then the rest, closed last; longest in its state first', () => {
    const panes = [
      paneView('closed', { alive: false, needsYou: true, since: 1 }),
      paneView('idle-old', { since: 2 }),
      paneView('done-new', { state: 'DONE', needsYou: true, since: 50 }),
      paneView('wait-old', { state: 'WAITING_APPROVAL', needsYou: true, since: 10 }),
      paneView('idle-new', { since: 40 }),
    ];
    expect(panes.sort(comparePanes).map((p) => p.id)).toEqual(['wait-old', 'done-new', 'idle-old', 'idle-new', 'closed']);
  });

  it('timeline: one segment per state run, the last until the end, stall marks split without changing state', () => {
    const segs = segments([tr(3000, 'RUNNING', 'DONE'), tr(1000, 'IDLE', 'RUNNING'), tr(2000, 'RUNNING', 'RUNNING', true)], 5000);
    expect(segs.map((s) => [s.state, s.stalled, s.start, s.end])).toEqual([
      ['RUNNING', false, 1000, 2000],
      ['RUNNING', true, 2000, 3000],
      ['DONE', false, 3000, 5000],
    ]);
    expect(segs.reduce((a, s) => a + s.frac, 0)).toBeCloseTo(1);
    expect(segments([], 10)).toEqual([]);
    expect(segments([tr(1000, 'IDLE', 'RUNNING'), tr(1500, 'RUNNING', 'RUNNING')], 2000)).toHaveLength(1);
  });

  it('counters: rules may hold dots; fired by rule, suppressed by reason, both summed by tier', () => {
    const g = groupCounters({ 'fired.tier2.done.claude.done_marker': 3, 'fired.tier2.run.claude.working': 5, 'suppressed.tier3.run.debounce': 2, 'panes.created': 9 });
    expect(g.fired[0]).toEqual({ tier: 'tier2', signal: 'run', what: 'claude.working', count: 5 });
    expect(g.fired[1]!.what).toBe('claude.done_marker');
    expect(g.firedByTier).toEqual([{ tier: 'tier2', count: 8 }]);
    expect(g.suppressed).toEqual([{ tier: 'tier3', signal: 'run', what: 'debounce', count: 2 }]);
    expect(g.other).toEqual([{ key: 'panes.created', count: 9 }]);
  });

  it('alerts: entering WAITING_APPROVAL, FAILED, DONE, or a stall mark; nothing else', () => {
    expect(alertFor(tr(0, 'RUNNING', 'WAITING_APPROVAL'))).toBe('WAITING_APPROVAL');
    expect(alertFor(tr(0, 'RUNNING', 'FAILED'))).toBe('FAILED');
    expect(alertFor(tr(0, 'RUNNING', 'DONE'))).toBe('DONE');
    expect(alertFor(tr(0, 'RUNNING', 'RUNNING', true))).toBe('stalled');
    expect(alertFor(tr(0, 'RUNNING', 'LONG_RUNNING', true))).toBeNull();
    expect(alertFor(tr(0, 'DONE', 'IDLE'))).toBeNull();
    expect(alertFor(tr(0, 'IDLE', 'RUNNING'))).toBeNull();
  });

  it('settings: bad or partial stored values fall back to the defaults key by key', () => {
    expect(parseSettings(null)).toEqual(defaults());
    expect(parseSettings('{not json')).toEqual(defaults());
    const s = parseSettings(JSON.stringify({ muted: true, volume: 7, kinds: { DONE: false, FAILED: 'no' } }));
    expect(s).toEqual({ ...defaults(), muted: true, kinds: { ...defaults().kinds, DONE: false } });
  });

  it('reconnect delay grows to a cap with jitter; the socket is on the page host', () => {
    expect(retryDelay(0, () => 0.5)).toBe(500);
    expect(retryDelay(3, () => 0.5)).toBe(4000);
    expect(retryDelay(30, () => 1)).toBe(18_750);
    expect(retryDelay(30, () => 0)).toBe(11_250);
    expect(wsUrl({ protocol: 'http:', host: '127.0.0.1:7777' })).toBe('ws://127.0.0.1:7777/ws');
    expect(wsUrl({ protocol: 'https:', host: 'box:1' })).toBe('wss://box:1/ws');
  });

  it('durations read at a glance', () => {
    expect([0, 4_999, 187_000, 7_500_000, 273_600_000].map(duration)).toEqual(['0s', '4s', '3m 07s', '2h 05m', '3d 4h']);
  });
});
