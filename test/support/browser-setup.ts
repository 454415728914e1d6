/**
 * Global set-up of the `unit` and `integration` projects: finds the headless Chromium the browser
 * checks drive, once per run, and hands its path to the test files (`inject('browser')`).
 *
 * Where the browser comes from, first found wins:
 * 1. `CONFORMANCE_CHROMIUM=<path of a chromium binary>`;
 * 2. Debian's `chromium` package (`/usr/bin/chromium`; `.ci/run` installs it);
 * 3. `@sparticuz/chromium`, a dev dependency that ships a Chromium build inside the npm package
 *    (no download at install time); it is unpacked into the system temporary folder on first use.
 * A candidate counts only once it has started and shown a page. When none does, every browser check
 * skips and this set-up prints one line saying why and what turns them on. With
 * `CONFORMANCE_REQUIRE_BROWSER=1` (set by `.ci/run`) a missing browser fails the run instead.
 */
import type { TestProject } from 'vitest/node';
import { readEnv } from '../../helpers/base/env';
import type { BrowserServer } from 'playwright-core';
import { findBrowser, startBrowserServer, type BrowserFound } from './chromium';
import { joinShared } from './shared-by-projects';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The browser the browser checks use, or why there is none (test/support/browser-setup.ts). */
    browser: BrowserFound;
  }
}

/** Finds the browser and starts it once; when it cannot be kept running, files launch their own. */
async function findAndStart(): Promise<{ found: BrowserFound; server?: BrowserServer }> {
  const found = await findBrowser();
  if (!found.path) return { found };
  try {
    const server = await startBrowserServer(found.path);
    return { found: { ...found, wsEndpoint: server.wsEndpoint() }, server };
  } catch {
    return { found };
  }
}

/**
 * Finds the browser, starts it once for the run, and provides it to the project's test files:
 * one look per process, shared by the projects' set-ups (the unpacking must not race); the
 * returned teardown closes it after the last project using it.
 * @throws Error when CONFORMANCE_REQUIRE_BROWSER=1 and no browser starts.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const share = joinShared('browser', findAndStart, async (running) => (await running).server?.close());
  const { found } = await share.value;
  if (!found.path) {
    if (readEnv('CONFORMANCE_REQUIRE_BROWSER')) {
      await share.leave();
      throw new Error(`CONFORMANCE_REQUIRE_BROWSER=1 but the browser checks cannot run: ${found.reason}`);
    }
    if (share.first) console.warn(`browser checks skipped: ${found.reason}`);
  }
  project.provide('browser', found);
  return share.leave;
}
