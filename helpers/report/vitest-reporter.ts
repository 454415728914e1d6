/**
 * vitest reporter that turns the conformance project's results into the run record
 * (`conformance.json`, see model.ts and docs/report-format.md), hands it to the report writers
 * (Markdown, HTML), and prints the closing lines: the verdicts with `fail` and `error` apart and how
 * the target misbehaved, then one line per project of the project's own tests (`unit: …`,
 * `probes: …`, `tooling: …`, `integration: …`) and `conformance: N passed, N failed, N skipped`
 * (where `failed` counts `error` too). `reports/run-summary.json` holds the same counts by project.
 *
 * Where: all run output goes to `CONFORMANCE_REPORT_DIR` (default `reports/`); under
 * `vitest --shard i/n` without that variable, the conformance reports go to
 * `reports/shard-<i>-of-<n>/` so shards on one machine keep apart (`npm run report:merge` joins them).
 * `CONFORMANCE_BASELINE=<conformance.json>` adds the comparison with that earlier run (set by
 * `npm run conformance -- --baseline <file>`).
 * Runs in vitest's main process; every message is redacted again with the secrets known there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { loadCatalogue } from '../spec/catalogue';
import { readTargetConfig, describeTarget, requestBudget } from '../target/target';
import { isEnvSet, readEnv, type EnvSource } from '../base/env';
import { redact, registerSecret } from '../base/redact';
import { buildRunRecord, skipKindOf, type Outage, type RunRecord, type ShardInfo, type TestRecord, type TestVerdict } from './model';
import { laneRecordOfRun } from '../live/lanes';
import { writeReports } from './writers';
import { offLines, verdictLines } from './markdown';
import { readRunRecord, registerEnvironmentSecrets, writeRunRecord } from './record-io';
import { compareRuns } from './baseline';
import { attachStatements } from './statements';
import { suiteFilesOf } from './merge';
import { setUpFailure, setUpSkip, testVerdict, troubleTiming, type SetUpView } from './verdict';
import { readSpec, sectionTitles } from '../spec/spec-doc';
import { failedOnAnAnswer } from '../base/meta';
import { answerTimes, overlapPerFile, type RequestSpan } from './overlap';

/** Folder run output is written to (`CONFORMANCE_REPORT_DIR`, default `reports`). */
export const REPORT_DIR = resolve(process.cwd(), readEnv('CONFORMANCE_REPORT_DIR'));

/** Folder the conformance reports of this run go to (see the module comment); `env`: default the process's environment. */
export function conformanceReportDir(shard?: ShardInfo, env?: EnvSource): string {
  if (isEnvSet('CONFORMANCE_REPORT_DIR', env)) return resolve(readEnv('CONFORMANCE_REPORT_DIR', env));
  if (shard && shard.count > 1) return join(REPORT_DIR, `shard-${shard.index}-of-${shard.count}`);
  return REPORT_DIR;
}

function fullName(tc: TestCase): string {
  const parts: string[] = [tc.name];
  let parent: TestCase['parent'] = tc.parent;
  while (parent.type === 'suite') {
    parts.unshift(parent.name);
    parent = parent.parent;
  }
  return parts.join(' > ');
}

function toRecord(tc: TestCase, root: string): TestRecord {
  const meta = tc.meta();
  const result = tc.result();
  const diag = tc.diagnostic();
  const firstError = result.state === 'failed' ? result.errors?.[0] : undefined;
  const setUp = setUpFailure(tc as unknown as SetUpView, meta.skipReason);
  const status: TestVerdict = testVerdict(result.state, firstError?.name, troubleTiming(meta), setUp !== undefined, firstError?.message);
  let message: string | undefined;
  if (firstError) message = redact(firstError.message ?? String(firstError));
  if (status === 'fail' && meta.failedBeforeTrouble) {
    // The failed checks decide the verdict, whatever error ended the test: they lead the message, the trouble follows.
    const failed = (meta.checks ?? []).filter(failedOnAnAnswer).map((c) => c.detail ?? c.requirement);
    message = redact(`${failed.join('\n\n')}\n\nthen the target misbehaved: ${meta.trouble ?? firstError?.message ?? 'no answer of the API'}`);
  }
  if (setUp) message = redact(setUp);
  if (status === 'skip')
    message = redact(
      meta.skipReason ?? setUpSkip(tc as unknown as SetUpView, meta.skipReason) ?? (result.state === 'skipped' ? result.note : undefined) ?? 'skipped',
    );
  return {
    name: fullName(tc),
    file: relative(root, tc.module.moduleId),
    clauses: meta.clauses ?? [],
    status,
    durationMs: Math.round(diag?.duration ?? 0),
    message,
    ...(status === 'skip' ? { skipKind: skipKindOf(message) } : {}),
    ...(status === 'skip' && meta.skipNeeds?.length ? { needs: meta.skipNeeds } : {}),
    checks: (meta.checks ?? []).map((c) => ({
      ...c,
      detail: c.detail ? redact(c.detail) : undefined,
      ...(c.expected === undefined ? {} : { expected: redact(c.expected) }),
      ...(c.actual === undefined ? {} : { actual: redact(c.actual) }),
    })),
    requests: meta.requests ?? 0,
    retries: meta.retries ?? 0,
    ...(meta.hung ? { hung: meta.hung } : {}),
    ...(meta.notApi ? { notApi: meta.notApi } : {}),
    ...(meta.notJsonResent ? { notJsonResent: meta.notJsonResent } : {}),
    ...(meta.audits ? { audits: meta.audits } : {}),
    ...(status === 'error' && meta.ownSide ? { ownSide: meta.ownSide } : {}),
    ...(status === 'error' && meta.trouble ? { trouble: redact(meta.trouble) } : {}),
    drift: meta.drift ?? [],
    evidence: status === 'fail' || status === 'error' ? JSON.parse(redact(JSON.stringify(meta.exchanges ?? []))) : undefined,
    ...(meta.matrixCell ? { matrixCell: { ...meta.matrixCell, outcome: redact(meta.matrixCell.outcome) } } : {}),
  };
}

