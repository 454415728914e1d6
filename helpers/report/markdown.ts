/**
 * `reports/conformance.md`: the run for a person or a CI job summary (GitHub limits a summary to
 * 1 MiB, so evidence is cut). Order: what changed since the baseline (when given), totals, failures
 * first with the request and answer that show them, the clause table, requests per suite file, drift.
 */
import { VALUE_CLASSES_TRIED } from '../generate/value-classes';
import { outageHeading, type RunRecord } from './model';
import type { RunComparison, ClauseChange } from './model';
import { byClauseId, cut, describeAnswer, describeRequest, evidenceFor, firstLine, whyLine, type ClauseEvidence } from './evidence';
import { seconds } from '../base/values';
import { timingSentences, timingSummary } from './timing';

/** Options of {@link renderMarkdown}. */
export interface MarkdownOptions {
  /** Relative link to the authorization matrix, shown when given. */
  authorizationMatrix?: string;
  /** Relative link to the HTML report, shown when given. */
  htmlReport?: string;
}

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
}

function changeList(title: string, list: ClauseChange[], lines: string[]): void {
  if (!list.length) return;
  lines.push(`**${title} (${list.length})**`, '');
  for (const c of list) lines.push(`- \`${c.id}\` (${c.level}) ${c.from} → ${c.to}: ${cell(c.text)}${c.message ? ` — ${cell(whyLine(c.message, 160))}` : ''}`);
  lines.push('');
}

function percent(n: number, of: number): string {
  return of === 0 ? '100%' : `${Math.round((n / of) * 100)}%`;
}

/**
 * The first-screen lines of a run (format 1.4 `off`): how many `must` clauses it checked, and for
 * each switch it left off, how many `must` clauses that switch would turn on and how to turn it on.
 * Plain text, one line each, for the console's closing lines; {@link renderOff} is the Markdown form.
 */
export function offLines(run: RunRecord): string[] {
  if (!run.off) return [];
  const o = run.off;
  const lines = [`must clauses checked: ${o.mustChecked} of ${o.mustTestable} testable (${percent(o.mustChecked, o.mustTestable)})`];
  for (const s of o.switches) {
    lines.push(
      `  off: ${s.label} would turn on ${s.mustClauses.length} must clause${s.mustClauses.length === 1 ? '' : 's'}${testsNote(s.tests)}: ${s.variable ? `set ${s.variable}` : s.howTo}`,
    );
    for (const r of s.reasons ?? []) lines.push(`    needs a control API: ${r.id}: ${r.reason}`);
  }
  return lines;
}

/**
 * The verdict counts with `fail` and `error` apart, and (when the target misbehaved) how: answers
 * that were not the API's, requests that hung past the deadline, retries. Plain text, for the
 * console's closing lines; the top of conformance.md says the same ({@link renderTrouble}).
 */
export function verdictLines(run: RunRecord): string[] {
  const s = run.summary;
  const lines = [`verdicts: ${s.passed} pass, ${s.failed} fail, ${s.errors} error (target or network trouble, not a conformance verdict), ${s.skipped} skip`];
  const t = troubleWords(run);
  if (t) lines.push(`the target misbehaved: ${t}`);
  const a = auditWords(run);
  if (a) lines.push(a);
  return lines;
}

/** "audits of every exchange: envelope judged 7,412 exchanges, …", or undefined when no audit ran. */
export function auditWords(run: RunRecord): string | undefined {
  const a = run.audits;
  if (!a) return undefined;
  return `audits of every exchange: ${Object.entries(a)
    .map(([name, n]) => `${name} judged ${n.toLocaleString('en-US')} exchange${n === 1 ? '' : 's'}`)
    .join(', ')}`;
}

