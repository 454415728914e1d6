/**
 * `npm run spec-diff -- <old.md> <new.md> [--run <conformance.json>] [--json]`
 *
 * Lists the statements (table rows, list items, sentences) added, removed and changed between two
 * versions of the spec document, and for each the clauses linked to it in spec/statements.json (an
 * added statement: the clauses of its section, as candidates) and the tests that cover them, then
 * the statements left without a test. Tests come from the run record (`--run`, default reports/conformance.json when present)
 * when it is evidence of coverage, else from listing the conformance tests without running them: a
 * record in which no test ran, or one older than the suite files, is passed over, and the first
 * line says which source the diff used and why. Exit 0 (1 on bad input).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCatalogue, type Clause } from '../helpers/spec/catalogue';
import { coverageSourceLine, diffSpecs, renderSpecDiff, runRecordNotEvidence, type CoverageSource } from '../helpers/report/spec-diff';
import { catalogueOf } from '../helpers/report/model';
import { readRunRecord } from '../helpers/report/record-io';
import { listConformanceTests } from '../helpers/report/list-tests';
import { readEnv } from '../helpers/base/env';
import { loadStatementLinks, type StatementLink } from '../helpers/report/statements';

/** What a spec diff reads coverage from: the catalogue, the tests of each clause, and where they came from. */
interface Coverage {
  catalogue: Iterable<Clause>;
  testsOf: (id: string) => string[];
  source: CoverageSource;
}

/** Modification time of the newest suite file (suites/**.ts) in ms, or undefined when none is found. */
export function newestSuiteFileMs(root = process.cwd()): number | undefined {
  const dir = join(root, 'suites');
  if (!existsSync(dir)) return undefined;
  const times = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => statSync(join(dir, f)).mtimeMs);
  return times.length ? Math.max(...times) : undefined;
}

/** Coverage from a run record, or why the record is no evidence of it (helpers/report/spec-diff.ts `runRecordNotEvidence`). */
function coverageFromRun(runFile: string): Coverage | { why: string } {
  const run = readRunRecord(resolve(runFile));
  const why = runRecordNotEvidence(run, newestSuiteFileMs());
  if (why) return { why };
  // The current catalogue when it loads, else the one the run was judged against.
  let catalogue: Iterable<Clause>;
  try {
    catalogue = loadCatalogue().values();
  } catch {
    catalogue = catalogueOf(run).values();
  }
  const byId = new Map(run.clauses.map((c) => [c.id, c.tests]));
  return { catalogue, testsOf: (id) => byId.get(id) ?? [], source: { kind: 'run', file: runFile } };
}

/** Coverage from listing the conformance tests without running them; `passedOver` names a run record not used and why. */
async function coverageFromListing(passedOver?: { file: string; why: string }): Promise<Coverage> {
  const listed = await listConformanceTests();
  return {
    catalogue: loadCatalogue().values(),
    testsOf: (id) => listed.filter((t) => t.clauses.includes(id)).map((t) => t.name),
    source: { kind: 'listing', ...(passedOver ? { passedOver } : {}) },
  };
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { run: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 2) {
    console.error('usage: npm run spec-diff -- <old.md> <new.md> [--run <conformance.json>] [--json]');
    return 1;
  }
  const [oldFile, newFile] = positionals;
  const runFile = values.run ?? join(readEnv('CONFORMANCE_REPORT_DIR'), 'conformance.json');
  const fromRun = existsSync(runFile) ? coverageFromRun(runFile) : undefined;
  const { catalogue, testsOf, source } = fromRun && !('why' in fromRun) ? fromRun : await coverageFromListing(fromRun && { file: runFile, why: fromRun.why });
  let note = '';
  let links: StatementLink[] = [];
  try {
    links = loadStatementLinks();
  } catch {
    note = '; spec/statements.json unreadable: clauses by section';
  }
  const diff = diffSpecs(readFileSync(oldFile, 'utf8'), readFileSync(newFile, 'utf8'), catalogue, testsOf, links);
  if (values.json)
    console.log(JSON.stringify({ old: oldFile, new: newFile, source: `${coverageSourceLine(source)}${note}`, sourceKind: source.kind, ...diff }, null, 2));
  else console.log(`${renderSpecDiff(diff, oldFile, newFile, source)}${note ? `\n(${note.slice(2)})` : ''}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`spec-diff: ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
