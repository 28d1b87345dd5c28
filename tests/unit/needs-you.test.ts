// "Needs you" (src/state/needs-you.ts, issue 26 item 7): a turn the person started and has not seen needs them;
// a program starting up, their own interrupt and a reconnection do not; an unseen end survives a restart.
import { describe, expect, it } from 'vitest';
import { isNews, PaneAttention, RECONNECT_SETTLE_MS, type AttentionTransition } from '../../src/state/needs-you.js';

const T0 = 1_700_000_000_000;
const tr = (from: string, to: string, rule: string, at: number, stalled = false) => ({ from, to, rule, at, stalled }) as AttentionTransition;

describe('needs you', () => {
  it('a turn the person started and ended needs them until acked or a new turn', () => {
    const a = new PaneAttention({ now: T0 });
    a.keys('make\r');
    a.transition(tr('IDLE', 'RUNNING', 'shell.command_running', T0 + 100));
    const end = a.transition(tr('RUNNING', 'DONE', 'shell.prompt_bracketed_paste', T0 + 9000));
    expect(end).toEqual({ needsYou: true, why: 'turn_ended' });
    expect(isNews(end)).toBe(true);
    expect(a.now('DONE', false).needsYou).toBe(true);
    a.ack();
    expect(a.now('DONE', false).needsYou).toBe(false);
  });

  it("a new pane's first turn is the person's even with no key seen (tmux keys are typed in their own client)", () => {
    const a = new PaneAttention({ now: T0 });
    a.transition(tr('IDLE', 'RUNNING', 'shell.command_running', T0 + 100));
    expect(a.transition(tr('RUNNING', 'DONE', 'shell.prompt_bracketed_paste', T0 + 900)).why).toBe('turn_ended');
  });

  it('a question and a stall need them whatever started them', () => {
    const a = new PaneAttention({ now: T0 });
    expect(a.transition(tr('RUNNING', 'WAITING_APPROVAL', 'claude.approval_menu', T0 + 1))).toEqual({ needsYou: true, why: 'question' });
    expect(a.transition(tr('RUNNING', 'RUNNING', 'timer', T0 + 2, true))).toEqual({ needsYou: true, why: 'stalled' });
  });

  it("starting a REPL is no turn to see; the REPL's own turns are", () => {
    const a = new PaneAttention({ now: T0 });
    a.keys('python3\r');
    a.transition(tr('IDLE', 'RUNNING', 'shell.command_running', T0 + 100));
    const started = a.transition(tr('RUNNING', 'DONE', 'shell.repl_prompt', T0 + 900));
    expect(started).toEqual({ needsYou: false, why: 'startup' });
    expect(isNews(started)).toBe(false);
    a.keys('1+1\r');
    a.transition(tr('DONE', 'RUNNING', 'turn.anchor_evidence', T0 + 5000));
    expect(a.transition(tr('RUNNING', 'DONE', 'shell.repl_prompt', T0 + 9000))).toEqual({ needsYou: true, why: 'turn_ended' });
  });

  it('their own interrupt (Ctrl-C, a lone Esc, the interrupt action, the program saying so) needs nobody', () => {
    for (const how of ['\x03', '\x1b', 'action', 'line'] as const) {
      const a = new PaneAttention({ now: T0 });
      a.keys('fix it\r');
      a.transition(tr('IDLE', 'RUNNING', 'claude.working_marker', T0 + 100));
      if (how === 'action') a.interruptAction();
      else if (how !== 'line') a.keys(how);
      expect(a.transition(tr('RUNNING', 'DONE', how === 'line' ? 'claude.interrupted' : 'claude.done_marker', T0 + 9000)), how).toEqual({ needsYou: false, why: 'own_interrupt' });
    }
    // An arrow key (Esc and more) is no interrupt.
    const a = new PaneAttention({ now: T0 });
    a.keys('go\r');
    a.transition(tr('IDLE', 'RUNNING', 'claude.working_marker', T0 + 100));
    a.keys('\x1b[A');
    expect(a.transition(tr('RUNNING', 'DONE', 'claude.done_marker', T0 + 9000)).why).toBe('turn_ended');
  });

  it('an unseen end survives a restart, and the replayed screen does not make it new', () => {
    const a = new PaneAttention({ now: T0, previous: { state: 'DONE', since: T0 - 60_000 } });
    expect(a.now('DONE', false)).toEqual({ needsYou: true, why: 'carried' });
    a.transition(tr('IDLE', 'RUNNING', 'turn.anchor_evidence', T0 + 500));
    const replayed = a.transition(tr('RUNNING', 'DONE', 'shell.prompt_bracketed_paste', T0 + 2500));
    expect(replayed).toEqual({ needsYou: true, why: 'carried' });
    expect(isNews(replayed)).toBe(false);
    // The person's next turn is theirs.
    a.keys('ls\r');
    a.transition(tr('DONE', 'RUNNING', 'shell.command_running', T0 + RECONNECT_SETTLE_MS + 1));
    expect(a.now('RUNNING', false).needsYou).toBe(false);
    expect(a.transition(tr('RUNNING', 'DONE', 'shell.prompt_bracketed_paste', T0 + RECONNECT_SETTLE_MS + 900)).why).toBe('turn_ended');
  });

  it('a reconnection with nothing unseen: the replayed screen needs nobody', () => {
    const a = new PaneAttention({ now: T0, previous: { state: 'IDLE', since: T0 - 60_000 } });
    a.transition(tr('IDLE', 'RUNNING', 'turn.anchor_evidence', T0 + 500));
    expect(a.transition(tr('RUNNING', 'DONE', 'shell.prompt_bracketed_paste', T0 + 2500))).toEqual({ needsYou: false, why: 'reconnected' });
  });

  it('a replay is the first read: once the pane came to a state of its own, a turn soon after, no key seen (tmux), is the person\'s', () => {
    const a = new PaneAttention({ now: T0, previous: { state: 'WAITING_APPROVAL', since: T0 - 60_000 } });
    expect(a.transition(tr('IDLE', 'WAITING_APPROVAL', 'shell.yes_no_prompt', T0 + 800)).why).toBe('question');
    expect(a.transition(tr('WAITING_APPROVAL', 'DONE', 'shell.prompt_bracketed_paste', T0 + 1500)).why).toBe('turn_ended');
    a.transition(tr('DONE', 'RUNNING', 'job.started', T0 + 3000));
    expect(a.transition(tr('RUNNING', 'DONE', 'shell.prompt_bracketed_paste', T0 + 4000)).why).toBe('turn_ended');
  });
});