/** " (2 of them on the run's own side: another writer changed a fixture 1, the runner ran late 1)", or '' when none. */
function ownSideWords(run: RunRecord): string {
  const o = run.ownSide;
  if (!o) return '';
  const words: Record<string, string> = {
    'foreign-write': 'another writer changed a fixture',
    'late-runner': 'the runner ran late',
    window: 'a limit check outran its window',
  };
  const parts = Object.entries(o).map(([k, n]) => `${words[k] ?? k} ${n}`);
  const total = Object.values(o).reduce((a, b) => a + (b ?? 0), 0);
  return ` (${total} of them on the run's own side: ${parts.join(', ')})`;
}

/** "12 answers were not the API's …, 3 requests hung …, 40 retries", or undefined when the target never misbehaved. */
function troubleWords(run: RunRecord): string | undefined {
  const { hung = 0, notApi = 0, notJsonResent = 0, retries } = run.requests;
  if (hung + notApi + retries + run.summary.errors === 0) return undefined;
  return [
    `${notApi} answer${notApi === 1 ? ' was' : 's were'} not the API's (a gateway's page, a body cut short)`,
    `${hung} request attempt${hung === 1 ? '' : 's'} hung past the deadline`,
    ...(notJsonResent ? [`${notJsonResent} answer${notJsonResent === 1 ? '' : 's'} whose body did not parse asked for again`] : []),
    `${retries} retr${retries === 1 ? 'y' : 'ies'}`,
    `${run.summary.errors} test${run.summary.errors === 1 ? '' : 's'} in error${ownSideWords(run)}`,
  ].join(', ');
}

/** The Markdown form of {@link verdictLines}, for the top of conformance.md. */
export function renderTrouble(run: RunRecord): string[] {
  const s = run.summary;
  const lines = [
    `**Verdicts: ${s.failed} fail, ${s.errors} error**, ${s.passed} pass, ${s.skipped} skip. A \`fail\` is the API's; an \`error\` is target or network trouble, not a conformance verdict.`,
    '',
  ];
  const t = troubleWords(run);
  if (t) lines.push(`**The target misbehaved**: ${t}.`, '');
  return lines;
}

function testsNote(tests: number | undefined): string {
  return tests ? ` (${tests} test${tests === 1 ? '' : 's'})` : '';
}

/** The Markdown form of {@link offLines}: a sentence and a table of switches left off. */
export function renderOff(run: RunRecord): string[] {
  if (!run.off) return [];
  const o = run.off;
  const lines = [`**Checked ${o.mustChecked} of ${o.mustTestable} testable \`must\` clauses (${percent(o.mustChecked, o.mustTestable)}).**`, ''];
  if (o.switches.length) {
    lines.push(
      'Left off in this run (a clause or test needing two switches counts under both; a clause other tests check is not counted):',
      '',
      '| turn on | how | `must` clauses it would turn on | skipped tests |',
      '|---|---|---:|---:|',
    );
    for (const s of o.switches)
      lines.push(`| ${cell(s.label)} | ${s.variable ? `\`${cell(s.variable)}\`` : cell(s.howTo)} | ${s.mustClauses.length} | ${s.tests ?? ''} |`);
    lines.push('');
    const control = o.switches.find((s) => s.reasons?.length)?.reasons ?? [];
    if (control.length) {
      lines.push('`must` clauses that still need a simulator control API (the ceiling of a run without one), and why:', '');
      for (const r of control) lines.push(`- \`${r.id}\`: ${r.reason}`);
      lines.push('');
    }
  }
  return lines;
}

