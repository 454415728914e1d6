/**
 * The spec as the report, on a real fault: the auth suite runs once against a clean simulator and
 * once against one with fault `auth.accept-bearer` (the `Bearer` scheme is accepted, §5.1). The
 * fault run's `reports/spec.html` marks the §5.1 statement as failing, on its first screen and in
 * place (headless Chromium); `compare-targets` over the two records lists the broken clauses first.
 */
import { afterAll, beforeAll, describe, expect, test, inject } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runConformance, type ConformanceRunResult } from '../../helpers/mutation/run';
import { startFaultySimulator } from '../../helpers/mutation/simulator';
import { compareTargets } from '../../helpers/report/compare-targets';
import { SPEC_NEEDED, SPEC_PATH } from '../../helpers/report/spec-doc';
import { openChromium } from '../support/chromium';

/** The browser of the run (test/support/browser-setup.ts); undefined when none starts here. */
const CHROMIUM = inject('browser').path;
const HAS_CHROMIUM = !!CHROMIUM;

const root = resolve(__dirname, '..', '..');
const hasSpec = existsSync(SPEC_PATH);
const FAULT = 'auth.accept-bearer';
const BROKEN = '5.1/bearer-401';

let dir: string;
const runs: Record<'clean' | 'fault', ConformanceRunResult | undefined> = { clean: undefined, fault: undefined };

beforeAll(async () => {
  if (!hasSpec) return;
  dir = mkdtempSync(join(tmpdir(), 'spec-report-fault-'));
  for (const [name, faults] of [['clean', []], ['fault', [FAULT]]] as const) {
    const sim = await startFaultySimulator([...faults]);
    try {
      runs[name] = await runConformance({
        projectRoot: root,
        baseUrl: sim.baseUrl,
        controlUrl: sim.controlUrl,
        files: ['suites/auth.test.ts'],
        runDir: join(dir, name),
        // The child runs in its own folder: it finds the spec through the variable.
        extraEnv: { CORE_API_SPEC: resolve(SPEC_PATH) },
      });
    } finally {
      await sim.close();
    }
  }
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasSpec)(`the spec report on a fault run${hasSpec ? '' : ` (${SPEC_NEEDED})`}`, () => {
  test('the fault run fails the clause, and the statement of §5.1 that it tests', () => {
    const fault = runs.fault!.record;
    expect(fault.clauses.find((c) => c.id === BROKEN)?.verdict).toBe('fail');
    expect(runs.clean!.record.clauses.find((c) => c.id === BROKEN)?.verdict).toBe('pass');
    const statement = fault.spec?.statements.find((s) => s.clauses.includes(BROKEN));
    expect(statement?.verdict).toBe('fail');
  });

  test('compare-targets lists the broken clauses first', () => {
    const table = compareTargets([runs.clean!.record, runs.fault!.record]);
    const disagreeing = table.rows.filter((r) => r.disagree).map((r) => r.id);
    expect(disagreeing).toContain(BROKEN);
    expect(table.rows.slice(0, disagreeing.length).map((r) => r.id)).toEqual(disagreeing);
    expect(table.rows.find((r) => r.id === BROKEN)!.verdicts).toEqual(['pass', 'fail']);
  });

  test.runIf(HAS_CHROMIUM)('spec.html of the fault run marks the failing statement on its first screen and in place', async () => {
    const html = join(dir, 'fault', 'reports', 'spec.html');
    expect(existsSync(html)).toBe(true);
    const browser = await openChromium(CHROMIUM!);
    try {
      const page = browser.page;
      await page.goto(pathToFileURL(html).href);
      const failing = page.locator('#failing li');
      expect(await failing.count()).toBeGreaterThan(0);
      const target = (await failing.first().locator('a').getAttribute('href'))!;
      const st = page.locator(target);
      expect(await st.getAttribute('data-verdict')).toBe('fail');
      await st.locator('summary').click();
      expect(await st.locator('code', { hasText: BROKEN }).isVisible()).toBe(true);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
