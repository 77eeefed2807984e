import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (.ci/run installs it); playwright-core drives it and never downloads a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** True when the browser tests can run here; in CI they must (a missing browser fails instead of skipping). */
export const haveChromium = existsSync(CHROMIUM) || process.env.CI === 'true';

const root = new URL('../../', import.meta.url).pathname;
/** Where every screenshot goes (gitignored): the test artifacts. */
export const ARTIFACTS = join(root, 'artifacts/console');
/** Screenshots docs/console.md shows: refreshed from the artifacts with UPDATE_DOCS_SCREENSHOTS=1. */
const DOCS = join(root, 'docs/console');

/**
 * A headless Chromium that fetches nothing from outside, closed with close(). launch() gives it a fresh
 * profile in a temporary --user-data-dir of its own and removes it on close.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** Saves a screenshot of the page as a test artifact (and as the docs' copy when asked to). */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  if (process.env.UPDATE_DOCS_SCREENSHOTS === '1') {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(file, join(DOCS, `${name}.png`));
  }
  return file;
}
