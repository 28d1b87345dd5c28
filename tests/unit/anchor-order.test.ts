// A live clock can stamp a key and its echo with the same millisecond: evidence after a turn anchor follows the
// order of events, not a strictly later timestamp.
import { describe, expect, it } from 'vitest';
import { PaneDriver } from '../helpers/driver.js';

describe('turn anchor evidence', () => {
  it('an echo stamped with the Enter key\'s own time still shows work began (silent sleep stays RUNNING)', async () => {
    const d = new PaneDriver({ agent: 'generic' });
    await d.out(0.1, '>>> ');
    await d.type(1, 'time.sleep(30)');
    const enter = 2;
    await d.input(enter, '\r');
    await d.out(enter, '\r\n'); // same stamp as the key
    await d.until(enter + 20);
    expect(d.states, d.describe()).toEqual(['RUNNING']);
    expect(d.first('RUNNING')!.t).toBeLessThan(enter + 0.5);
  });
});
