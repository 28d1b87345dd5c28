// The Notifier's new duties (issue 28): a question held for the rate limit or quiet hours goes out when they end if
// the pane still asks (and not if it was answered meanwhile); own interrupts and start-ups are no news; one
// question one notification, even across a restart (a real SQLite file); DONEs finishing together are one
// notification; an answered question is withdrawn. A hand-moved clock; poll() does what the timer would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotifyConfig } from '../../src/config/config.js';
import { NOTIFY_TEST_CONFIG } from '../helpers/notify-config.js';
import { AskedLedger } from '../../src/notify/asked-ledger.js';
import { Notifier, type NotifierOptions } from '../../src/notify/notifier.js';
import { notificationFor } from '../../src/notify/text.js';
import type { Notification, NotifyEvent } from '../../src/notify/types.js';

const CFG: NotifyConfig = NOTIFY_TEST_CONFIG;

const notifiers: Notifier[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const n of notifiers.splice(0)) n.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ev(over: Partial<NotifyEvent> = {}): NotifyEvent {
  return { paneId: 'p1', paneName: 'main:0.0', program: 'shell', kind: 'WAITING_APPROVAL', at: 0, tier: 2, rule: 'shell.yes_no_prompt', line: 'Really deploy? [y/N]', turnDurationS: null, ...over };
}

function setup(cfg: Partial<NotifyConfig> = {}, opts: NotifierOptions = {}) {
  let t = 0;
  const got: Notification[] = [];
  const withdrawn: string[] = [];
  const n = new Notifier({ ...CFG, ...cfg }, [{ name: 'mem', send: async (x) => void got.push(x), withdraw: async (p) => void withdrawn.push(p) }], { now: () => t, ...opts });
  notifiers.push(n);
  return {
    n,
    got,
    withdrawn,
    at: (s: number) => void (t = s * 1000),
    handle: (s: number, over: Partial<NotifyEvent> = {}) => ((t = s * 1000), n.handle(ev({ at: t, ...over })).reason),
    poll: async (s: number) => ((t = s * 1000), n.poll(), await n.settled()),
  };
}

describe('never drop a question', () => {
  it('a question inside the rate limit is held and sent when the limit ends, while the pane still asks', async () => {
    const s = setup();
    expect(s.handle(0, { kind: 'DONE', turnDurationS: 4, rule: 'shell.prompt' })).toBe('sent');
    s.n.noteState('p1', 'DONE', 'shell.prompt', 'shell');
    expect(s.handle(1.5)).toBe('deferred');
    s.n.noteState('p1', 'WAITING_APPROVAL', 'shell.yes_no_prompt', 'shell');
    await s.poll(9.9);
    expect(s.got.map((g) => g.kind)).toEqual(['DONE']);
    await s.poll(10);
    expect(s.got.map((g) => g.kind)).toEqual(['DONE', 'WAITING_APPROVAL']);
    expect(s.n.counters()['notify.deferred']).toBe(1);
  });

  it('a held question answered meanwhile is not sent (counted answered)', async () => {
    const s = setup();
    s.handle(0, { kind: 'FAILED' });
    expect(s.handle(2)).toBe('deferred');
    s.n.noteState('p1', 'RUNNING', 'job.started', 'shell');
    await s.poll(11);
    expect(s.got.map((g) => g.kind)).toEqual(['FAILED']);
    expect(s.n.counters()['notify.suppressed.answered']).toBe(1);
  });

  it('a flapping pane: every question it still asks gets through (none of 4 lost)', async () => {
    const s = setup({ dedupe_s: 0 });
    for (let i = 0; i < 4; i++) {
      s.handle(i * 6, { line: `Question ${i}?` });
      s.n.noteState('p1', 'WAITING_APPROVAL', 'shell.yes_no_prompt', 'shell');
      await s.poll(i * 6 + 5.9);
      s.n.noteState('p1', 'WAITING_APPROVAL', 'shell.yes_no_prompt', 'shell');
    }
    await s.poll(100);
    // 1 is held and goes at 10 s; 2 is held to 21.9 s but replaced by 3 at 18 s (the pane no longer asks 2): every
    // question still asked when its turn came got through, the one on screen last among them
    expect(s.got.map((g) => g.body.split('\n')[0])).toEqual(['Question 0?', 'Question 1?', 'Question 3?']);
    expect(s.n.counters()['notify.deferred']).toBe(3);
    expect(s.n.counters()['notify.suppressed.rate_limited']).toBe(0);
  });

  it('quiet hours hold a question and deliver it at their end; a DONE in them is dropped', async () => {
    let minute = 23 * 60;
    const s = setup({ quiet_hours: '22:00-07:00' }, { minuteOfDay: () => minute });
    expect(s.handle(0, { kind: 'DONE', turnDurationS: 9, paneId: 'p2' })).toBe('quiet_hours');
    expect(s.handle(0)).toBe('deferred');
    await s.poll(60);
    expect(s.got).toEqual([]);
    minute = 7 * 60;
    await s.poll(120);
    expect(s.got.map((g) => g.kind)).toEqual(['WAITING_APPROVAL']);
  });
});