/** Renders the comparison with the baseline as Markdown lines. */
export function renderComparison(c: RunComparison): string[] {
  const lines: string[] = [];
  lines.push(`## Since the baseline`, '');
  lines.push(
    `Baseline: ${c.baseline.file ? `\`${c.baseline.file}\` · ` : ''}${c.baseline.target.mode} ${c.baseline.target.baseUrl} · ${c.baseline.startedAt}`,
    '',
  );
  const counts = `${c.regressions.length} regressions, ${c.fixes.length} fixes, ${c.newlySkipped.length} newly skipped, ${c.otherChanges.length} other verdict changes, ${c.newDrift.length} new drift, requests ${c.requestTotals.before} → ${c.requestTotals.after}`;
  lines.push(counts, '');
  changeList('Regressions (pass → fail)', c.regressions, lines);
  changeList('Fixes (fail → pass)', c.fixes, lines);
  changeList('Newly skipped', c.newlySkipped, lines);
  changeList('Other verdict changes', c.otherChanges, lines);
  if (c.newDrift.length) {
    lines.push(`**New drift (${c.newDrift.length})** — undocumented fields, error codes or statuses not seen in the baseline (informational, §9.4)`, '');
    for (const d of c.newDrift) lines.push(`- ${d.kind} \`${cell(d.what)}\` at ${cell(d.where)} (${d.tests.length} tests)`);
    lines.push('');
  }
  if (c.requestChanges.length) {
    lines.push('**Request counts changed**', '', '| suite file | before | after | change |', '|---|---:|---:|---:|');
    for (const r of c.requestChanges) lines.push(`| ${r.file} | ${r.before} | ${r.after} | ${r.after - r.before > 0 ? '+' : ''}${r.after - r.before} |`);
    lines.push('');
  }
  return lines;
}

/**
 * What a live run's lanes (docs/live-tenants.md) need said up front: an expired lease it took over,
 * and a lease it lost to another run (from then on the two runs may have met on its fixtures).
 */
function laneNotes(run: RunRecord): string[] {
  const out: string[] = [];
  for (const l of run.lanes ?? []) {
    if (l.tookOver)
      out.push(
        `**Lane ${l.lane} taken over**: the lease of run ${l.tookOver.run} on host ${l.tookOver.host} expired at ${l.tookOver.expires} without being renewed or freed.`,
        '',
      );
    if (l.lost) {
      const by = l.lost.by ? `run ${l.lost.by.run} on host ${l.lost.by.host}` : 'another run';
      out.push(`**Lane ${l.lane} lost** at ${l.lost.at} to ${by}: from then on the two runs may have met on the lane's fixtures.`, '');
    }
  }
  return out;
}

/** The title (PASS or FAIL), an unreachable target, a partial run, the target line and links to the other reports. */
function renderHeading(run: RunRecord, opts: MarkdownOptions): string[] {
  const s = run.summary;
  const cs = run.clauseSummary;
  // A run that checked nothing (no test, or an unreachable target) proves nothing: never PASS.
  const ok = s.total > 0 && !run.unreachable && s.failed === 0 && s.errors === 0 && cs.fail === 0 && cs.error === 0;
  const lines: string[] = [];
  lines.push(`# Core API conformance: ${ok ? 'PASS' : 'FAIL'}${run.partial ? ' (partial run)' : ''}`, '');
  if (run.unreachable) lines.push(`**${outageHeading(run.unreachable)}, no test ran**: ${run.unreachable.cause}. Fix: ${run.unreachable.fix}.`, '');
  if (run.partial) lines.push(`**Partial run**: ${run.partial.reasons.join('; ')}. Clauses whose tests did not run read "not run", not "not covered".`, '');
  lines.push(...laneNotes(run));
  const shard = run.shard ? ` · shard ${run.shard.index}/${run.shard.count}` : '';
  const merged = run.merged ? ` · merged from ${run.merged.sources.length} shard records` : '';
  const lanes = run.lanes?.length ? ` · lane ${[...new Set(run.lanes.map((l) => l.lane))].join(', ')} of ${run.lanes[0].lanes}` : '';
  lines.push(`Target: ${run.target.mode} ${run.target.baseUrl} · ${run.startedAt} → ${run.finishedAt}${shard}${merged}${lanes}`, '');
  const links = [
    opts.htmlReport && `[HTML report](${opts.htmlReport})`,
    opts.authorizationMatrix && `[authorization matrix](${opts.authorizationMatrix})`,
  ].filter(Boolean);
  if (links.length) lines.push(links.join(' · '), '');
  return lines;
}

