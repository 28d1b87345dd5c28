// Turns nobody was seen submitting (a pane attached without its keystrokes): what Tier 1 alone still tells.
import { describe, expect, it } from 'vitest';
import { PaneDriver } from '../helpers/driver.js';

const codex = (s: string) => `\x1b]7501;state=${s}:app=codex\x1b\\`;

describe('Codex OSC 7501 without a submitted prompt', () => {
  it('working then error within the confirmation window is still a turn: RUNNING, then FAILED', async () => {
    const d = new PaneDriver();
    await d.out(1, codex('idle'));
    await d.out(5, codex('working'));
    await d.out(5.08, codex('error'));
    await d.until(8);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'FAILED']);
    expect(d.first('RUNNING')!.t).toBeCloseTo(5, 5);
  });

  it('the launch blip (working then idle) is no turn at all', async () => {
    const d = new PaneDriver();
    await d.out(1.8, codex('working'));
    await d.out(1.82, codex('idle'));
    await d.until(6);
    expect(d.states, d.describe()).toEqual([]);
  });
});