describe('no ping for nothing', () => {
  it.each<[string, Partial<NotifyEvent>, string]>([
    ['an agent says the person interrupted it', { kind: 'DONE', program: 'claude', rule: 'claude.interrupted', line: 'Interrupted by user', turnDurationS: 30 }, 'own_interrupt'],
    ['a run pane exits 130 after their Ctrl-C', { kind: 'FAILED', rule: 'run.command_failed', line: 'exit 130: ^C', turnDurationS: 30, tier: 1, facts: { interruptKeyAt: 29_000 } }, 'own_interrupt'],
    ['a tmux shell back at its prompt under the ^C echo', { kind: 'DONE', rule: 'shell.prompt', line: '$', turnDurationS: 30, facts: { edge: ['$ sleep 30', '^C', '$ '] } }, 'own_interrupt'],
    ['an Esc on an agent, then its screen settles', { kind: 'DONE', program: 'generic', rule: 'generic.interrupt_gone', line: '>', turnDurationS: 30 }, 'own_interrupt'],
    ['exit 130 with no key seen and no echo (a kill -INT from elsewhere)', { kind: 'FAILED', rule: 'run.command_failed', line: 'exit 130', tier: 1, turnDurationS: 30 }, 'sent'],
    ['a failure by itself', { kind: 'FAILED', rule: 'osc133.command_failed', line: 'exit 2: make: *** Error 2', tier: 1, turnDurationS: 30 }, 'sent'],
  ])('%s → %s', (_w, over, want) => {
    const s = setup();
    expect(s.handle(30, over)).toBe(want);
  });

  it('a REPL reaching its first >>> after a shell prompt is a start-up; its statements later are news', () => {
    const s = setup({ min_interval_s: 0 });
    s.n.noteState('p1', 'DONE', 'shell.prompt_bracketed_paste', 'shell');
    expect(s.handle(10, { kind: 'DONE', rule: 'shell.repl_prompt', line: '>>>', turnDurationS: 5 })).toBe('startup');
    s.n.noteState('p1', 'DONE', 'shell.repl_prompt', 'shell');
    expect(s.handle(30, { kind: 'DONE', rule: 'shell.repl_prompt', line: '>>>', turnDurationS: 5 })).toBe('sent');
  });

  it('an agent launched from the shell reaching its prompt is a start-up', () => {
    const s = setup();
    s.n.noteState('p1', 'DONE', 'shell.prompt', 'shell');
    expect(s.handle(10, { kind: 'DONE', program: 'codex', rule: 'codex.done_marker', line: '›', turnDurationS: 5, facts: { command: 'npx codex' } })).toBe('startup');
  });
});