/** Clause verdict counts, coverage, test counts and requests (with the budget, when one was set). */
function renderTotals(run: RunRecord): string[] {
  const s = run.summary;
  const cs = run.clauseSummary;
  const budget = run.requests.budget;
  return [
    '## Totals',
    '',
    `- Clauses: **${cs.fail} fail**, ${cs.error} error, ${cs.pass} pass, ${cs.skip} skip, ${cs['not-covered']} not covered, ${cs['not-testable']} not testable`,
    `- Coverage: **${(cs.coverage * 100).toFixed(1)}%** (testable clauses with at least one test / testable clauses)`,
    `- Tests: ${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped (${s.total} in all)`,
    `- Requests: ${run.requests.total} (${run.requests.retries} retries, ${run.requests.hung ?? 0} hung past the deadline, ${run.requests.notApi ?? 0} answers not the API's)${budget === undefined ? '' : `, budget ${budget}${run.requests.total > budget ? ' — **over budget**' : ''}`}`,
    '',
  ];
}

/** The failing (and error) clauses as a table, then each with the evidence that shows it, within a character budget. */
function renderFailures(run: RunRecord): string[] {
  const failingClauses = run.clauses.filter((c) => c.verdict === 'fail' || c.verdict === 'error').sort(byClauseId);
  if (!failingClauses.length) return [];
  const lines = ['## Failing clauses', '', '| clause | level | verdict | why |', '|---|---|---|---|'];
  for (const c of failingClauses) lines.push(`| \`${c.id}\` | ${c.level} | ${c.verdict} | ${cell(whyLine(c.message, 160))} |`);
  lines.push('');
  lines.push('## Failures', '');
  let budget = 400_000; // characters of evidence, well under the 1 MiB job-summary limit
  for (const c of failingClauses) {
    lines.push(`### ${c.verdict === 'error' ? 'ERROR' : 'FAIL'} \`${c.id}\` (${c.level}, §${c.section}) ${cell(c.text)}`, '');
    if (c.verdict === 'error') lines.push('_The target or the network misbehaved; this is not a conformance verdict._', '');
    for (const ev of evidenceFor(run, c, 2)) {
      lines.push(`Test: ${cell(ev.test.name)} (\`${ev.test.file}\`)`, '');
      const text = evidenceBlock(ev);
      if (budget - text.length < 0) {
        lines.push('_(more evidence in conformance.json and the HTML report)_', '');
        break;
      }
      budget -= text.length;
      lines.push(text, '');
    }
  }
  return lines;
}

/** One piece of evidence: why the test failed, fenced, and its last request and answer in a collapsed block. */
function evidenceBlock(ev: ClauseEvidence): string {
  const why = ev.details.length ? ev.details.join('\n\n') : (ev.test.message ?? '');
  const block = [fence(cut(why, 2500))];
  const x = ev.exchanges[ev.exchanges.length - 1];
  if (x)
    block.push(
      '',
      '<details><summary>request and answer</summary>',
      '',
      fence(`${describeRequest(x)}\n\n--- answer ---\n${describeAnswer(x)}`),
      '',
      '</details>',
    );
  return block.join('\n');
}

/** Every clause with its verdict, test count and a note (skip kind, why not testable, why it failed). */
function renderClauseTable(run: RunRecord): string[] {
  const lines = ['## Clauses', '', '| clause | level | verdict | tests | note |', '|---|---|---|---:|---|'];
  for (const c of [...run.clauses].sort(byClauseId)) {
    const note =
      c.verdict === 'skip'
        ? `${c.skipKind ?? 'other'}: ${firstLine(c.message, 120)}`
        : c.verdict === 'not-testable'
          ? (c.reason ?? '')
          : c.verdict === 'pass'
            ? ''
            : whyLine(c.message, 120);
    lines.push(`| \`${c.id}\` | ${c.level} | ${c.verdict} | ${c.tests.length} | ${cell(note)} |`);
  }
  return lines;
}

/** Requests per suite file and their total. */
function renderRequestsPerFile(run: RunRecord): string[] {
  const lines = ['', '## Requests per suite file', '', '| suite file | requests |', '|---|---:|'];
  for (const [file, n] of Object.entries(run.requests.perFile).sort()) lines.push(`| ${file} | ${n} |`);
  lines.push(`| **total** | **${run.requests.total}** |`);
  return lines;
}

