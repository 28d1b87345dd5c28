// Issue 26 item 20: two `run` panes may share --name, and nothing said so (then `wait api` and `focus api` ask
// for an id). The second wrapper says it, before its program starts, against a real daemon process.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { daemonScratch, DaemonProcess, runWrapper, until } from './daemon-harness.js';
import type { PaneView } from '../../src/web/api-types.js';

const { cleanups, dirs } = daemonScratch();
beforeAll(() => ensureBuilt(), 120_000);

describe('run --name', () => {
  it('a second live pane of the same name is told so; a different name is not', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const first = runWrapper(d, ['--name', 'api'], ['bash', '--norc', '--noprofile']);
    cleanups.push(() => void first.kill('SIGKILL'));
    const one = await until('the first pane', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.name === 'api' && p.alive), () => dm.diag() + first.out);
    expect(first.out).not.toContain('already named');

    const second = runWrapper(d, ['--name', 'api'], ['bash', '--norc', '--noprofile']);
    cleanups.push(() => void second.kill('SIGKILL'));
    const other = runWrapper(d, ['--name', 'web'], ['bash', '--norc', '--noprofile']);
    cleanups.push(() => void other.kill('SIGKILL'));
    await until('both panes', async () => (await dm.get<PaneView[]>('/api/panes')).filter((p) => p.alive).length === 3, () => dm.diag() + second.out);
    expect(second.out).toContain(`another live pane is already named "api" (${one.id})`);
    expect(other.out).not.toContain('already named');
  }, 60_000);
});
