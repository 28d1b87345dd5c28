// PtySource on a real pty: output, typed input, resize, foreground-job changes and exit, on the caller's clock.
import { describe, expect, it } from 'vitest';
import { PtySource } from '../../src/attach/pty-source.js';
import type { PaneEvent } from '../../src/attach/source.js';
import { RealClock } from '../../src/state/clock.js';

/** Poll interval and deadline for conditions on a live pty (normally met in milliseconds). */
const POLL_MS = 20;
const WAIT_MS = 15_000;

async function until(what: string, ok: () => boolean, diag: () => string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${diag()}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

describe('PtySource', () => {
  it('emits output, input, resize, process changes and exit, in pane-clock seconds', async () => {
    const clock = new RealClock();
    const env = { ...process.env, PS1: '$ ', INPUTRC: '/dev/null', HISTFILE: '/dev/null' };
    const src = new PtySource({ id: 'pty-test-1', name: 't', command: ['bash', '--norc', '--noprofile'], cols: 80, rows: 24, clock, env, foregroundPollMs: 50 });
    const events: PaneEvent[] = [];
    src.onEvent((e) => events.push(e));
    await src.start();
    const out = () => events.map((e) => (e.kind === 'output' ? e.data : '')).join('');
    const diag = () => JSON.stringify(events.filter((e) => e.kind !== 'output')) + '\n' + JSON.stringify(out().slice(-300));
    const procs = () => events.flatMap((e) => (e.kind === 'process' ? [e.name] : []));

    await until('the prompt', () => out().includes('$ '), diag);
    await until('bash in the foreground', () => procs().includes('bash'), diag);
    src.write('echo "id=$TERMSUPERVISOR_PANE_ID"; sleep 1\r');
    await until('the pane id echoed', () => out().includes('id=pty-test-1'), diag);
    await until('sleep in the foreground', () => procs().includes('sleep'), diag);
    await until('bash back in the foreground', () => procs().lastIndexOf('bash') > procs().indexOf('sleep'), diag);
    src.resize(100, 30);
    src.write('stty size\r');
    // Checked before exit: node-pty drops output still unread 200 ms after the child exits if node is starved.
    await until('the new size inside the pty', () => out().includes('30 100'), diag);
    src.write('exit 7\r');
    expect(await src.exited()).toEqual({ code: 7, signal: null });

    expect(events.filter((e) => e.kind === 'input').map((e) => (e as { data: string }).data)).toEqual(['echo "id=$TERMSUPERVISOR_PANE_ID"; sleep 1\r', 'stty size\r', 'exit 7\r']);
    expect(events.find((e) => e.kind === 'resize')).toMatchObject({ cols: 100, rows: 30 });
    expect(src.info).toMatchObject({ kind: 'pty', cols: 100, rows: 30, command: 'bash --norc --noprofile' });
    const last = events.at(-1)!;
    expect(last).toMatchObject({ kind: 'exit', code: 7 });
    // Times are seconds on the shared clock, in order, and never ahead of it.
    for (let i = 1; i < events.length; i++) expect(events[i]!.t).toBeGreaterThanOrEqual(events[i - 1]!.t);
    expect(last.t).toBeLessThanOrEqual(clock.now() / 1000);
  });

  it('terminate() escalates past a child that ignores the first signal', async () => {
    const src = new PtySource({ id: 'pty-test-2', name: 't', command: ['bash', '-c', 'trap "" TERM; echo ready; sleep 30'], cols: 80, rows: 24, clock: new RealClock() });
    let out = '';
    src.onEvent((e) => {
      if (e.kind === 'output') out += e.data;
    });
    await src.start();
    await until('the trap to be set', () => out.includes('ready'), () => out);
    const exit = await src.terminate('SIGTERM');
    expect(exit.signal).toBe(1); // SIGHUP, the second step
  });

  it('a one-shot program: its start is the first event, its end (128+N for a signal) comes just before its exit', async () => {
    const clock = new RealClock();
    const run = async (command: string[]) => {
      const src = new PtySource({ id: 'pty-one-shot', name: 't', command, cols: 80, rows: 24, clock, oneShot: true });
      const events: PaneEvent[] = [];
      src.onEvent((e) => events.push(e));
      await src.start();
      await src.exited();
      return events.filter((e) => e.kind !== 'output' && e.kind !== 'process');
    };
    expect(await run(['bash', '-c', 'exit 3'])).toMatchObject([
      { kind: 'command', phase: 'executed' },
      { kind: 'command', phase: 'finished', exitCode: 3 },
      { kind: 'exit', code: 3 },
    ]);
    expect((await run(['bash', '-c', 'kill -TERM $$']))[1]).toMatchObject({ kind: 'command', phase: 'finished', exitCode: 128 + 15 });
    // Without the option, a program is no command of its own.
    const src = new PtySource({ id: 'pty-session', name: 't', command: ['true'], cols: 80, rows: 24, clock });
    const kinds: string[] = [];
    src.onEvent((e) => kinds.push(e.kind));
    await src.start();
    await src.exited();
    expect(kinds).not.toContain('command');
  });
});
