// The set-up every stand-in dashboard test file shares: one real browser for the file, a fresh stand-in daemon
// per test, and load() opening the dashboard until its feed is live. Call inside the file's describe.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from './browser.js';
import { ensureWebBuilt } from './browser-build.js';
import { FakeDaemon } from './browser-fake-daemon.js';

export interface StandIn {
  readonly page: Page;
  readonly daemon: FakeDaemon;
  load(): Promise<void>;
}

export function standInDashboard(): StandIn {
  let browser: Browser | undefined;
  let daemon: FakeDaemon | undefined;
  beforeAll(async () => {
    ensureWebBuilt();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    daemon = await FakeDaemon.start();
  });
  afterEach(async () => {
    await daemon?.close();
  });
  return {
    get page() {
      return browser!.page;
    },
    get daemon() {
      return daemon!;
    },
    async load() {
      await browser!.page.goto(daemon!.url + '/');
      await browser!.page.locator('#conn[data-conn="live"]').waitFor();
    },
  };
}
