// The pane's event FIFO (a ring that grows): order kept through wrap-around and growth, size and head exact.
import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/daemon/fifo.js';

describe('Fifo', () => {
  it('gives items back in order through interleaved pushes and shifts, across wrap-around and growth', () => {
    const q = new Fifo<number>();
    const model: number[] = [];
    let next = 0;
    // A seeded walk: bursts of pushes (growing the ring past its first sizes) and of shifts (wrapping its start).
    let seed = 3;
    for (let step = 0; step < 5000; step++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const burst = 1 + (seed % 40);
      if ((seed >> 8) % 3 !== 0) for (let i = 0; i < burst; i++) (q.push(next), model.push(next++));
      else for (let i = 0; i < burst; i++) expect(q.shift()).toBe(model.shift());
      expect(q.size).toBe(model.length);
      expect(q.head).toBe(model[0]);
    }
    while (model.length) expect(q.shift()).toBe(model.shift());
    expect(q.size).toBe(0);
    expect(q.head).toBeUndefined();
    expect(q.shift()).toBeUndefined();
  });
});
