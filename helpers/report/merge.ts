/**
 * Shard merge: joins the `conformance.json` of several `vitest --shard` runs into one
 * run record, judged against the catalogue the shards carry (so no re-run and no catalogue read),
 * and copies each shard's Allure results into one folder.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Clause } from '../spec/catalogue';
import { buildRunRecord, catalogueOf, type RunRecord, type ShardInfo, type TestRecord } from './model';
import { readRunRecord } from './record-io';
import { rejudgeStatements } from './statements';

/** Error raised when shard records cannot be joined (different targets, no input). */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

/**
 * The suite files of a checkout (`suites/*.test.ts` under `root`, relative to it), as a run names
 * its tests' files; [] when there is no suites folder. What a full run runs.
 */
export function suiteFilesOf(root: string): string[] {
  const dir = join(root, 'suites');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => `suites/${f}`)
        .sort()
    : [];
}

/** Options of {@link mergeRuns}. */
export interface MergeOptions {
  /**
   * Every suite file of the checkout ({@link suiteFilesOf}). When given, a merge of sharded runs
   * that ran none of a file's tests is partial ("suite files not run"): a shard knows only its own
   * files, so a file filter given to every shard shows only in the merge.
   */
  suiteFiles?: string[];
}

/**
 * Joins shard records into one record. Tests are keyed by file and name; when a test appears in
 * several records (a shard re-run), the record that finished last wins. The catalogue is the union
 * of the shards' clause records (a clause present in several keeps the last finished shard's text).
 * Statement results (`spec.statements`) are judged again on the merged clause verdicts.
 * A merge of sharded runs whose files miss some of `opts.suiteFiles` is partial ({@link MergeOptions}).
 * @throws MergeError when `records` is empty or the shards ran against different targets.
 */
export function mergeRuns(records: RunRecord[], sources: string[] = [], opts: MergeOptions = {}): RunRecord {
  if (records.length === 0) throw new MergeError('nothing to merge: no conformance.json given or found');
  const targets = new Set(records.map((r) => `${r.target.mode} ${r.target.baseUrl}`));
  const modes = new Set(records.map((r) => r.target.mode));
  if (modes.size > 1) throw new MergeError(`shards ran against different target modes: ${[...targets].join(', ')}`);
  const ordered = [...records].sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
  const catalogue = new Map<string, Clause>();
  const tests = new Map<string, TestRecord>();
  const sections: Record<string, string> = {};
  for (const r of ordered) {
    for (const [id, c] of catalogueOf(r)) catalogue.set(id, c);
    for (const t of r.tests) tests.set(`${t.file}\u0000${t.name}`, t);
    Object.assign(sections, r.sections ?? {});
  }
  const sortedCatalogue = new Map([...catalogue.entries()].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true })));
  const baseUrls = [...new Set(records.map((r) => r.target.baseUrl))];
  const shardsIn: ShardInfo[] = records.flatMap((r) => (r.shard ? [r.shard] : (r.merged?.shards ?? [])));
  // Partial unless every shard of the run is here; reasons other than sharding (a filter) stay.
  const count = Math.max(0, ...shardsIn.map((s) => s.count));
  const complete = count > 0 && new Set(shardsIn.map((s) => s.index)).size === count;
  const reasons = [...new Set(records.flatMap((r) => r.partial?.reasons ?? []).filter((x) => !/^shard \d+ of \d+$/.test(x)))];
  if (count > 0 && !complete) reasons.push(`shards ${[...new Set(shardsIn.map((s) => s.index))].sort().join(', ')} of ${count} merged`);
  const ran = new Set([...tests.values()].map((t) => t.file));
  const notRun = count > 0 && ran.size > 0 ? (opts.suiteFiles ?? []).filter((f) => !ran.has(f)) : [];
  if (notRun.length && !reasons.some((r) => r.startsWith('suite files not run'))) reasons.push(`suite files not run: ${notRun.join(', ')}`);
  const merged = buildRunRecord({
    catalogue: sortedCatalogue,
    tests: [...tests.values()].sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name)),
    // Embedded simulators listen on a different port per shard; report them together.
    target: { mode: records[0].target.mode, baseUrl: baseUrls.join(' | ') },
    startedAt: ordered.map((r) => r.startedAt).sort()[0],
    finishedAt: ordered[ordered.length - 1].finishedAt,
    sections: Object.keys(sections).length ? sections : undefined,
    partial: reasons,
  });
  merged.merged = { sources, shards: shardsIn };
  // A shard that could not reach the target makes the whole run unreachable: the gate must say why.
  const unreachable = ordered.find((r) => r.unreachable)?.unreachable;
  if (unreachable) merged.unreachable = unreachable;
  // Each shard held a lane of its own on a live tenant: the merged record lists them all.
  const lanes = ordered.flatMap((r) => r.lanes ?? []);
  if (lanes.length) merged.lanes = lanes;
  // Each file ran in one shard: its overlap is that shard's.
  const overlap = Object.assign({}, ...ordered.map((r) => r.requests.overlap ?? {}));
  if (Object.keys(overlap).length) merged.requests.overlap = overlap;
  // The statements of the spec are the same in every shard: judge them again on the merged clauses.
  const statements = ordered.findLast((r) => r.spec?.statements?.length)?.spec?.statements;
  if (statements) {
    const r = rejudgeStatements(statements, merged.clauses);
    merged.spec = { statements: r.statements };
    merged.summary.statementCoverage = Math.round(r.coverage * 10000) / 10000;
    merged.summary.statementStrength = Math.round(r.strength * 10000) / 10000;
  }
  return merged;
}

/**
 * Finds run records under the given paths: a file is taken as is; a folder is searched
 * (recursively, depth ≤ 4) for `conformance.json`.
 */
export function findRunRecords(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (name !== 'node_modules' && name !== 'allure-results' && depth < 4) walk(p, depth + 1);
      } else if (name === 'conformance.json') out.push(p);
    }
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new MergeError(`no such file or folder: ${p}`);
    if (statSync(p).isDirectory()) walk(p, 0);
    else out.push(p);
  }
  return [...new Set(out.map((p) => resolve(p)))];
}

/** Reads every record found by {@link findRunRecords}, skipping `exclude` (the output file). */
export function readShardRecords(paths: string[], exclude?: string): { records: RunRecord[]; files: string[] } {
  const files = findRunRecords(paths).filter((f) => !exclude || resolve(f) !== resolve(exclude));
  return { records: files.map((f) => readRunRecord(f)), files };
}

/**
 * Copies the Allure results of each shard into `outDir/allure-results`: for each record, the
 * nearest `allure-results/` folder beside it or up to two folders above it (a shard's
 * `reports/shard-1-of-2/conformance.json` has its results in `reports/allure-results/`). Result
 * files have unique names, so shards never overwrite each other. Returns the number of files copied.
 */
export function copyAllureResults(recordFiles: string[], outDir: string): number {
  const target = resolve(outDir, 'allure-results');
  const sources = new Set<string>();
  for (const f of recordFiles) {
    let dir = dirname(resolve(f));
    for (let up = 0; up <= 2; up += 1, dir = dirname(dir)) {
      const candidate = join(dir, 'allure-results');
      if (existsSync(candidate)) {
        sources.add(candidate);
        break;
      }
    }
  }
  let copied = 0;
  for (const src of sources) {
    if (src === target) continue;
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(src)) {
      cpSync(join(src, name), join(target, name), { recursive: true });
      copied += 1;
    }
  }
  return copied;
}
