/**
 * Writes the kill matrix as `mutation.json` and `mutation.md`. Rendered from the
 * {@link MutationReport} alone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closingLine, type FailingTest, type MutationReport } from './matrix';

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function testList(tests: FailingTest[], max = 3): string {
  if (tests.length === 0) return '';
  const shown = tests.slice(0, max).map((t) => `\`${t.file.replace(/^suites\//, '')}\`: ${cell(t.name)}${t.status === 'error' ? ' (error)' : ''}`);
  return shown.join('<br>') + (tests.length > max ? `<br>… ${tests.length - max} more` : '');
}

/** The Markdown kill matrix: totals, one row per fault, one row per suite file, baseline failures. */
export function renderMarkdown(r: MutationReport): string {
  const lines: string[] = [];
  lines.push('# Mutation run: kill matrix', '');
  lines.push(
    `Faults: ${r.totals.faults} · killed: ${r.totals.killed} · survived: ${r.totals.survived}${r.totals.errors ? ` · run errors: ${r.totals.errors}` : ''}` +
      ` · wall time: ${(r.wallMs / 1000).toFixed(1)} s · workers: ${r.workers} · selection: ${r.selection}${r.firstKill ? ' · runs stop at the first kill' : ''}`,
    '',
  );
  lines.push(
    'A fault is killed only when a failing test names one of the catalogue clauses the fault breaks and passed in the baseline run. ' +
      'A survivor is a missing test. See docs/mutation.md.',
    '',
  );
  lines.push('## Faults', '', '| fault | group | verdict | killed by | tests selected | files run | note |', '|---|---|---|---|---|---|---|');
  for (const f of r.faults) {
    const verdict =
      f.verdict === 'killed'
        ? f.stoppedEarly
          ? 'killed (first kill)'
          : `killed (${f.killedBy.length})`
        : f.verdict === 'error'
          ? '**run error**'
          : '**survived**';
    lines.push(
      `| \`${f.name}\` | ${f.group} | ${verdict} | ${testList(f.killedBy)} | ${f.files.length === 0 ? 'none' : (f.selectedTests ?? 'whole files')} | ${f.files.map((x) => x.replace(/^suites\//, '')).join(', ')} | ${cell(f.note ?? '')} |`,
    );
  }
  if (r.ways) {
    const w = r.ways;
    lines.push(
      '',
      '## Ways (spec/statements.json)',
      '',
      `Ways whose fault ran: ${w.proven} proven (killed by a test of the way's clause), ${w.unproven.length} unproven, ${w.notShown.length} not shown by a first-kill run (\`--exhaustive\` shows them).`,
    );
    if (w.unproven.length) {
      lines.push('', '| statement | fault | clause | why |', '|---|---|---|---|');
      for (const u of w.unproven) lines.push(`| \`${cell(u.key)}\` | \`${u.fault}\` | \`${u.test}\` | ${cell(u.reason)} |`);
    }
  }
  lines.push('', '## Suites', '', '| suite file | faults killed | faults run against it |', '|---|---|---|');
  for (const [file, t] of Object.entries(r.suites).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`| \`${file}\` | ${t.killed.length} | ${t.ran.length} |`);
  }
  lines.push('', '## Baseline (no fault)', '');
  const b = r.baseline;
  lines.push(
    `${b.summary.total} tests: ${b.summary.passed} passed, ${b.summary.failed} failed, ${b.summary.errors} errors, ${b.summary.skipped} skipped (${(b.wallMs / 1000).toFixed(1)} s).`,
  );
  if (b.failing.length) {
    lines.push('', 'Tests failing without any fault (never counted as kills):', '');
    for (const t of b.failing) lines.push(`- \`${t.file}\`: ${cell(t.name)}`);
  }
  const survivors = r.faults.filter((f) => f.verdict !== 'killed');
  if (survivors.length) {
    lines.push('', '## Survivors in detail', '');
    for (const f of survivors) {
      lines.push(`### \`${f.name}\``, '', `${f.description}`, '', `Fault clauses: ${f.faultClauses.join(', ')}. ${f.note ?? ''}`);
      if (f.otherFailures.length) {
        lines.push('', 'Failing tests naming none of its clauses, or already failing in the baseline:', '');
        for (const t of f.otherFailures.slice(0, 10))
          lines.push(`- \`${t.file}\`: ${cell(t.name)} — clauses ${t.clauses.join(', ')}${t.failedInBaseline ? ' (failed in baseline)' : ''}`);
      }
      lines.push('');
    }
  }
  lines.push('', closingLine(r.totals), '');
  return lines.join('\n');
}

/** Writes `mutation.json` and `mutation.md` into `dir` (created). */
export function writeMutationReports(r: MutationReport, dir: string): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'mutation.json');
  const md = join(dir, 'mutation.md');
  writeFileSync(json, JSON.stringify(r, null, 2));
  writeFileSync(md, renderMarkdown(r));
  return { json, md };
}
