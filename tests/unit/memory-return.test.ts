// When the daemon asks V8 for a full collection after a storm (src/daemon/memory-return.ts): a heap mostly empty, or
// a heap in use grown well past what the last full collection left (a storm's garbage in the old generation counts
// as in use until one runs), and not for a daemon whose heap stays as it was.
import { describe, expect, it } from 'vitest';
import { nextFloor, worthCollecting, worthTrimming } from '../../src/daemon/memory-return.js';

const MB = 1 << 20;

describe('memory return', () => {
  it('asks after a storm whose garbage still counts as in use (the hostile bench: 198 MB of 227 MB, 38 MB once collected)', () => {
    expect(worthCollecting({ heapTotal: 227 * MB, heapUsed: 198 * MB }, 38 * MB)).toBe('collect');
  });

  it('asks for the pages back when most of the heap is empty (after that collection: 48 MB in use of 190 MB)', () => {
    expect(worthCollecting({ heapTotal: 190 * MB, heapUsed: 48 * MB }, 48 * MB)).toBe('shrink');
  });

  it('does not ask for a heap as it was, nor for one grown a little, nor for a small one grown by half', () => {
    expect(worthCollecting({ heapTotal: 60 * MB, heapUsed: 40 * MB }, 38 * MB)).toBeNull();
    expect(worthCollecting({ heapTotal: 90 * MB, heapUsed: 66 * MB }, 38 * MB)).toBeNull();
    expect(worthCollecting({ heapTotal: 20 * MB, heapUsed: 15 * MB }, 10 * MB)).toBeNull();
  });
});

describe('the floor a collection leaves', () => {
  it('a collection during a storm that freed much leaves the floor where it was: the storm\'s garbage is asked for later', () => {
    // 500 panes joined and still open: the collection freed 40 MB and left 130 MB in use
    const floor = nextFloor(35 * MB, 170 * MB, 130 * MB);
    expect(floor).toBe(35 * MB);
    // once they closed, 135 MB in use (33 MB once collected) is worth a collection
    expect(worthCollecting({ heapTotal: 171 * MB, heapUsed: 135 * MB }, floor)).toBe('collect');
  });

  it('a collection that freed little means the heap grew for real: the floor rises and it is not chased', () => {
    const floor = nextFloor(35 * MB, 140 * MB, 130 * MB);
    expect(floor).toBe(130 * MB);
    expect(worthCollecting({ heapTotal: 171 * MB, heapUsed: 140 * MB }, floor)).toBeNull();
  });
});

describe('when free malloc memory is given back', () => {
  it('after a storm: malloc holds much more free than after the last trim (the hostile bench: 88 MB)', () => {
    expect(worthTrimming(88 * MB, 1 * MB)).toBe(true);
    expect(worthTrimming(40 * MB, 30 * MB)).toBe(true);
  });

  it('not for the little a quiet daemon frees and reuses, nor where the C library does not say', () => {
    expect(worthTrimming(5 * MB, 1 * MB)).toBe(false);
    expect(worthTrimming(30 * MB, 30 * MB)).toBe(false);
    expect(worthTrimming(-1, -1)).toBe(false);
  });
});
