// A real Chromium for the dashboard tests: Debian's /usr/bin/chromium driven by playwright-core (no browser
// download: there is no internet). `make test` installs it when missing; when it still is not there the browser
// tests are skipped with BROWSER_MISSING as the loud reason.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. */
export const BROWSER_MISSING: string | null = existsSync(CHROMIUM)
  ? null
  : `${CHROMIUM} is missing: the dashboard browser tests are SKIPPED. Install it with \`apt-get install -y chromium\` (make test does so when run as root).`;

if (BROWSER_MISSING) console.warn(`\n*** ${BROWSER_MISSING} ***\n`);

// Without the background-networking flags Chromium's own connections (updates, sync, field trials) are refused
// many at a time on a closed network and slow everything down.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile (a persistent context: the only way to choose --user-data-dir). */
export async function launchBrowser(viewport = { width: 1280, height: 800 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'ts-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
      if (errors.length) throw new Error(`the page threw:\n${errors.join('\n')}`);
    },
  };
}
