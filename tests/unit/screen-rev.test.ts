// The screen revision (PaneView.rev, src/daemon/pane-monitor.ts): it grows when what a person sees changes, and
// not for what changes nothing they read — a cursor blinking, the same row redrawn, a spinner frame, a ticking
// timer. Real terminal and change queue, in virtual time (tests/helpers/driver.ts).
import { describe, expect, it } from 'vitest';
import { useDrivers } from '../helpers/driver.js';

const driver = useDrivers({ agent: 'shell' });

describe('screen revision', () => {
  it('grows with new text and stays for blinks, identical redraws, spinner frames and timers', async () => {
    const d = driver();
    await d.out(0, 'Deploying…\r\n⠋ waiting for the cluster (3s)');
    await d.until(1);
    const first = d.monitor.revision.value;
    expect(first).toBeGreaterThan(0);
    // Cursor blink and visibility modes, then the very same row redrawn in place.
    await d.out(1.1, '\x1b[?12h\x1b[?25l\x1b[?25h');
    await d.out(1.2, '\r\x1b[K⠋ waiting for the cluster (3s)');
    // The next spinner frame and a timer tick: the program is alive, the person has nothing new to read.
    await d.out(1.3, '\r\x1b[K⠙ waiting for the cluster (4s)');
    await d.until(3);
    expect(d.monitor.revision.value).toBe(first);
    await d.out(3.1, '\r\nProceed? [y/N] ');
    await d.until(4);
    expect(d.monitor.revision.value).toBeGreaterThan(first);
  });

  it('freshRev reads output not read yet; bumpRev spends the revision a person acted on', async () => {
    const d = driver();
    await d.out(0, '$ ');
    await d.until(1);
    const r = d.monitor.revision.value;
    // Written but not yet read by the coalescing queue: the revision an action compares against must cover it.
    await d.out(1.001, 'new text');
    expect(d.monitor.freshRev()).toBeGreaterThan(r);
    const fresh = d.monitor.revision.value;
    d.monitor.revision.bump();
    expect(d.monitor.revision.value).toBe(fresh + 1);
  });
});
