// When piped input ends, Ctrl-D goes to the pane only while it is at rest, and again at its next rest.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EOF_SETTLE_MS, EofWhenIdle } from '../../src/cli/eof-when-idle.js';

describe('EofWhenIdle', () => {
  let now = 0;
  let lastOutput = 0;
  let atRest = false;
  let sent: number[] = [];
  const make = () => new EofWhenIdle({ now: () => now, lastOutputAt: () => lastOutput, atRest: () => atRest, sendEof: () => sent.push(now) });
  /** Advance the fake clock and the fake timers together. */
  const advance = (ms: number) => {
    for (let i = 0; i < ms; i += 10) {
      now += 10;
      vi.advanceTimersByTime(10);
    }
  };

  beforeEach(() => {
    vi.useFakeTimers();
    now = 0;
    lastOutput = 0;
    atRest = false;
    sent = [];
  });
  afterEach(() => vi.useRealTimers());

  it('waits while the program works, then sends once it is quiet and at rest', () => {
    const e = make();
    e.start();
    advance(2000);
    expect(sent).toEqual([]);
    atRest = true;
    advance(200);
    expect(sent.length).toBe(1);
    e.stop();
  });

  it('never sends while output is still arriving', () => {
    const e = make();
    atRest = true;
    e.start();
    for (let i = 0; i < 20; i++) {
      lastOutput = now;
      advance(EOF_SETTLE_MS - 100);
    }
    expect(sent).toEqual([]);
    e.stop();
  });

  it('repeats at the next rest after the program reacted, and only slowly when it did not', () => {
    const e = make();
    atRest = true;
    e.start();
    advance(EOF_SETTLE_MS + 50);
    expect(sent.length).toBe(1);
    advance(500); // ignored: no output since, too soon to retry
    expect(sent.length).toBe(1);
    advance(600); // a second Ctrl-D once the retry interval has passed
    expect(sent.length).toBe(2);
    lastOutput = now; // a REPL exited and its shell drew a prompt
    advance(EOF_SETTLE_MS + 50);
    expect(sent.length).toBe(3);
    e.stop();
    advance(5000);
    expect(sent.length).toBe(3);
  });
});
