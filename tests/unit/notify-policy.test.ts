// Notifier: which events reach a channel and why the others do not (reasons, their order, counters, errors).
import { describe, expect, it } from 'vitest';
import type { NotifyConfig } from '../../src/config/config.js';
import { NOTIFY_TEST_CONFIG } from '../helpers/notify-config.js';
import { Notifier, type NotifierOptions } from '../../src/notify/notifier.js';
import { inQuietWindow, parseQuietHours } from '../../src/notify/quiet-hours.js';
import { formatDuration, notificationFor } from '../../src/notify/text.js';
import type { Notification, NotifyChannel, NotifyEvent } from '../../src/notify/types.js';

const BASE: NotifyConfig = NOTIFY_TEST_CONFIG;

function ev(over: Partial<NotifyEvent> = {}): NotifyEvent {
  return {
    paneId: 'p1',
    paneName: 'api-pane',
    program: 'claude',
    kind: 'WAITING_APPROVAL',
    at: 0,
    tier: 2,
    rule: 'claude.waiting',
    line: 'Do you want to proceed?',
    turnDurationS: 42,
    ...over,
  };
}

/** A Notifier on a hand-moved clock; `at(s)` moves it to s seconds. */
function setup(cfg: Partial<NotifyConfig> = {}, opts: NotifierOptions = {}, channels?: NotifyChannel[]) {
  let t = 0;
  const got: Notification[] = [];
  const chans = channels ?? [{ name: 'mem', send: async (n: Notification) => void got.push(n) }];
  const notifier = new Notifier({ ...BASE, ...cfg }, chans, { now: () => t, ...opts });
  return {
    notifier,
    got,
    at(s: number) {
      t = s * 1000;
    },
    handle(s: number, over: Partial<NotifyEvent> = {}) {
      t = s * 1000;
      return notifier.handle(ev({ at: t, ...over })).reason;
    },
  };
}

