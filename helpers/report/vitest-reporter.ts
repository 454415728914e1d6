/**
 * vitest reporter that turns the conformance project's results into the run record
 * (`reports/conformance.json`, see model.ts), hands it to the report writers, and prints the
 * closing lines `unit: …` and `conformance: N passed, N failed, N skipped`.
 * Runs in vitest's main process; every message is redacted again with the secrets known there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { loadCatalogue } from '../catalogue';
import { readTargetConfig, describeTarget, EMBEDDED_BASE_URL_VAR } from '../target';
import { redact, registerSecret } from '../redact';
import { clauseVerdicts, summariseClauses, type RunRecord, type TestRecord, type TestVerdict } from './model';
import { writeReports } from './writers';
import '../meta';

/** Folder run output is written to. */
export const REPORT_DIR = resolve(process.cwd(), process.env.CONFORMANCE_REPORT_DIR ?? 'reports');

function fullName(tc: TestCase): string {
  const parts: string[] = [tc.name];
  let parent: any = tc.parent;
  while (parent && parent.type === 'suite') {
    parts.unshift(parent.name);
    parent = parent.parent;
  }
  return parts.join(' > ');
}

function toRecord(tc: TestCase, root: string): TestRecord {
  const meta = tc.meta();
  const result = tc.result();
  const diag = tc.diagnostic();
  let status: TestVerdict =
    result.state === 'passed' ? 'pass' : result.state === 'failed' ? 'fail' : 'skip';
  const firstError = result.state === 'failed' ? result.errors?.[0] : undefined;
  if (status === 'fail' && (meta.targetTrouble || firstError?.name === 'TargetError' || firstError?.name === 'ControlError')) {
    // The target (or the network) misbehaved: report an error, not a conformance failure.
    const conformance = firstError?.name === 'ConformanceFailure' && !meta.targetTrouble;
    if (!conformance) status = 'error';
  }
  let message: string | undefined;
  if (firstError) message = redact(firstError.message ?? String(firstError));
  if (status === 'skip') message = meta.skipReason ?? (result as any).note ?? 'skipped';
  return {
    name: fullName(tc),
    file: relative(root, tc.module.moduleId),
    clauses: meta.clauses ?? [],
    status,
    durationMs: Math.round(diag?.duration ?? 0),
    message,
    checks: (meta.checks ?? []).map((c) => ({ ...c, detail: c.detail ? redact(c.detail) : undefined })),
    requests: meta.requests ?? 0,
    retries: meta.retries ?? 0,
    drift: meta.drift ?? [],
    evidence: status === 'fail' || status === 'error' ? JSON.parse(redact(JSON.stringify(meta.exchanges ?? []))) : undefined,
  };
}

/** The reporter; registered in vitest.config.ts. */
export default class ConformanceReporter implements Reporter {
  private startedAt = new Date();

  onTestRunStart(): void {
    this.startedAt = new Date();
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const root = process.cwd();
    let target = { mode: 'embedded', baseUrl: process.env[EMBEDDED_BASE_URL_VAR] ?? '' };
    try {
      const t = readTargetConfig();
      target = describeTarget(t);
      if (t.live) for (const [k, v] of Object.entries(t.live)) if (/key|secret/i.test(k)) registerSecret(v as string, k);
    } catch {
      // target config errors were already reported by global setup
    }
    const counts = { unit: { passed: 0, failed: 0, skipped: 0 }, conformance: { passed: 0, failed: 0, skipped: 0 } };
    const tests: TestRecord[] = [];
    const perFile: Record<string, number> = {};
    let conformanceRan = false;
    for (const mod of testModules) {
      const project = mod.project.name === 'conformance' ? 'conformance' : 'unit';
      if (project === 'conformance') conformanceRan = true;
      for (const tc of mod.children.allTests()) {
        const state = tc.result().state;
        const bucket = counts[project];
        if (state === 'passed') bucket.passed += 1;
        else if (state === 'failed') bucket.failed += 1;
        else bucket.skipped += 1;
        if (project === 'conformance') {
          const rec = toRecord(tc, root);
          tests.push(rec);
          perFile[rec.file] = (perFile[rec.file] ?? 0) + rec.requests;
        }
      }
    }
    if (conformanceRan) {
      const catalogue = loadCatalogue();
      const clauses = clauseVerdicts(catalogue, tests);
      const driftMap = new Map<string, RunRecord['drift'][number]>();
      for (const t of tests)
        for (const d of t.drift) {
          const key = `${d.kind}|${d.where}|${d.what}`;
          const e = driftMap.get(key) ?? { ...d, tests: [] };
          if (!e.tests.includes(t.name)) e.tests.push(t.name);
          driftMap.set(key, e);
        }
      const record: RunRecord = {
        schemaVersion: 1,
        target,
        startedAt: this.startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        summary: {
          passed: tests.filter((t) => t.status === 'pass').length,
          failed: tests.filter((t) => t.status === 'fail').length,
          skipped: tests.filter((t) => t.status === 'skip').length,
          errors: tests.filter((t) => t.status === 'error').length,
          total: tests.length,
        },
        clauseSummary: summariseClauses(clauses),
        requests: {
          total: tests.reduce((n, t) => n + t.requests, 0),
          retries: tests.reduce((n, t) => n + t.retries, 0),
          perFile,
        },
        drift: [...driftMap.values()],
        tests,
        clauses,
      };
      mkdirSync(REPORT_DIR, { recursive: true });
      writeFileSync(join(REPORT_DIR, 'conformance.json'), redact(JSON.stringify(record, null, 2)));
      await writeReports(record, REPORT_DIR);
    }
    mkdirSync(REPORT_DIR, { recursive: true });
    writeFileSync(join(REPORT_DIR, 'run-summary.json'), JSON.stringify(counts, null, 2));
    const line = (c: { passed: number; failed: number; skipped: number }) =>
      `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`;
    const u = counts.unit;
    if (u.passed + u.failed + u.skipped > 0) console.log(`unit: ${line(u)}`);
    if (conformanceRan) console.log(`conformance: ${line(counts.conformance)}`);
  }
}
