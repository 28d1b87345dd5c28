// Never lose a question (issue 28 item 1) in `termsupervisor run` panes, through a real daemon notifying a
// recording notify-send on its PATH (the tmux side is notify-tmux.test.ts):
//   - a question asked 1.5 s after a DONE falls inside notify.min_interval_s: held (`deferred`), then sent while
//     the pane still asks, never dropped;
//   - a pane flapping between working and asking (a script asking [y/N], answered by the test, working 1 s, asking
//     again): each question, still asked when due, is delivered. The test answers a question only once it reached
//     the desktop, so a question lost (dropped as rate-limited or as a duplicate of the last) stalls the pane and
//     fails the test.
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs, DaemonProcess, until } from './daemon-harness.js';
import { Wrapped } from './harness.js';
import { calls, notifyLines, withRecordingNotifySend, writeNotifyConfig } from './notify-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

/** How many times the flapping pane asks. */
const ASKS = 4;

/** A daemon with `notify` config, a recording notify-send on its PATH; the env for `run` panes. */
async function setup(notify: Record<string, unknown>) {
  const d = daemonDirs();
  cleanups.push(() => d.cleanup());
  const { nsLog, env } = withRecordingNotifySend(d);
  writeNotifyConfig(d.dir, notify);
  const dm = await DaemonProcess.start({ ...d, env });
  cleanups.push(async () => void (await dm.stop('SIGKILL')));
  const reasons = () => notifyLines(d.dir).map((l) => `${l.state} ${l.reason}${l.held ? ' (held)' : ''}`);
  const diag = () => `notify log: ${JSON.stringify(reasons())}\nnotify-send: ${JSON.stringify(calls(nsLog))}\n${dm.diag()}`;
  const pane = (name: string, command: string[]) => {
    const w = new Wrapped(join(d.dir, `${name}.jsonl`), ['--daemon', dm.url, '--name', name, '--', ...command], env);
    cleanups.push(() => w.kill());
    return w;
  };
  const stateOf = async (name: string) => (await dm.get<Array<{ name: string; state: string }>>('/api/panes')).find((p) => p.name === name)?.state;
  return { d, dm, nsLog, reasons, diag, pane, stateOf };
}

describe('run panes: a question is held by the rate limit, never dropped', () => {
  it('a question 1.5 s after a DONE, inside min_interval_s, is deferred and sent while the pane still asks', async () => {
    // min_interval_s 6: the question 1.5 s after the DONE falls inside it.
    const { nsLog, reasons, diag, pane, stateOf } = await setup({ min_interval_s: 6, group_s: 0 });
    const w = pane('deploy', ['bash', '--norc', '--noprofile']);
    await until('the shell prompt', async () => (await stateOf('deploy')) !== undefined && /[$#] $/.test(w.output), diag);
    await w.typeLine('sleep 4');
    await until('the DONE notified', async () => calls(nsLog).length >= 1, diag, 30_000);
    expect(calls(nsLog)[0]!.at(-2)).toMatch(/^shell · deploy finished/);
    await new Promise((r) => setTimeout(r, 1500));
    await w.typeLine("read -p 'Really deploy? [y/N] ' a");
    await until('the question held', async () => reasons().includes('WAITING_APPROVAL deferred'), diag, 30_000);
    expect(calls(nsLog)).toHaveLength(1); // held: not sent yet
    await until('the question sent once the limit ended', async () => calls(nsLog).length >= 2, diag, 30_000);
    expect(await stateOf('deploy')).toBe('WAITING_APPROVAL'); // it was still asked, and still is
    const asked = calls(nsLog)[1]!;
    expect(asked[0]).toBe('--urgency=critical');
    expect(asked.slice(-2)).toEqual(['shell · deploy needs you: approval', 'Really deploy? [y/N]\nYes / No (default)']);
    expect(reasons()).toContain('WAITING_APPROVAL sent (held)');
    expect(reasons().filter((r) => r.startsWith('WAITING_APPROVAL') && !r.endsWith('(held)'))).toEqual(['WAITING_APPROVAL deferred']);
    expect(calls(nsLog)).toHaveLength(2);
  }, 120_000);

  it(`a pane flapping between working and asking (${ASKS} questions, 1 s of work between): every question reaches the desktop`, async () => {
    // min_interval_s 4 > the 1 s of work between questions: every question after the first is inside it.
    const { nsLog, reasons, diag, pane, stateOf } = await setup({ min_interval_s: 4, group_s: 0 });
    // The same words each time: each ask after an answer is a new question all the same.
    const script = `for i in $(seq 1 ${ASKS}); do read -p "Apply the next step? [y/N] " a; echo "applying $i"; sleep 1; done; echo all-applied; sleep 60`;
    const w = pane('migrate', ['bash', '-c', script]);
    const asked = () => calls(nsLog).filter((c) => c.at(-1) === 'Apply the next step? [y/N]\nYes / No (default)');
    for (let i = 1; i <= ASKS; i++) {
      await until(`question ${i} delivered`, async () => asked().length >= i, diag, 40_000);
      expect(await stateOf('migrate'), diag()).toBe('WAITING_APPROVAL');
      w.term.write('y\r');
      await w.waitOutput(`step ${i} applied`, (o) => o.includes(`applying ${i}`));
    }
    await w.waitOutput('the script done', (o) => o.includes('all-applied'));
    expect(asked(), diag()).toHaveLength(ASKS);
    expect(calls(nsLog), diag()).toHaveLength(ASKS);
    const waits = reasons().filter((r) => r.startsWith('WAITING_APPROVAL'));
    // none dropped: each was sent at once or held and sent later; never rate_limited, duplicate or answered.
    expect(waits.filter((r) => !['WAITING_APPROVAL sent', 'WAITING_APPROVAL deferred', 'WAITING_APPROVAL sent (held)'].includes(r)), diag()).toEqual([]);
    expect(waits.filter((r) => r === 'WAITING_APPROVAL deferred').length, diag()).toBeGreaterThanOrEqual(1); // the limit did hold some
  }, 180_000);
});