describe('Notifier policy', () => {
  it('sends what passes every check, to every channel', async () => {
    const a: Notification[] = [];
    const b: Notification[] = [];
    const { notifier } = setup({}, {}, [
      { name: 'a', send: async (n) => void a.push(n) },
      { name: 'b', send: async (n) => void b.push(n) },
    ]);
    expect(notifier.handle(ev())).toEqual({ sent: true, reason: 'sent' });
    await notifier.settled();
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(a[0]!.title).toBe('claude · api-pane needs you: approval');
  });

  it.each<[string, Partial<NotifyConfig>, Partial<NotifyEvent>, string]>([
    ['a kind not in states', { states: ['FAILED'] }, { kind: 'WAITING_APPROVAL' }, 'disabled'],
    ['DONE after a short turn', {}, { kind: 'DONE', turnDurationS: 2.9 }, 'short_turn'],
    ['DONE after a long enough turn', {}, { kind: 'DONE', turnDurationS: 3 }, 'sent'],
    ['DONE with an unknown turn length', {}, { kind: 'DONE', turnDurationS: null }, 'sent'],
    ['a short turn that is not DONE', {}, { kind: 'FAILED', turnDurationS: 0.5 }, 'sent'],
    ['a question inside quiet hours (held for their end)', { quiet_hours: '00:00-01:00' }, {}, 'deferred'],
    ['a DONE inside quiet hours', { quiet_hours: '00:00-01:00' }, { kind: 'DONE' }, 'quiet_hours'],
  ])('%s → %s', (_what, cfg, over, want) => {
    const s = setup(cfg, { minuteOfDay: () => 30 });
    expect(s.handle(100, over)).toBe(want);
  });

  it('with no channel at all reports no_channels', () => {
    const s = setup({}, {}, []);
    expect(s.handle(0)).toBe('no_channels');
  });

  it('checks in order: disabled before short_turn before duplicate before rate limit before quiet hours', () => {
    // Every check would fire for the second DONE; the first in the list wins.
    const s = setup({ quiet_hours: '00:00-23:59' }, { minuteOfDay: () => 60 });
    expect(s.handle(0, { kind: 'FAILED' })).toBe('deferred');
    expect(s.handle(0, { kind: 'DONE', paneId: 'p9' })).toBe('quiet_hours');
    const off = setup({ states: ['FAILED'] });
    expect(off.handle(0, { kind: 'DONE', turnDurationS: 1 })).toBe('disabled');
    const short = setup();
    expect(short.handle(0, { kind: 'DONE', turnDurationS: 10 })).toBe('sent');
    expect(short.handle(1, { kind: 'DONE', turnDurationS: 1 })).toBe('short_turn');
    expect(short.handle(2, { kind: 'DONE', turnDurationS: 10 })).toBe('duplicate');
    expect(short.handle(6, { kind: 'DONE', turnDurationS: 10 })).toBe('rate_limited');
  });

  it('the same pane and kind within dedupe_s is a duplicate; another urgent kind is held for the rate limit', () => {
    const s = setup();
    expect(s.handle(0, { kind: 'FAILED' })).toBe('sent');
    expect(s.handle(4.9, { kind: 'FAILED' })).toBe('duplicate');
    expect(s.handle(4.9, { kind: 'STALLED' })).toBe('deferred');
    expect(s.handle(5, { kind: 'DONE' })).toBe('rate_limited'); // a DONE is not held: only questions and failures
    expect(s.handle(10, { kind: 'FAILED' })).toBe('sent');
  });

  it('rate limits per pane: another pane is not held back', () => {
    const s = setup();
    expect(s.handle(0)).toBe('sent');
    expect(s.handle(1, { paneId: 'p2' })).toBe('sent');
    expect(s.handle(2, { paneId: 'p1', kind: 'FAILED' })).toBe('deferred');
  });

  it('the dedupe window runs from the first report, so a repeating event surfaces again', () => {
    const s = setup({ min_interval_s: 0 });
    expect(s.handle(0, { kind: 'FAILED' })).toBe('sent');
    expect(s.handle(3, { kind: 'FAILED' })).toBe('duplicate');
    expect(s.handle(6, { kind: 'FAILED' })).toBe('sent'); // not 'duplicate' of the one at 3 s
  });

  it('a question asked again after an answer (the pane ran in between) is no duplicate, even within dedupe_s', () => {
    const s = setup({ min_interval_s: 0 });
    s.notifier.noteState('p1', 'WAITING_APPROVAL', 'claude.waiting', 'claude');
    expect(s.handle(0)).toBe('sent');
    s.notifier.noteState('p1', 'WAITING_APPROVAL', 'claude.waiting', 'claude');
    expect(s.handle(1)).toBe('already_notified'); // the same question, still asked
    s.notifier.noteState('p1', 'RUNNING', 'claude.spinner', 'claude');
    s.notifier.noteState('p1', 'WAITING_APPROVAL', 'claude.waiting', 'claude');
    expect(s.handle(2)).toBe('sent'); // answered, then asked again: a new question
    expect(s.handle(3, { line: 'Do you want to proceed? (tier 3 words)' })).toBe('duplicate'); // its echo from another tier
  });

  it('a suppressed event is still one event: its echo from another tier is a duplicate', () => {
    const s = setup();
    expect(s.handle(0)).toBe('sent');
    expect(s.handle(6, { kind: 'FAILED' })).toBe('deferred');
    expect(s.handle(7, { kind: 'FAILED' })).toBe('duplicate');
    expect(s.handle(12, { kind: 'FAILED' })).toBe('sent');
    s.notifier.poll(); // what was held for it went out with it: not a second time
    expect(s.notifier.health().held).toBe(0);
  });

  it('quiet hours that wrap midnight', () => {
    let minute = 0;
    const s = setup({ quiet_hours: '22:30-07:00', min_interval_s: 0, dedupe_s: 0 }, { minuteOfDay: () => minute });
    const at = (hh: number, mm: number) => {
      minute = hh * 60 + mm;
      return s.handle(0, { kind: 'DONE' });
    };
    expect(at(22, 29)).toBe('sent');
    expect(at(22, 30)).toBe('quiet_hours');
    expect(at(23, 59)).toBe('quiet_hours');
    expect(at(0, 0)).toBe('quiet_hours');
    expect(at(6, 59)).toBe('quiet_hours');
    expect(at(7, 0)).toBe('sent');
    expect(at(12, 0)).toBe('sent');
  });

  it('a quiet suppression does not start the rate limit', () => {
    let minute = 60;
    const s = setup({ quiet_hours: '00:00-02:00', dedupe_s: 0 }, { minuteOfDay: () => minute });
    expect(s.handle(0, { kind: 'DONE' })).toBe('quiet_hours');
    minute = 180;
    expect(s.handle(1, { kind: 'DONE' })).toBe('sent');
  });

  it('counts sent and suppressed by reason', async () => {
    const s = setup({ states: ['WAITING_APPROVAL', 'DONE'] });
    s.handle(0);
    s.handle(1, { line: 'Another question?' });
    s.handle(2, { kind: 'FAILED' });
    s.handle(3, { kind: 'DONE', turnDurationS: 0 });
    s.handle(6, { kind: 'DONE' });
    await s.notifier.settled();
    expect(s.notifier.counters()).toMatchObject({
      'notify.sent': 1,
      'notify.suppressed.duplicate': 1,
      'notify.suppressed.disabled': 1,
      'notify.suppressed.short_turn': 1,
      'notify.suppressed.rate_limited': 1,
      'notify.suppressed.quiet_hours': 0,
    });
  });

  it('a failing channel is reported and counted, never thrown, and the others still get it', async () => {
    const errors: string[] = [];
    const got: Notification[] = [];
    const s = setup({}, { onError: (e, ch) => errors.push(`${ch}: ${(e as Error).message}`) }, [
      { name: 'rejects', send: async () => Promise.reject(new Error('down')) },
      {
        name: 'throws',
        send: () => {
          throw new Error('sync');
        },
      },
      { name: 'ok', send: async (n) => void got.push(n) },
    ]);
    expect(s.handle(0)).toBe('sent');
    await s.notifier.settled();
    expect(errors.sort()).toEqual(['rejects: down', 'throws: sync']);
    expect(got).toHaveLength(1);
    expect(s.notifier.counters()).toMatchObject({ 'notify.error.rejects': 1, 'notify.error.throws': 1 });
  });

  it('forget drops a pane’s windows', () => {
    const s = setup();
    expect(s.handle(0, { kind: 'FAILED' })).toBe('sent');
    s.notifier.forget('p1');
    expect(s.handle(1, { kind: 'FAILED' })).toBe('sent');
  });
});

