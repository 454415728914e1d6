/**
 * The HTML report in a real browser: headless Chromium (test/support/chromium.ts says which), driven by
 * playwright-core. Renders a fixture run record, loads the file, counts the clause rows, exercises
 * the status filter, the search and an evidence expander, checks that the first screen names the
 * failing clauses and that the page makes no network request, and keeps a screenshot under reports/.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { readEnv } from '../../helpers/base/env';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { writeReports } from '../../helpers/report/writers';
import { compareRuns } from '../../helpers/report/baseline';
import { REPORT_DIR } from '../../helpers/report/vitest-reporter';
import { registerSecret } from '../../helpers/base/redact';
import { FIXTURE_SECRET, fixtureRun } from '../fixtures/report/records';
import { openChromium, type OpenBrowser } from '../support/chromium';
import { scratchDir } from '../support/scratch';

const found = inject('browser');
const CHROMIUM = found.path;

const run = fixtureRun({
  fail: ['5.1/bearer-401', '2.2/transfer-mode-enum'],
  error: ['8/backoff-429'],
  skip: { '5.4/rotation-immediate': 'missing optional fixture: set CORE_API_ROTATED_KEY' },
  omit: ['2.2/idle-timeout-range'],
});
run.comparison = compareRuns(fixtureRun(), run, 'baseline.json');
const count = (v: string) => run.clauses.filter((c) => c.verdict === v).length;

let dir: string;
let browser: OpenBrowser | undefined;
let page: Page;
const requests: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!CHROMIUM) return;
  registerSecret(FIXTURE_SECRET, 'fixture tenant key');
  dir = scratchDir('report-html-');
  await writeReports(run, dir);
  browser = await openChromium(found);
  page = browser.page;
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(pathToFileURL(join(dir, 'conformance.html')).href);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('conformance.html in headless Chromium', () => {
  test.runIf(readEnv('CONFORMANCE_REQUIRE_BROWSER'))('a browser starts where CONFORMANCE_REQUIRE_BROWSER=1 demands the browser checks (CI)', () => {
    expect(CHROMIUM, found.reason).toBeDefined();
  });

  test.runIf(!!CHROMIUM)('shows one row per clause, loads nothing from the network, and runs without script errors', async () => {
    expect(await page.locator('tr.clause').count()).toBe(run.clauses.length);
    expect(await page.locator('tr.clause:visible').count()).toBe(run.clauses.length);
    expect(await page.locator('#shown').textContent()).toBe(`${run.clauses.length} of ${run.clauses.length} clauses shown`);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  test.runIf(!!CHROMIUM)('the first screen says FAIL, the coverage figure, the regressions and which clauses fail and why', async () => {
    await page.screenshot({ path: join(REPORT_DIR, 'conformance-html.png') });
    await expect.poll(() => page.locator('h1 .verdict').textContent()).toBe('FAIL');
    const failing = page.locator('#failing tr.fail, #failing tr.error');
    expect(await failing.count()).toBe(count('fail') + count('error'));
    for (let i = 0; i < (await failing.count()); i += 1) {
      const box = await failing.nth(i).boundingBox();
      expect(box && box.y + box.height <= 800, `failing clause row ${i} is below the first screen`).toBe(true);
    }
    const why = await page.locator('#failing tr.fail td.why').first().textContent();
    expect(why).toMatch(/expected 401 UNAUTHORIZED, got 200/);
    expect(await page.locator('#changes').textContent()).toMatch(/Regressions: pass → fail \(2\)/);
    expect(await page.locator('.card').filter({ hasText: 'coverage' }).textContent()).toMatch(/85\.7%/);
  });

  test.runIf(!!CHROMIUM)('the status filter shows only the chosen verdicts and hides empty sections', async () => {
    await page.locator('.card[data-only="fail"]').click();
    expect(await page.locator('tr.clause:visible').count()).toBe(count('fail'));
    expect(await page.locator('tr.clause:visible[data-status="fail"]').count()).toBe(count('fail'));
    // §7 and §8 hold no failing clause, so their section rows are hidden
    expect(await page.locator('tbody[data-section="7"] tr.section-row').isVisible()).toBe(false);
    await page.locator('input[data-filter][value="skip"]').check();
    expect(await page.locator('tr.clause:visible').count()).toBe(count('fail') + count('skip'));
    await page.locator('#problems').click();
    expect(await page.locator('tr.clause:visible').count()).toBe(count('fail') + count('error') + count('not-covered'));
    await page.locator('#all').click();
    await page.locator('#q').fill('idleTimeoutSeconds');
    expect(await page.locator('tr.clause:visible').count()).toBe(1);
    await page.locator('#q').fill('');
    expect(await page.locator('tr.clause:visible').count()).toBe(run.clauses.length);
  });

  test.runIf(!!CHROMIUM)('a failure expands to its evidence: failing check, request (credential redacted) and answer', async () => {
    const row = page.locator('tr.clause[id="c-5.1/bearer-401"]');
    const evidence = row.locator('details .ev');
    expect(await evidence.isVisible()).toBe(false);
    await row.locator('details > summary').first().click();
    await expect.poll(() => evidence.first().isVisible()).toBe(true);
    const text = (await evidence.first().textContent()) ?? '';
    expect(text).toContain('expected: 401 UNAUTHORIZED');
    expect(text).toContain('authorization: Bearer [REDACTED]');
    expect(text).toMatch(/answer200/);
    expect(await page.locator('body').textContent()).not.toContain(FIXTURE_SECRET);
    mkdirSync(REPORT_DIR, { recursive: true });
    await page.screenshot({ path: join(REPORT_DIR, 'conformance-html-evidence.png'), fullPage: true });
  });
});