/**
 * Why a conformance run is partial: one shard of several, a test-name filter (`-t`), or suite files
 * that did not run (a file filter). Empty for a full run.
 */
export function partialReasons(root: string, modules: readonly TestModule[], shard?: ShardInfo, namePattern?: string): string[] {
  const reasons: string[] = [];
  if (shard && shard.count > 1) reasons.push(`shard ${shard.index} of ${shard.count}`);
  if (namePattern) reasons.push(`test names filtered (-t ${namePattern})`);
  if (!shard || shard.count <= 1) {
    const ran = new Set(modules.filter((m) => m.project.name === 'conformance').map((m) => relative(root, m.moduleId)));
    // A shard knows only its own files: the merge judges a sharded run's files (helpers/report/merge.ts).
    const missing = suiteFilesOf(root).filter((f) => !ran.has(f));
    if (ran.size > 0 && missing.length) reasons.push(`suite files not run: ${missing.join(', ')}`);
  }
  return reasons;
}

/**
 * Writes the record (and its reports) of a run that stopped before its first test because the
 * probe could not reach the target, or another outage stopped it there (`what`: no free lane on a
 * live tenant; helpers/run/global-setup.ts): no test, every clause uncovered, and `unreachable` naming
 * the cause and the fix, so the reports and the gate say why. Returns the folder.
 */
export async function writeUnreachableRecord(
  unreachable: Outage,
  target: { mode: string; baseUrl: string },
  startedAt: Date,
  shard?: ShardInfo,
): Promise<string> {
  registerEnvironmentSecrets();
  const record = buildRunRecord({
    catalogue: loadCatalogue(),
    tests: [],
    target,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    sections: sectionTitles(readSpec()),
    shard,
  });
  record.unreachable = { cause: redact(unreachable.cause), fix: redact(unreachable.fix), ...(unreachable.what ? { what: unreachable.what } : {}) };
  const dir = conformanceReportDir(shard);
  writeRunRecord(record, dir);
  await writeReports(record, dir);
  return dir;
}

/** Test counts of one vitest project. */
interface ProjectCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** The run's target as the record names it; a live tenant's keys are registered as secrets first, so no report prints them. */
function runTarget(): { mode: string; baseUrl: string } {
  let target = { mode: 'embedded', baseUrl: readEnv('CORE_API__EMBEDDED_BASE_URL') ?? '' };
  try {
    const t = readTargetConfig();
    target = describeTarget(t);
    if (t.live) for (const [k, v] of Object.entries(t.live)) if (/key|secret/i.test(k)) registerSecret(v as string, k);
  } catch {
    // target config errors were already reported by global setup
  }
  return target;
}

/**
 * Test counts by vitest project (the conformance project's from its verdicts), the conformance
 * tests' records, whether any conformance file ran, and the spans of the requests of each
 * conformance file (helpers/report/overlap.ts).
 */
function collectTests(
  testModules: readonly TestModule[],
  root: string,
): { counts: Record<string, ProjectCounts>; tests: TestRecord[]; conformanceRan: boolean; spans: Map<string, RequestSpan[]> } {
  const counts: Record<string, ProjectCounts> = {};
  const tests: TestRecord[] = [];
  const spans = new Map<string, RequestSpan[]>();
  let conformanceRan = false;
  for (const mod of testModules) {
    const project = mod.project.name || 'unit';
    if (project === 'conformance') conformanceRan = true;
    for (const tc of mod.children.allTests()) {
      const record = project === 'conformance' ? toRecord(tc, root) : undefined;
      // A conformance test whose set-up failed never ran: counted as failed, not skipped.
      const state = record ? ({ pass: 'passed', skip: 'skipped', fail: 'failed', error: 'failed' } as const)[record.status] : tc.result().state;
      const bucket = (counts[project] ??= { passed: 0, failed: 0, skipped: 0 });
      if (state === 'passed') bucket.passed += 1;
      else if (state === 'failed') bucket.failed += 1;
      else bucket.skipped += 1;
      if (!record) continue;
      tests.push(record);
      const own = tc.meta().spans;
      if (own?.length) spans.set(record.file, [...(spans.get(record.file) ?? []), ...own]);
    }
  }
  return { counts, tests, conformanceRan, spans };
}

