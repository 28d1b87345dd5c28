// Where keys are not seen (a tmux pane), a REPL started at the shell: its start is read from the screen (the command
// row, then `>>>`), and the process table may say `python3` only after that. A job already waiting at its own REPL
// prompt is a session that has started, not a command the person gave: no second turn, no second DONE.
import { describe, expect, it } from 'vitest';
import { useDrivers } from '../helpers/driver.js';

const driver = useDrivers();
const BP_ON = '\x1b[?2004h';
const BP_OFF = '\x1b[?2004l';

describe('a REPL started where keys are not seen', () => {
  it('the process table saying python3 after its >>> was read starts no turn', async () => {
    const d = driver({ agent: 'auto' });
    await d.process(0.05, 'bash');
    await d.out(0.1, `${BP_ON}bash-5.2# `);
    // the person types `python3` and Enter in their own tmux client: only the echo and the shell's reaction show
    await d.out(1.0, 'python3');
    await d.out(1.2, `\r\n${BP_OFF}Python 3.13.5 (main) [GCC 14.2.0] on linux\r\nType "help" for more information.\r\n>>> `);
    await d.until(4);
    const before = d.transitions.length;
    expect(d.state, d.describe()).not.toBe('RUNNING');
    await d.process(4.5, 'python3', { names: ['python'] });
    await d.until(8);
    expect(d.transitions.slice(before), d.describe()).toEqual([]);
  });

  it('a job started from the shell prompt is still a turn (sleep)', async () => {
    const d = driver({ agent: 'auto' });
    await d.process(0.05, 'bash');
    await d.out(0.1, `${BP_ON}bash-5.2# `);
    await d.out(1.0, 'sleep 30');
    await d.out(1.2, `\r\n${BP_OFF}`);
    await d.process(1.3, 'sleep');
    await d.until(3);
    expect(d.state, d.describe()).toBe('RUNNING');
  });
});
