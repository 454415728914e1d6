/**
 * `npm run spec-diff -- <old.md> <new.md> [--run <conformance.json>] [--json]`
 *
 * Lists the statements (table rows, list items, sentences) added, removed and changed between two
 * versions of the spec document, and for each the clauses linked to it in spec/statements.json (an
 * added statement: the clauses of its section, as candidates) and the tests that cover them, then
 * the statements left without a test. Tests come from the run record (`--run`, default reports/conformance.json when present),
 * else from listing the conformance tests without running them. Exit 0 (1 on bad input).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCatalogue, type Clause } from '../helpers/spec/catalogue';
import { diffSpecs, renderSpecDiff } from '../helpers/report/spec-diff';
import { catalogueOf } from '../helpers/report/model';
import { readRunRecord } from '../helpers/report/record-io';
import { listConformanceTests } from '../helpers/report/list-tests';
import { REPORT_DIR_VAR } from '../helpers/report/env';
import { loadStatementLinks, type StatementLink } from '../helpers/report/statements';

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
  const runFile = values.run ?? join(process.env[REPORT_DIR_VAR] ?? 'reports', 'conformance.json');
  let catalogue: Iterable<Clause>;
  let testsOf: (id: string) => string[];
  let source: string;
  if (existsSync(runFile)) {
    const run = readRunRecord(resolve(runFile));
    // The current catalogue when it loads, else the one the run was judged against.
    catalogue = (() => {
      try {
        return loadCatalogue().values();
      } catch {
        return catalogueOf(run).values();
      }
    })();
    const byId = new Map(run.clauses.map((c) => [c.id, c.tests]));
    testsOf = (id) => byId.get(id) ?? [];
    source = `tests from ${runFile}`;
  } else {
    catalogue = loadCatalogue().values();
    const listed = await listConformanceTests();
    testsOf = (id) => listed.filter((t) => t.clauses.includes(id)).map((t) => t.name);
    source = 'tests from vitest list --project conformance';
  }
  let links: StatementLink[] = [];
  try {
    links = loadStatementLinks();
  } catch {
    source += '; spec/statements.json unreadable: clauses by section';
  }
  const diff = diffSpecs(readFileSync(oldFile, 'utf8'), readFileSync(newFile, 'utf8'), catalogue, testsOf, links);
  if (values.json) console.log(JSON.stringify({ old: oldFile, new: newFile, source, ...diff }, null, 2));
  else console.log(`${renderSpecDiff(diff, oldFile, newFile)}\n(${source})`);
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