/** Compares the record with the baseline named by `CONFORMANCE_BASELINE`, when set; an unreadable baseline is said, not fatal. */
function attachComparison(record: RunRecord): void {
  const baseline = readEnv('CONFORMANCE_BASELINE');
  if (!baseline) return;
  try {
    record.comparison = compareRuns(readRunRecord(baseline), record, baseline);
  } catch (e) {
    console.error(`conformance: baseline not compared: ${(e as Error).message}`);
  }
}

/** The closing lines of a conformance run: verdicts, what was left off, and a request budget overrun. */
function closingLines(record: RunRecord): string[] {
  const closing = [...verdictLines(record), ...offLines(record)];
  const budget = record.requests.budget;
  if (budget !== undefined && record.requests.total > budget)
    closing.push(`requests: ${record.requests.total}, over the budget of ${budget} (CORE_API_REQUEST_BUDGET)`);
  return closing;
}

/** Writes `run-summary.json` (counts by project), then prints the closing lines and one count line per project, conformance last. */
function reportCounts(counts: Record<string, ProjectCounts>, closing: string[]): void {
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(join(REPORT_DIR, 'run-summary.json'), JSON.stringify(counts, null, 2));
  const line = (c: ProjectCounts) => `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`;
  for (const l of closing) console.log(l);
  const order = ['unit', 'probes', 'tooling', 'integration'];
  const rank = (p: string) => (order.includes(p) ? order.indexOf(p) : order.length);
  for (const project of Object.keys(counts)
    .filter((p) => p !== 'conformance')
    .sort((a, b) => rank(a) - rank(b)))
    console.log(`${project}: ${line(counts[project])}`);
  if (counts.conformance) console.log(`conformance: ${line(counts.conformance)}`);
}

/** The reporter; registered in vitest.config.ts. */
export default class ConformanceReporter implements Reporter {
  private startedAt = new Date();
  private shard?: ShardInfo;
  private namePattern?: string;
  /** vitest's `maxWorkers`: suite files in flight at once (the record's `requests.fileWorkers`). */
  private fileWorkers?: number;

  onInit(vitest: Vitest): void {
    this.fileWorkers = vitest.config.maxWorkers;
    const shard = vitest.config.shard;
    if (shard) this.shard = { index: shard.index, count: shard.count };
    const pattern = vitest.config.testNamePattern;
    if (pattern) this.namePattern = String(pattern);
  }

  onTestRunStart(): void {
    this.startedAt = new Date();
  }

  /** The run record of the conformance tests: verdicts, statements, request budget (live) and the baseline comparison. */
  private runRecord(tests: TestRecord[], target: { mode: string; baseUrl: string }, root: string, testModules: readonly TestModule[]): RunRecord {
    registerEnvironmentSecrets();
    const record = buildRunRecord({
      catalogue: loadCatalogue(),
      tests,
      target,
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      sections: sectionTitles(readSpec()),
      shard: this.shard,
      partial: partialReasons(root, testModules, this.shard, this.namePattern),
    });
    attachStatements(record, readSpec());
    if (record.target.mode === 'live') [record.requests.budget, record.lanes] = [requestBudget(), laneRecordOfRun()];
    attachComparison(record);
    return record;
  }

  async onTestRunEnd(testModules: readonly TestModule[]): Promise<void> {
    const root = process.cwd();
    const target = runTarget();
    const { counts, tests, conformanceRan, spans } = collectTests(testModules, root);
    let closing: string[] = [];
    if (conformanceRan) {
      const record = this.runRecord(tests, target, root, testModules);
      record.requests.overlap = overlapPerFile(spans, this.startedAt.getTime());
      const answers = answerTimes(spans);
      if (answers) {
        record.requests.answerMs = answers;
        record.requests.concurrency = readEnv('CORE_API_CONCURRENCY');
        record.requests.fileWorkers = this.fileWorkers;
      }
      const dir = conformanceReportDir(this.shard);
      writeRunRecord(record, dir);
      await writeReports(record, dir);
      closing = closingLines(record);
      if (dir !== REPORT_DIR) console.log(`conformance reports: ${relative(root, dir) || '.'}/conformance.{json,md,html}`);
    }
    reportCounts(counts, closing);
  }
}
