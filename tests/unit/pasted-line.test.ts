// A line written to a shell whole, with its Enter (a paste, `tmux send-keys`, a script feeding stdin): bash echoes
// the text first and the line break after it, sometimes in separate reads. A screen read between the two shows the
// submitted line still on the prompt row, bracketed paste still on: no work seen yet, and no DONE. Real PaneMonitor,
// real @xterm/headless, virtual time.
import { afterEach, describe, expect, it } from 'vitest';
import { PaneFeeder } from '../helpers/pane-feeder.js';

const feeders: PaneFeeder[] = [];
afterEach(() => {
  for (const f of feeders.splice(0)) f.stop();
});

const PROMPT = '\x1b[?2004h$ ';

describe('a line pasted whole into bash', () => {
  it('reads RUNNING for the command, never DONE between the echo and its line break', async () => {
    const f = new PaneFeeder({ agent: 'shell' });
    feeders.push(f);
    await f.output(PROMPT);
    await f.settle(2000);
    await f.input('sleep 1; echo ok\r', 0);
    await f.output('sleep 1; echo ok', 5);
    // bash is slow to go on (a loaded machine): several reads see the echo alone
    await f.settle(400);
    expect(f.monitor.transitions.map((t) => t.to)).not.toContain('DONE');
    await f.output('\r\n\x1b[?2004l\r', 5);
    await f.settle(1000);
    await f.output('ok\r\n', 0);
    await f.output(PROMPT, 5);
    await f.settle(3000);
    expect(f.monitor.transitions.map((t) => `${t.from}>${t.to}`)).toEqual(['IDLE>RUNNING', 'RUNNING>DONE']);
  });
});
