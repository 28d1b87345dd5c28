// The wall clock's shared rest beat: resting panes line up on whole periods so the process wakes once for all.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealClock, VirtualClock } from '../../src/state/clock.js';

afterEach(() => vi.useRealTimers());

describe('RealClock.alignedDelay', () => {
  it('ends on the next whole multiple of the period, never later than one period', () => {
    vi.useFakeTimers();
    const c = new RealClock();
    vi.setSystemTime(1_000_000_250);
    expect(c.alignedDelay(1000)).toBe(750);
    vi.setSystemTime(1_000_000_000);
    expect(c.alignedDelay(1000)).toBe(1000); // on the beat: the next one, not zero
    vi.setSystemTime(1_000_000_999);
    expect(c.alignedDelay(1000)).toBe(1);
  });

  it('two clocks made at different times share the beat', () => {
    vi.useFakeTimers();
    vi.setSystemTime(5_000_123);
    const a = new RealClock();
    vi.setSystemTime(5_000_456);
    const b = new RealClock();
    expect(5_000_456 + a.alignedDelay(1000)).toBe(5_000_456 + b.alignedDelay(1000));
  });

  it('virtual time has no beat (replays stay deterministic)', () => {
    expect((new VirtualClock() as { alignedDelay?: unknown }).alignedDelay).toBeUndefined();
  });
});
