/**
 * reports/spec.html in headless Chromium: a fixture run with a failing clause is
 * annotated onto the spec; the failing statement is marked, listed on the first screen, and a click
 * shows its clause, tests and failure message. The page loads nothing from the network.
 */
import { afterAll, beforeAll, describe, expect, test, inject } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { writeReports } from '../../helpers/report/writers';
import { readSpec, SPEC_NEEDED } from '../../helpers/spec/spec-doc';
import { attachStatements } from '../../helpers/report/statements';
import { renderSpecHtml } from '../../helpers/report/spec-html';
import { fixtureRun } from '../fixtures/report/records';
import { openChromium, type OpenBrowser } from '../support/chromium';
import { scratchDir } from '../support/scratch';

/** The browser of the run (test/support/browser-setup.ts); undefined when none starts here. */
const CHROMIUM = inject('browser').path;
const HAS_CHROMIUM = !!CHROMIUM;

const spec = readSpec();
const FAILED = '5.1/bearer-401';
const run = fixtureRun({ fail: [FAILED] });
attachStatements(run, spec);
const runnable = HAS_CHROMIUM && !!spec;

let dir: string;
let browser: OpenBrowser | undefined;
let page: Page;
const requests: string[] = [];

beforeAll(async () => {
  if (!runnable) return;
  dir = scratchDir('spec-html-');
  const out = await writeReports(run, dir);
  expect(out.spec).toBeDefined();
  browser = await openChromium(inject('browser'));
  page = browser.page;
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(out.spec!).href);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!spec)(`spec.html${spec ? '' : ` (${SPEC_NEEDED})`}`, () => {
  test('the run record carries per-statement verdicts and a coverage figure', () => {
    const sts = run.spec!.statements;
    expect(sts.length).toBe(spec!.sections.reduce((n, s) => n + s.statements.length, 0));
    expect(sts.some((s) => s.verdict === 'fail' && s.clauses.includes(FAILED))).toBe(true);
    expect(run.summary.statementCoverage).toBeGreaterThan(0);
  });

  test('the run record and the page carry the strength figure; a statement whose way is covered by the failing clause is not strong', () => {
    const sts = run.spec!.statements;
    expect(typeof run.summary.statementStrength).toBe('number');
    const weak = sts.filter((s) => s.ways?.tests.includes(FAILED));
    expect(weak.length).toBeGreaterThan(0);
    for (const s of weak) expect(s.strong).toBe(false);
    const html = renderSpecHtml(spec!, run);
    expect(html).toContain('Strength: ');
    expect(html).toContain('not strong: a covering clause did not pass in this run');
  });

  test.runIf(runnable)('marks the failing statement, lists it first, and shows its clause on click', async () => {
    const total = run.spec!.statements.length;
    expect(await page.locator('details.st').count()).toBe(total);
    const failing = page.locator('#failing li');
    expect(await failing.count()).toBe(run.spec!.statements.filter((s) => s.verdict === 'fail').length);
    expect(await failing.first().isVisible()).toBe(true);
    const target = (await failing.first().locator('a').getAttribute('href'))!;
    const st = page.locator(target);
    expect(await st.getAttribute('data-verdict')).toBe('fail');
    expect(await st.locator('code', { hasText: FAILED }).isVisible()).toBe(false);
    await st.locator('summary').click();
    expect(await st.locator('code', { hasText: FAILED }).isVisible()).toBe(true);
    expect(await st.locator('pre').first().isVisible()).toBe(true);
    await st.locator('a', { hasText: FAILED }).click();
    expect(await page.locator('div.clause.v-fail ul.tests li').first().isVisible()).toBe(true);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(readFileSync(join(dir, 'spec.html'), 'utf8')).not.toMatch(/<script|<link|src=/);
  });
});