describe('one question, one notification', () => {
  it('the same question after an ack and after a restart (real SQLite file) is not notified again; once answered it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-ledger-'));
    dirs.push(dir);
    const file = join(dir, 'notify.sqlite');
    const a = setup({}, { ledger: new AskedLedger(file) });
    expect(a.handle(0)).toBe('sent');
    a.n.noteState('p1', 'WAITING_APPROVAL', 'shell.yes_no_prompt', 'shell');
    a.n.noteState('p1', 'IDLE', 'ack.dashboard', 'shell'); // the ack: seen, not answered
    expect(a.handle(25)).toBe('already_notified');
    a.n.close();
    const b = setup({}, { ledger: new AskedLedger(file) }); // a new daemon on the same file
    expect(b.handle(0)).toBe('already_notified');
    expect(b.handle(1, { line: 'Really delete? [y/N]' })).toBe('sent'); // another question
    b.n.noteState('p1', 'RUNNING', 'job.started', 'shell'); // answered
    expect(b.handle(30, { line: 'Really delete? [y/N]' })).toBe('sent');
  });

  it('an answered question is withdrawn from the channels that can', async () => {
    const s = setup();
    s.handle(0);
    s.n.noteState('p1', 'WAITING_APPROVAL', 'shell.yes_no_prompt', 'shell');
    expect(s.withdrawn).toEqual([]);
    s.n.noteState('p1', 'RUNNING', 'job.started', 'shell');
    await s.n.settled();
    expect(s.withdrawn).toEqual(['p1']);
  });
});

describe('several panes finishing together', () => {
  it('DONEs within group_s are one notification naming every pane', async () => {
    const s = setup({ group_s: 2 });
    expect(s.handle(0, { kind: 'DONE', paneId: 'a', paneName: 'api', turnDurationS: 40 })).toBe('grouped');
    expect(s.handle(0.5, { kind: 'DONE', paneId: 'b', paneName: 'web', turnDurationS: 41 })).toBe('grouped');
    expect(s.handle(1.5, { kind: 'DONE', paneId: 'c', paneName: 'db', turnDurationS: 42 })).toBe('grouped');
    await s.poll(2);
    expect(s.got).toHaveLength(1);
    expect(s.got[0]!.title).toBe('3 panes are done: api, web, db');
    expect(s.got[0]!.panes).toEqual(['a', 'b', 'c']);
  });

  it('a DONE alone in its window is its own notification', async () => {
    const s = setup({ group_s: 2 });
    s.handle(0, { kind: 'DONE', turnDurationS: 40 });
    await s.poll(2);
    expect(s.got.map((g) => g.title)).toEqual(['shell · main:0.0 is done (40s)']);
  });
});

describe('what a notification says', () => {
  it('an agent question: no box drawing, the command it wants, its choices', () => {
    const n = notificationFor(ev({ program: 'claude', rule: 'claude.approval_menu', line: '│ Do you want to proceed? │', facts: { question: { text: 'Do you want to proceed?', options: ['1. Yes', '2. No'] }, edge: ['⏺ Bash(rm -rf build)', '╭───╮', '│ Bash command │', '│   rm -rf build │', '│ Do you want to proceed? │'] } }));
    expect(n.body).toBe('Do you want to proceed?\nwants to run: rm -rf build\n1. Yes / 2. No');
  });

  it('a hook DONE says what the agent last wrote, not "Stop"; FAILED has its exit code and duration; STALLED its silence', () => {
    expect(notificationFor(ev({ program: 'claude', kind: 'DONE', rule: 'hook.claude.stop', line: 'Stop', turnDurationS: 75, facts: { command: 'fix the tests', edge: ['⏺ All 12 tests pass now.', '', '> '] } })).body).toBe('fix the tests\n⏺ All 12 tests pass now.');
    expect(notificationFor(ev({ kind: 'FAILED', rule: 'osc133.command_failed', line: 'exit 2: make: *** Error 2', turnDurationS: 65, facts: { command: 'make all' } })).title).toBe('shell · main:0.0 needs you: failed (exit 2, 1m 05s)');
    expect(notificationFor(ev({ kind: 'STALLED', rule: 'stall.no_progress', line: '', facts: { silentS: 120, command: 'npm install', edge: ['$ npm install', 'npm http fetch GET 200 https://registry.npmjs.org/ws', ''] } }))).toMatchObject({ title: 'shell · main:0.0 needs you: stalled (no output) (silent 2m 00s)', body: 'npm install\nnpm http fetch GET 200 https://registry.npmjs.org/ws' });
    expect(notificationFor(ev({ kind: 'DONE', rule: 'shell.prompt', line: 'bash-5.2#', turnDurationS: 5, facts: { exitCodeUnknown: true, command: "bash -c 'sleep 5; exit 2'" } }))).toMatchObject({ title: 'shell · main:0.0 finished, exit code unknown (5s)', body: "bash -c 'sleep 5; exit 2'" });
  });
});