describe('quiet hours', () => {
  it('parses, treats "" and a zero-length window as none, refuses garbage', () => {
    expect(parseQuietHours('')).toBeNull();
    expect(parseQuietHours('08:00-08:00')).toBeNull();
    expect(parseQuietHours('22:30-07:00')).toEqual({ start: 1350, end: 420 });
    expect(() => parseQuietHours('25:00-01:00')).toThrow(/HH:MM/);
    expect(inQuietWindow({ start: 60, end: 120 }, 120)).toBe(false);
    expect(inQuietWindow({ start: 60, end: 120 }, 60)).toBe(true);
  });
});

describe('notification text', () => {
  it('title per kind, DONE with the turn length, body redacted, cut and free of control characters', () => {
    expect(notificationFor(ev({ kind: 'FAILED' })).title).toBe('claude · api-pane needs you: failed (42s)');
    expect(notificationFor(ev({ kind: 'STALLED' })).title).toBe('claude · api-pane needs you: stalled (no output)');
    expect(notificationFor(ev({ kind: 'DONE', turnDurationS: 125 })).title).toBe('claude · api-pane is done (2m 05s)');
    const n = notificationFor(ev({ kind: 'FAILED', line: `  \x1b]0;evil\x07export API_TOKEN=abc123 ${'x'.repeat(200)}`, paneName: 'a\x1b[31mb' }));
    expect(n.body.startsWith('export API_TOKEN=*** xxx')).toBe(true);
    expect(n.paneName).toBe('ab');
    expect(Array.from(n.body)).toHaveLength(120);
    expect(n.body.endsWith('…')).toBe(true);
    expect(n.title).not.toMatch(/[\x00-\x1f]/);
    expect(n.urgent).toBe(true);
    expect(notificationFor(ev({ kind: 'DONE' })).urgent).toBe(false);
  });

  it('formats durations', () => {
    expect(formatDuration(42)).toBe('42s');
    expect(formatDuration(125)).toBe('2m 05s');
    expect(formatDuration(3725)).toBe('1h 02m');
  });
});
