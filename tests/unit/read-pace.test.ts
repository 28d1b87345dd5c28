// One pane's screen reads take a bounded share of the thread (issue 27, item 3: whatever a pattern costs on a
// pathological screen): after a slow read, the pane's next unforced read waits in proportion; quick reads never
// wait; a replay's pane (untimed) never waits.
import { describe, expect, it } from 'vitest';
import { ReadPace, SLOW_READ_MS, SLOW_READ_SHARE } from '../../src/daemon/read-pace.js';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the read's cost
  }
}

describe('read pace', () => {
  it('a slow read holds the next unforced one back until the pane has had its share', () => {
    const pace = new ReadPace(true);
    pace.start();
    busy(SLOW_READ_MS * 2);
    pace.done(10);
    const wait = ((SLOW_READ_MS * 2) / 1000) * (1 / SLOW_READ_SHARE - 1);
    expect(pace.waits(10 + wait * 0.9)).toBe(true);
    expect(pace.waits(10 + wait * 2 + 1)).toBe(false);
  });

  it('quick reads never wait; an untimed (replay) pane never waits', () => {
    const quick = new ReadPace(true);
    quick.start();
    quick.done(5);
    expect(quick.waits(5)).toBe(false);
    const replay = new ReadPace(false);
    replay.start();
    busy(SLOW_READ_MS * 2);
    replay.done(5);
    expect(replay.waits(5)).toBe(false);
  });
});
