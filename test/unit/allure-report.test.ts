/**
 * `npm run report:allure` builds Allure's HTML report from a run's results, and the report opens in
 * headless Chromium (Debian's package) showing the run's tests under their spec sections.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { buildAllureReport } from '../../scripts/report-allure';
import { runConformance } from '../integration/run-suite';

const CHROMIUM = '/usr/bin/chromium';
let index: string;
let browser: Browser | undefined;

beforeAll(async () => {
  // A small real run writes real Allure results (labels per clause and spec section).
  const run = await runConformance({}, ['suites/organization.test.ts']);
  expect(run.code, run.output.slice(-1000)).toBe(0);
  index = buildAllureReport(join(run.reportDir, 'allure-results'), mkdtempSync(join(tmpdir(), 'allure-report-')));
  if (existsSync(CHROMIUM)) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

describe('npm run report:allure', () => {
  test('builds one self-contained index.html', () => {
    expect(existsSync(index)).toBe(true);
  });

  test.runIf(existsSync(CHROMIUM))('the report opens in headless Chromium and lists the run\'s tests', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(index).href);
    await expect.poll(() => page.locator('body').innerText(), { timeout: 50_000 }).toMatch(/organization|tenants/i); // the page renders client-side: slow on a loaded 2-core machine
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});
