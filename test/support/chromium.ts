/**
 * Headless Chromium for the tests that open a report in a browser (report-html, spec-html,
 * allure-report, the spec report of the mutation run): one place that finds the binary and
 * launches it, with background networking off, so a page's own requests are all it makes. The run
 * finds the browser once and starts it once (test/support/browser-setup.ts); test files read it
 * with `inject('browser')` and each opens a fresh context of it (its own cookies and storage).
 */
import { existsSync, rmSync } from 'node:fs';
import { readEnv, type EnvSource } from '../../helpers/base/env';
import { chromium, type BrowserContext, type BrowserServer, type Page } from 'playwright-core';
import { scratchDir } from './scratch';

/** Path of Debian's `chromium` package binary (`.ci/run` installs it when missing). */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** What turns the browser checks on, for skip lines. */
export const BROWSER_HINT = "install Debian's chromium (apt-get install -y chromium) or set CONFORMANCE_CHROMIUM=<path of a chromium binary>";

/**
 * The browser the browser checks use: `path` and where it came from, or, when none starts, `reason`
 * (one line naming what turns the checks on).
 */
export interface BrowserFound {
  path?: string;
  source?: 'CONFORMANCE_CHROMIUM' | 'debian' | '@sparticuz/chromium';
  reason?: string;
  /** The run's one running browser (test/support/browser-setup.ts), when it started: test files connect to it. */
  wsEndpoint?: string;
}

/** Command-line flags of every launch: headless, no sandbox (root), no background networking. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether the binary at `path` starts and renders a page (at most 30 s); the error text when not. */
async function starts(path: string): Promise<string | undefined> {
  try {
    const browser = await chromium.launch({ executablePath: path, headless: true, args: FLAGS, timeout: 30_000 });
    try {
      const page = await browser.newPage();
      await page.setContent('<p id="p">ok</p>');
      if ((await page.textContent('#p')) !== 'ok') return 'the page did not render';
    } finally {
      await browser.close();
    }
    return undefined;
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  }
}

/**
 * Finds a Chromium that starts: CONFORMANCE_CHROMIUM, then Debian's package, then the build shipped
 * inside `@sparticuz/chromium` (unpacked into the temporary folder on first use). Never throws.
 */
export async function findBrowser(env?: EnvSource): Promise<BrowserFound> {
  const tried: string[] = [];
  const given = readEnv('CONFORMANCE_CHROMIUM', env);
  if (given) {
    const why = existsSync(given) ? await starts(given) : 'no such file';
    if (!why) return { path: given, source: 'CONFORMANCE_CHROMIUM' };
    return { reason: `CONFORMANCE_CHROMIUM=${given} does not start (${why}); ${BROWSER_HINT}` };
  }
  if (existsSync(DEBIAN_CHROMIUM)) {
    const why = await starts(DEBIAN_CHROMIUM);
    if (!why) return { path: DEBIAN_CHROMIUM, source: 'debian' };
    tried.push(`${DEBIAN_CHROMIUM}: ${why}`);
  }
  try {
    const { default: packaged } = await import('@sparticuz/chromium');
    const path = await packaged.executablePath();
    const why = await starts(path);
    if (!why) return { path, source: '@sparticuz/chromium' };
    tried.push(`@sparticuz/chromium (${path}): ${why}`);
  } catch (e) {
    tried.push(`@sparticuz/chromium: ${(e as Error).message.split('\n')[0]}`);
  }
  return { reason: `no Chromium starts here (${tried.join('; ')}); ${BROWSER_HINT}` };
}

/**
 * Starts the browser at `path` once for the whole run, for the test files to connect to
 * ({@link openChromium}): one start instead of one per file.
 * @throws Error from playwright-core when the browser cannot start.
 */
export function startBrowserServer(path: string): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: path, headless: true, args: FLAGS, timeout: 30_000 });
}

/** An open headless browser: its context, its first page, and a close that removes the profile. */
export interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * A fresh context (viewport 1280×800) of the run's running browser when `found` names one
 * (`wsEndpoint`), else of headless Chromium launched at `found.path` on a fresh profile.
 * @throws Error from playwright-core when the browser cannot be reached or started, or when `found` has no path.
 */
export async function openChromium(found: BrowserFound): Promise<OpenBrowser> {
  if (found.wsEndpoint) {
    const browser = await chromium.connect(found.wsEndpoint);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    return {
      context,
      page,
      close: async () => {
        await context.close();
        await browser.close();
      },
    };
  }
  const executablePath = found.path;
  if (!executablePath) throw new Error(`no browser: ${found.reason ?? 'none found'}`);
  const profile = scratchDir('chromium-profile-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: FLAGS,
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