/**
 * Where the run's wall time went (issue 43), from {@link timingSummary}: the sentences, then the
 * files with the longest chains of requests one after another. None (a record before 1.18): no section.
 */
export function renderTiming(run: RunRecord): string[] {
  const t = timingSummary(run);
  if (!t) return [];
  const lines = ['', '## Where the time went', '', ...timingSentences(run, t)];
  lines.push(
    '',
    '| suite file | requests | longest chain one after another | × median answer | most in flight | requests from – to |',
    '|---|---:|---:|---:|---:|---|',
  );
  for (const r of t.longest) lines.push(`| ${r.file} | ${r.requests} | ${r.chain} | ${seconds(r.chainMs)} | ${r.inFlight} | ${r.span} |`);
  return lines;
}

/** Checks graded non-strict: refusals in another form than the spec states (none: no section). */
function renderNonStrict(run: RunRecord): string[] {
  const nonStrict = run.tests.flatMap((t) => t.checks.filter((c) => c.level === 'non-strict').map((c) => ({ test: t.name, check: c })));
  if (!nonStrict.length) return [];
  const lines = [
    '',
    '## Non-strict refusals',
    '',
    'The target refused as the spec requires, but not in the form it states (for example a 400 from its HTTP layer where §5.6 says 401). Not a failure.',
    '',
    '| clauses | requirement | what happened | test |',
    '|---|---|---|---|',
  ];
  for (const { test, check } of nonStrict)
    lines.push(
      `| ${check.clauses.map((id) => `\`${id}\``).join(' ')} | ${cell(check.requirement)} | ${cell(firstLine(check.actual ?? check.detail, 160))} | ${cell(firstLine(test, 100))} |`,
    );
  return lines;
}

/** Drift: what the target answered that the spec does not document (none: no section). */
function renderDrift(run: RunRecord): string[] {
  if (!run.drift.length) return [];
  const lines = ['', '## Drift (informational)', '', '| kind | where | what | tests |', '|---|---|---|---:|'];
  for (const d of run.drift) lines.push(`| ${d.kind} | ${cell(d.where)} | ${cell(d.what)} | ${d.tests.length} |`);
  return lines;
}

/**
 * The value classes the value-space phase tried per request field (suites/value-space.test.ts: one
 * informational check per field, helpers/generate/value-space.ts {@link VALUE_CLASSES_TRIED}); none: no section.
 */
function renderValueClasses(run: RunRecord): string[] {
  const suffix = `: ${VALUE_CLASSES_TRIED}`;
  const rows = run.tests.flatMap((t) => (t.checks ?? []).filter((c) => c.level === 'informational' && c.requirement.endsWith(suffix)));
  if (!rows.length) return [];
  const lines = ['', '## Value classes tried per request field', '', '| field | classes (values tried: accepted, refused) |', '|---|---|'];
  // The detail is the worded check (helpers/checks/judgments.ts); what was tried is its `actual`.
  for (const c of rows) lines.push(`| ${cell(c.requirement.slice(0, -suffix.length))} | ${cell(/actual:\s+([^\n]*)/.exec(c.detail ?? '')?.[1] ?? c.detail)} |`);
  return lines;
}

/** Renders the Markdown report from a run record alone. */
export function renderMarkdown(run: RunRecord, opts: MarkdownOptions = {}): string {
  const lines = [
    ...renderHeading(run, opts),
    ...renderTrouble(run),
    ...renderOff(run),
    ...(run.comparison ? renderComparison(run.comparison) : []),
    ...renderTotals(run),
    ...renderFailures(run),
    ...renderClauseTable(run),
    ...renderRequestsPerFile(run),
    ...renderTiming(run),
    ...renderNonStrict(run),
    ...renderDrift(run),
    ...renderValueClasses(run),
  ];
  return lines.join('\n') + '\n';
}
