// One real daemon and one real Chromium for a dashboard test file: started before its tests (after the CLI and the
// dashboard are built), the daemon's output printed when a test fails, both stopped after.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ensureBuilt } from './build.js';
import { launchBrowser, type Browser } from './browser.js';
import { ensureWebBuilt } from './browser-build.js';
import { Daemon } from './browser-daemon.js';

export interface BrowserSession {
  readonly daemon: Daemon;
  readonly browser: Browser;
}

/** Registers the hooks; read `daemon` and `browser` inside tests. `extraEnv`: more environment for the daemon. */
export function browserSession(extraEnv: Record<string, string> = {}, cleanup: () => unknown = () => {}): BrowserSession {
  let daemon: Daemon | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    ensureBuilt();
    ensureWebBuilt();
    daemon = await Daemon.start(extraEnv);
    browser = await launchBrowser();
  });
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') console.error(daemon?.diag());
  });
  afterAll(async () => {
    await cleanup();
    await browser?.close();
    await daemon?.stop();
  });
  return {
    get daemon() {
      return daemon!;
    },
    get browser() {
      return browser!;
    },
  };
}
