/**
 * Debian's headless Chromium for the tests that open a report in a browser (report-html,
 * spec-html, allure-report, spec-report-fault): one place for its path and its launch, on a
 * throwaway profile with background networking off, so a page's own requests are all it makes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Path of Debian's `chromium` package binary (`.ci/run` installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser is installed here; the browser tests run only then. */
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** An open headless browser: its context, its first page, and a close that removes the profile. */
export interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium on a fresh profile (viewport 1280×800).
 * @throws Error from playwright-core when the browser cannot start.
 */
export async function openChromium(): Promise<OpenBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
