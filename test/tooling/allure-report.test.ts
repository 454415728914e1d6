/**
 * `npm run report:allure` builds Allure's HTML report from a run's results, and the report opens in
 * headless Chromium (Debian's package) showing the run's tests under their spec sections.
 */
import { afterAll, beforeAll, describe, expect, test, inject } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildAllureReport } from '../../scripts/report-allure';
import { runConformance } from '../integration/run-suite';
import { openChromium, type OpenBrowser } from '../support/chromium';
import { scratchDir } from '../support/scratch';

/** The browser of the run (test/support/browser-setup.ts); undefined when none starts here. */
const CHROMIUM = inject('browser').path;
const HAS_CHROMIUM = !!CHROMIUM;

let index: string;
let browser: OpenBrowser | undefined;

beforeAll(async () => {
  // A small real run writes real Allure results (labels per clause and spec section).
  const run = await runConformance({ CONFORMANCE_ALLURE: '1' }, ['suites/organization.test.ts']);
  expect(run.code, run.output.slice(-1000)).toBe(0);
  index = buildAllureReport(join(run.reportDir, 'allure-results'), scratchDir('allure-report-'));
  if (HAS_CHROMIUM) browser = await openChromium(inject('browser'));
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

describe('npm run report:allure', () => {
  test('builds one self-contained index.html', () => {
    expect(existsSync(index)).toBe(true);
  });

  test.runIf(HAS_CHROMIUM)(
    "the report opens in headless Chromium and lists the run's tests",
    async () => {
      const page = await browser!.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // The page renders client-side, slowly on a loaded 2-core machine; once (seen in a full npm test)
      // it stopped at its shell, so a page that has not listed the tests after 30 s is loaded again.
      const listed = () => expect.poll(() => page.locator('body').innerText(), { timeout: 30_000 }).toMatch(/organization|tenants/i);
      await page.goto(pathToFileURL(index).href);
      await listed().catch(async () => {
        await page.reload();
        await listed();
      });
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );
});
