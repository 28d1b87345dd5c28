// The dashboard's pure parts (no browser): card order, timeline segments, counter tables, alert decisions,
// settings parsing, reconnect backoff, durations.
import { describe, expect, it } from 'vitest';
import { cardsToMove, comparePanes, orderKeyChanged, urgency } from '../../web/src/order.js';
import { countPanes, inFilter, needsCount, summaryText } from '../../web/src/board-filter.js';
import { mergeHistory } from '../../web/src/history-order.js';
import { drawable } from '../../web/src/glyphs.js';
import { ago, asks, canInterrupt, canReply, exitCodeOf, howLong, interruptKeys, spoken, whereText } from '../../web/src/card-words.js';
import { olderThan } from '../../web/src/act.js';
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
  it('orders: needing the person first by urgency (waiting, failed, stalled, done), newest first; then the rest by name (they hold still); closed last', () => {
    const panes = [
      paneView('closed-old', { alive: false, needsYou: true, since: 1 }),
      paneView('closed-new', { alive: false, since: 3 }),
      paneView('idle-old', { since: 2 }),
      paneView('done-new', { state: 'DONE', needsYou: true, since: 50 }),
      paneView('done-old', { state: 'DONE', needsYou: true, since: 5 }),
      paneView('stalled', { state: 'RUNNING', stalled: true, needsYou: true, since: 60 }),
      paneView('failed', { state: 'FAILED', needsYou: true, since: 4 }),
      paneView('wait-old', { state: 'WAITING_APPROVAL', needsYou: true, since: 10 }),
      paneView('wait-new', { state: 'WAITING_APPROVAL', needsYou: true, since: 11 }),
      paneView('idle-new', { since: 40 }),
    ];
    expect(panes.sort(comparePanes).map((p) => p.id)).toEqual(['wait-new', 'wait-old', 'failed', 'stalled', 'done-new', 'done-old', 'idle-new', 'idle-old', 'closed-new', 'closed-old']);
    // a quiet pane's state time changing (RUNNING → IDLE → RUNNING) neither moves it nor asks for a re-sort
    const a = paneView('a', { state: 'RUNNING', since: 1 });
    expect(orderKeyChanged(a, { ...a, state: 'IDLE', since: 9 })).toBe(false);
    expect(orderKeyChanged(a, { ...a, state: 'DONE', needsYou: true, since: 9 })).toBe(true);
    expect(urgency(paneView('x', { alive: false, state: 'WAITING_APPROVAL', needsYou: true }))).toBe(5);
  });

  it('card words: the question, the turn runtime (startedAt, not the time in state), when it ended and its exit code', () => {
    const now = 1_000_000;
    expect([0, 4_999, 187_000, 7_500_000, 273_600_000].map(spoken)).toEqual(['0 s', '4 s', '3 m 07 s', '2 h 05 m', '3 d 4 h']);
    expect([1000, 40_000, 125_000, 4 * 3600_000, 3 * 86_400_000].map(ago)).toEqual(['just now', '40 s ago', '2 m ago', '4 h ago', '3 d ago']);
    const long = paneView('l', { state: 'LONG_RUNNING', since: now - 10_000, startedAt: now - 270_000 });
    expect(howLong(long, now)).toBe('running 4 m 30 s');
    expect(howLong(paneView('s', { state: 'RUNNING', stalled: true, since: now - 5000, startedAt: now - 270_000 }), now)).toBe('running 4 m 30 s');
    const done = paneView('d', { state: 'DONE', since: now - 125_000, tier: 1, rule: 'osc133.command_finished', line: 'exit 0: $ make' });
    expect(howLong(done, now)).toBe('finished 2 m ago · exit 0');
    expect(howLong({ ...done, state: 'FAILED', rule: 'run.command_failed', line: 'exit 127' }, now)).toBe('failed 2 m ago · exit 127');
    // no exit code: a profile's DONE, a Tier 1 finish that carried none, a closed pane
    expect(exitCodeOf({ ...done, tier: 2, rule: 'claude.done_marker', line: 'exit 0' })).toBeNull();
    expect(exitCodeOf({ ...done, line: 'exit none' })).toBeNull();
    expect(howLong({ ...done, alive: false }, now)).toBe('');
    expect(asks(paneView('w', { line: '❯ 1. Yes', question: { text: 'Delete 3 stale branches? [y/N]', options: [] } }))).toBe('asks: Delete 3 stale branches? [y/N]');
    expect(asks(paneView('w', { line: 'Continue? (yes/no)', question: null }))).toBe('asks: Continue? (yes/no)');
  });

  it('what a pane takes: a reply when a program other than a shell is at rest, an interrupt (Esc for agents, Ctrl-C otherwise) while it works or waits', () => {
    expect(canReply(paneView('a', { program: 'claude', state: 'DONE' }))).toBe(true);
    expect(canReply(paneView('a', { program: 'codex', state: 'IDLE' }))).toBe(true);
    expect(canReply(paneView('a', { program: 'claude', state: 'FAILED' }))).toBe(true); // issue 26 item 10: FAILED is at rest
    expect(canReply(paneView('a', { program: 'claude', state: 'RUNNING' }))).toBe(false);
    expect(canReply(paneView('a', { program: 'shell', state: 'DONE' }))).toBe(false);
    expect(canReply(paneView('a', { program: 'claude', state: 'DONE', alive: false }))).toBe(false);
    expect(['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL', 'DONE', 'IDLE', 'FAILED'].map((state) => canInterrupt(paneView('a', { state: state as 'IDLE' })))).toEqual([true, true, true, false, false, false]);
    // the daemon names the keys (config actions.keys); without it, agents Esc and the rest Ctrl-C
    expect(interruptKeys(paneView('a', { program: 'aider', interruptKeys: 'Ctrl-C' }))).toBe('Ctrl-C');
    expect(['claude', 'gemini', 'shell', 'generic'].map((program) => interruptKeys(paneView('a', { program })))).toEqual(['Esc', 'Esc', 'Ctrl-C', 'Ctrl-C']);
    expect(canReply(paneView('a', { program: 'generic', state: 'IDLE' }))).toBe(true);
    // where it runs, as the detail view says it
    expect(whereText({ host: 'devbox', tty: '/dev/pts/3', pid: 4242 })).toBe('devbox · /dev/pts/3 · pid 4242');
    expect(whereText({ session: 'work', window: '2', pane: '%5' })).toBe('tmux work:2 %5');
    expect(whereText({ sessionId: 'w0t1p0:ABC' })).toBe('iTerm2 session w0t1p0:ABC');
    expect(whereText(undefined)).toBe('');
  });

  it("an action's answer older than what the feed already brought does not put the old screen back", () => {
    const at = (rev: number, since: number, alive = true) => ({ rev, since, alive });
    expect(olderThan(at(3, 10), at(4, 10))).toBe(true);
    expect(olderThan(at(9, 10), at(4, 12))).toBe(true);
    expect(olderThan(at(4, 12), at(4, 12))).toBe(false);
    expect(olderThan(at(5, 12), at(4, 10))).toBe(false);
    // a pane back with the same id starts its revisions again, at a later state time; a closed one is news
    expect(olderThan(at(1, 20), at(40, 12))).toBe(false);
    expect(olderThan(at(0, 12, false), at(40, 12))).toBe(false);
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

  it('moves the fewest cards: one card changing rank moves alone, whichever way it goes', () => {
    const ids = Array.from({ length: 20 }, (_, i) => `p${i}`);
    // p2 drops to the end: only p2 moves (not the 17 cards it passes)
    expect([...cardsToMove(ids, [...ids.slice(0, 2), ...ids.slice(3), 'p2'])]).toEqual(['p2']);
    // p15 rises to the top
    expect([...cardsToMove(ids, ['p15', ...ids.filter((i) => i !== 'p15')])]).toEqual(['p15']);
    expect(cardsToMove(ids, ids).size).toBe(0);
    // a new card is placed; a card gone from the list is not counted
    expect([...cardsToMove(['a', 'b', 'gone'], ['a', 'new', 'b'])]).toEqual(['new']);
  });

  it('header and filters: "to answer" is a question, "to look at" an unacknowledged failure or stall; DONE apart', () => {
    const panes = [
      paneView('w', { state: 'WAITING_APPROVAL', needsYou: true }),
      paneView('f', { state: 'FAILED', needsYou: true }),
      paneView('f-seen', { state: 'FAILED', needsYou: false }),
      paneView('s', { state: 'LONG_RUNNING', stalled: true, needsYou: true }),
      ...Array.from({ length: 5 }, (_, i) => paneView(`d${i}`, { state: 'DONE', needsYou: true })),
      paneView('r', { state: 'RUNNING' }),
      paneView('i', { state: 'IDLE' }),
      paneView('gone', { state: 'WAITING_APPROVAL', needsYou: true, alive: false }),
    ];
    const c = countPanes(panes);
    expect(summaryText(c)).toBe('11 open · 1 to answer · 2 to look at');
    expect(needsCount(c)).toBe(3);
    expect(c.by).toEqual({ all: 11, answer: 1, look: 2, done: 5, working: 2, idle: 1 });
    expect(inFilter('look', panes[2]!)).toBe(false);
  });

  it('timeline order: transitions of one time stay in the order they were stored', () => {
    // as GET /transitions answers: newest first, ties by the order stored (the failure after the start)
    const stored = [tr(5, 'RUNNING', 'FAILED'), tr(5, 'IDLE', 'RUNNING'), tr(1, 'RUNNING', 'IDLE')];
    const live = [tr(5, 'RUNNING', 'FAILED'), tr(9, 'FAILED', 'RUNNING'), tr(9, 'RUNNING', 'DONE')];
    expect(mergeHistory(stored, live).map((t) => t.to)).toEqual(['IDLE', 'RUNNING', 'FAILED', 'RUNNING', 'DONE']);
    expect(segments(mergeHistory(stored, []), 10).at(-1)!.state).toBe('FAILED');
  });

  it('glyphs common fonts lack are drawn as look-alikes', () => {
    expect(drawable('⏺ Bash(npm test)\n  ⎿  12 passed')).toBe('● Bash(npm test)\n  └  12 passed');
  });
});
