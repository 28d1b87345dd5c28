// Urgent notifications kept until delivered (issue 28): the notify_pending table in a real SQLite history file
// (kept, shrunk as channels take a notice, bounded by count and age), and the Notifier's books across a restart
// (two Notifiers on the same file): a notice resumes only while its pane still asks, else it is dropped with why.
// A hand-moved clock; poll() does what the timer would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NOTIFY_TEST_CONFIG } from '../helpers/notify-config.js';
import { Notifier, type NotifierOptions } from '../../src/notify/notifier.js';
import { RESUME_WAIT_MS } from '../../src/notify/pending.js';
import type { Notification, NotifyChannel, NotifyEvent } from '../../src/notify/types.js';
import { HistoryStore } from '../../src/store/history-store.js';
import { MAX_PENDING_AGE_MS, MAX_PENDING_NOTICES } from '../../src/store/notify-pending.js';

const open: Array<{ close(): void }> = [];
const dirs: string[] = [];
afterEach(() => {
  for (const o of open.splice(0).reverse()) o.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dbPath(): string {
  const d = mkdtempSync(join(tmpdir(), 'ts-pending-'));
  dirs.push(d);
  return join(d, 'history.sqlite');
}

function store(path: string): HistoryStore {
  const s = HistoryStore.open(path);
  open.push(s);
  return s;
}

function ev(over: Partial<NotifyEvent> = {}): NotifyEvent {
  return { paneId: 'p1', paneName: 'main:0.0', program: 'shell', kind: 'WAITING_APPROVAL', at: 0, tier: 2, rule: 'shell.yes_no_prompt', line: 'Really deploy? [y/N]', turnDurationS: null, ...over };
}

/** A channel that fails while `down.value` and records what it got. */
function channel(name: string, down = { value: false }): NotifyChannel & { got: Notification[] } {
  const got: Notification[] = [];
  return { name, got, send: async (n) => (down.value ? Promise.reject(new Error(`${name} down`)) : void got.push(n)) };
}

describe('notify_pending in the history database', () => {
  it('keeps a notice, shrinks it as channels take it, removes it; bounded by count and age', () => {
    const path = dbPath();
    const s = store(path);
    const p = s.notifyPending;
    p.save({ id: 'a', stage: 'sending', ev: ev(), channels: ['desktop', 'webhook'], createdAt: 1000 });
    p.save({ id: 'a', stage: 'sending', ev: ev(), channels: ['webhook'], createdAt: 1000 });
    expect(p.load(2000).map((n) => [n.id, n.channels])).toEqual([['a', ['webhook']]]);
    p.remove('a');
    expect(p.load(2000)).toEqual([]);
    for (let i = 0; i < MAX_PENDING_NOTICES + 5; i++) p.save({ id: `n${i}`, stage: 'held', ev: ev({ paneId: `p${i}` }), channels: ['desktop'], createdAt: 10_000 + i });
    const kept = p.load(10_000);
    expect(kept).toHaveLength(MAX_PENDING_NOTICES);
    expect(kept[0]!.id).toBe('n5'); // the oldest went first
    expect(p.load(10_000 + 5 + MAX_PENDING_AGE_MS + 1)).toHaveLength(MAX_PENDING_NOTICES - 1); // past the age: gone
  });
});

describe('the Notifier across a restart', () => {
  function daemon(path: string, channels: NotifyChannel[], cfg = {}, opts: NotifierOptions = {}) {
    let t = 0;
    const s = store(path);
    const resumed: string[] = [];
    const n = new Notifier({ ...NOTIFY_TEST_CONFIG, group_s: 0, ...cfg }, channels, { now: () => t, pending: s.notifyPending, onResume: (e, why, st) => void resumed.push(`${e.paneId} ${e.kind} ${why} ${st}`), ...opts });
    return {
      n,
      s,
      resumed,
      at: (sec: number) => void (t = sec * 1000),
      start: () => n.resume(s.notifyPending.load(t)),
      stop: async () => (n.stopping(), await n.settled(), n.close(), s.close()),
    };
  }

  it('a question held for quiet hours: kept; the next daemon sends it once the pane asks again, the row goes', async () => {
    const path = dbPath();
    const quiet = { quiet_hours: '00:00-23:59' };
    const a = daemon(path, [channel('desktop')], quiet, { minuteOfDay: () => 60 });
    expect(a.n.handle(ev()).reason).toBe('deferred');
    a.n.noteState('p1', 'WAITING_APPROVAL', 'shell.yes_no_prompt', 'shell');
    expect(a.s.notifyPending.load(0).map((n) => n.stage)).toEqual(['held']);
    await a.stop();
    const ch = channel('desktop');
    const b = daemon(path, [ch], quiet, { minuteOfDay: () => 23 * 60 + 59 }); // quiet hours over
    b.start();
    b.n.handle(ev()); // the pane read again after the restart: the same question
    b.n.noteState('p1', 'WAITING_APPROVAL', 'shell.yes_no_prompt', 'shell');
    b.at(1);
    b.n.poll();
    await b.n.settled();
    expect(ch.got.map((g) => g.title)).toEqual(['shell · main:0.0 needs you: approval']);
    expect(b.resumed).toEqual(['p1 WAITING_APPROVAL resumed null']);
    expect(b.s.notifyPending.load(1000)).toEqual([]);
  });

  it('only the channels that still owe it get it; a pane at rest, another question, or gone: dropped, said why', async () => {
    const path = dbPath();
    const down = { value: true };
    const a = daemon(path, [channel('desktop'), channel('webhook', down)], { retry_base_s: 10 });
    for (const p of ['p1', 'p2', 'p3', 'p4']) a.n.handle(ev({ paneId: p }));
    await new Promise((r) => setTimeout(r, 20));
    expect(a.s.notifyPending.load(0).map((n) => `${n.ev.paneId} ${n.stage} ${n.channels}`)).toEqual(['p1 sending webhook', 'p2 sending webhook', 'p3 sending webhook', 'p4 sending webhook']);
    await a.stop();
    const desk = channel('desktop');
    const hook = channel('webhook');
    const b = daemon(path, [desk, hook], {}, { paneState: (id) => (id === 'p4' ? null : 'WAITING_APPROVAL') });
    b.start();
    b.n.handle(ev({ paneId: 'p1' })); // still the same question
    b.n.handle(ev({ paneId: 'p2', line: 'Drop the tables? [y/N]' })); // another one: news of its own
    b.n.noteState('p3', 'IDLE', 'shell.prompt', 'shell'); // answered while the daemon was down
    b.at(RESUME_WAIT_MS / 1000); // p4 never came back
    b.n.poll();
    await b.n.settled();
    expect(hook.got.map((g) => `${g.paneId} ${g.question}`)).toEqual(['p1 Really deploy? [y/N]', 'p2 Drop the tables? [y/N]']);
    expect(desk.got.map((g) => `${g.paneId} ${g.question}`)).toEqual(['p2 Drop the tables? [y/N]']); // p1: it had it
    expect(b.resumed.sort()).toEqual(['p1 WAITING_APPROVAL resumed null', 'p2 WAITING_APPROVAL question_changed WAITING_APPROVAL', 'p3 WAITING_APPROVAL answered IDLE', 'p4 WAITING_APPROVAL pane_gone null']);
    expect(b.s.notifyPending.load(RESUME_WAIT_MS)).toEqual([]);
  });

  it('panes closing while the daemon stops are no answer: what is owed stays kept', async () => {
    const path = dbPath();
    const a = daemon(path, [channel('webhook', { value: true })], { retry_base_s: 10 });
    a.n.handle(ev());
    await new Promise((r) => setTimeout(r, 20));
    a.n.stopping();
    a.n.forget('p1'); // the daemon closing its panes on the way out
    await a.stop();
    const b = daemon(path, [channel('webhook')]);
    expect(b.s.notifyPending.load(0).map((n) => `${n.ev.paneId} ${n.channels}`)).toEqual(['p1 webhook']);
  });
});
