/// <reference lib="dom" />
// One board for several daemons, in a real Chromium: the hub's dashboard shows a peer daemon's pane (a real `run`
// pane on the peer) with its host badge beside the hub's own pane; the host filter shows one host's panes; a peer
// that dies leaves its card in place, marked "host unreachable since …". Waits are for text or state on the page.
// Leaves docs/dashboard-peers.png when missing or with UPDATE_SCREENSHOT=1 (a test run leaves the tree clean).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BROWSER_MISSING, launchBrowser } from '../helpers/browser.js';
import { ensureWebBuilt } from '../helpers/browser-build.js';
import { ROOT } from './harness.js';
import { daemonScratch, DaemonProcess, runWrapper, until } from './daemon-harness.js';
import type { PaneView } from '../../src/web/api-types.js';

const SCREENSHOT = join(ROOT, 'docs', 'dashboard-peers.png');
const { cleanups, dirs } = daemonScratch();

beforeAll(() => {
  ensureBuilt();
  ensureWebBuilt();
}, 120_000);

describe.skipIf(BROWSER_MISSING)("the hub's dashboard with a peer daemon's pane", () => {
  it('shows the host badge, filters by host, and marks the peer unreachable when it dies', async () => {
    const pd = dirs();
    const peer = await DaemonProcess.start(pd, ['--no-tmux']);
    cleanups.push(async () => void (await peer.stop('SIGKILL')));
    const there = runWrapper(pd, ['--name', 'on-box'], ['bash', '--norc', '--noprofile']);
    cleanups.push(() => void there.kill('SIGKILL'));

    const hd = dirs();
    writeFileSync(join(hd.dir, 'box.token'), peer.token);
    const hub = await DaemonProcess.start(hd, ['--no-tmux', '--peer', `box=${peer.url}`, '--peer-token-file', join(hd.dir, 'box.token')]);
    cleanups.push(async () => void (await hub.stop('SIGKILL')));
    const here = runWrapper(hd, ['--name', 'on-hub'], ['bash', '--norc', '--noprofile']);
    cleanups.push(() => void here.kill('SIGKILL'));
    const diag = () => `PEER ${peer.diag()}\nHUB ${hub.diag()}`;
    await until('both panes on the hub', async () => {
      const names = (await hub.get<PaneView[]>('/api/panes')).filter((p) => p.alive).map((p) => p.name);
      return names.includes('on-box') && names.includes('on-hub');
    }, diag);

    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    const { page } = browser;
    await page.goto(`${hub.url}/auth?code=${hub.code}`);
    await page.locator('#conn[data-conn="live"]').waitFor();
    const remote = page.locator('#cards > li', { has: page.locator('.open', { hasText: /^on-box$/ }) });
    const local = page.locator('#cards > li', { has: page.locator('.open', { hasText: /^on-hub$/ }) });
    await remote.waitFor();
    await local.waitFor();
    expect(await remote.locator('.host-tag').innerText()).toBe('box');
    expect(await remote.getAttribute('data-host')).toBe('box');
    expect(await local.locator('.host-tag').isHidden()).toBe(true);

    // The filter appears once a pane has a host: this machine, then box alone, then all again.
    const filter = page.locator('#host-filter');
    await filter.waitFor();
    expect(await filter.locator('option').allInnerTexts()).toEqual(['all', 'this machine', 'box']);
    await filter.selectOption({ label: 'this machine' });
    await remote.waitFor({ state: 'hidden' });
    expect(await local.isVisible()).toBe(true);
    await filter.selectOption({ label: 'box' });
    await local.waitFor({ state: 'hidden' });
    expect(await remote.isVisible()).toBe(true);
    await filter.selectOption({ label: 'all' });
    await local.waitFor();

    // The peer dies: its card stays, in its last state, saying since when its host cannot be reached.
    await peer.stop('SIGKILL');
    await remote.locator('.unreachable', { hasText: /^host unreachable since \d\d:\d\d:\d\d — last state shown: its feed closed/ }).waitFor();
    expect(await remote.getAttribute('data-unreachable')).toBe('true');
    expect(await local.getAttribute('data-unreachable')).toBe('false');
    if (!existsSync(SCREENSHOT) || process.env['UPDATE_SCREENSHOT'] === '1') await page.screenshot({ path: SCREENSHOT, clip: { x: 0, y: 0, width: 1280, height: 260 } });
  }, 120_000);
});
