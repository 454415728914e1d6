/**
 * Report writers: everything under reports/ that is computed from the run record alone.
 * `conformance.json` is written by the reporter; this module writes `conformance.md`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from './model';
import { redact } from '../redact';

/** Renders the Markdown report (fits a CI job summary): totals, failures first with evidence, then the clause table. */
export function renderMarkdown(run: RunRecord): string {
  const s = run.summary;
  const cs = run.clauseSummary;
  const lines: string[] = [];
  lines.push(`# Core API conformance: ${s.failed === 0 && s.errors === 0 ? 'PASS' : 'FAIL'}`);
  lines.push('');
  lines.push(`Target: ${run.target.mode} ${run.target.baseUrl} · ${run.startedAt} → ${run.finishedAt}`);
  lines.push('');
  lines.push(`Tests: ${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped (${s.total} in all)`);
  lines.push(
    `Clauses: ${cs.pass} pass, ${cs.fail} fail, ${cs.error} error, ${cs.skip} skip, ${cs['not-covered']} not covered, ${cs['not-testable']} not testable · coverage ${(cs.coverage * 100).toFixed(1)}%`,
  );
  lines.push(`Requests: ${run.requests.total} (${run.requests.retries} retries)`);
  const failures = run.tests.filter((t) => t.status === 'fail' || t.status === 'error');
  if (failures.length) {
    lines.push('', '## Failures', '');
    for (const t of failures) {
      lines.push(`### ${t.status === 'error' ? 'ERROR' : 'FAIL'}: ${t.name}`, '', `File: \`${t.file}\` · clauses: ${t.clauses.join(', ')}`, '');
      lines.push('```', (t.message ?? '').slice(0, 3000), '```', '');
    }
  }
  lines.push('', '## Clauses', '', '| clause | level | verdict | tests |', '|---|---|---|---|');
  for (const c of run.clauses) lines.push(`| ${c.id} | ${c.level} | ${c.verdict} | ${c.tests.length} |`);
  if (run.drift.length) {
    lines.push('', '## Drift (informational)', '', '| kind | where | what | tests |', '|---|---|---|---|');
    for (const d of run.drift) lines.push(`| ${d.kind} | ${d.where} | ${d.what} | ${d.tests.length} |`);
  }
  return redact(lines.join('\n') + '\n');
}

/** Writes every derived report into `dir`. */
export async function writeReports(run: RunRecord, dir: string): Promise<void> {
  writeFileSync(join(dir, 'conformance.md'), renderMarkdown(run));
}
