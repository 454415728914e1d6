/**
 * The clause catalogue (spec/clauses/*.json) and the tests never drift apart (Kubernetes
 * conformance style): every file is well-formed, ids are unique, every id a test names exists,
 * and every testable clause has a test (the checks against the spec document itself are in
 * catalogue-sections.test.ts). Tests are enumerated without running them (`vitest list --project conformance`); their
 * ids are the bracketed ids at the end of each name (helpers/checks/clause.ts `clauseTest`). Checks name
 * clauses too (OpenID-conformance style); those ids are read as string literals from the suites and
 * the helpers they use (TypeScript parser), so a misspelt id on a check is caught as well, and a
 * clause proven only by checks (e.g. the envelope audit's) counts as tested.
 * While suites are still being written this may fail; it is never silenced with an allow-list.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { CATALOGUE_DIR, type Clause } from '../../helpers/spec/catalogue';
import { clauseIdsInSource, listConformanceTests, type ListedTest } from '../../helpers/report/list-tests';

/** Every clause of every catalogue file, read directly (the loader stops at the first problem). */
const files = readdirSync(CATALOGUE_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const entries: (Clause & { file: string })[] = [];
const parseErrors: string[] = [];
for (const file of files) {
  try {
    const doc = JSON.parse(readFileSync(join(CATALOGUE_DIR, file), 'utf8'));
    for (const c of Array.isArray(doc?.clauses) ? doc.clauses : []) entries.push({ ...c, file });
  } catch (e) {
    parseErrors.push(`${file}: ${(e as Error).message}`);
  }
}
const ids = new Set(entries.map((c) => c.id));

/** TypeScript files under a folder (recursive). */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

let listed: ListedTest[] = [];
/** Clause ids written in suites and in the helpers they use (not the report code), with their files. */
let inSource = new Map<string, string[]>();
beforeAll(async () => {
  listed = await listConformanceTests();
  const sources = [
    ...tsFiles(join(process.cwd(), 'suites')),
    ...tsFiles(join(process.cwd(), 'helpers')).filter((f) => !f.includes(`${join('helpers', 'report')}`)),
  ];
  inSource = await clauseIdsInSource(sources);
}, 180_000);

const where = (t: ListedTest) => `${relative(process.cwd(), t.file)}: ${t.name}`;

describe('catalogue files', () => {
  test('there is at least one catalogue file and every file is JSON', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(parseErrors).toEqual([]);
  });

  test('every file follows the catalogue format (spec/clauses/README.md): id, section, text, level, targets; reason when not testable', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(process.cwd(), 'helpers', 'report', 'catalogue.schema.json'), 'utf8')));
    const problems: string[] = [];
    for (const file of files) {
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(join(CATALOGUE_DIR, file), 'utf8'));
      } catch {
        continue; // reported above
      }
      if (!validate(doc)) for (const e of validate.errors ?? []) problems.push(`${file}${e.instancePath} ${e.message}`);
    }
    expect(problems).toEqual([]);
  });

  test('ids are unique across all files', () => {
    const seen = new Map<string, string>();
    const dupes: string[] = [];
    for (const c of entries) {
      if (seen.has(c.id)) dupes.push(`${c.id} in ${c.file} and ${seen.get(c.id)}`);
      else seen.set(c.id, c.file);
    }
    expect(dupes).toEqual([]);
  });
});

describe('catalogue against the conformance tests', () => {
  test('the conformance project lists tests', () => {
    expect(listed.length).toBeGreaterThan(0);
  });

  test('no two tests of a file share a full name (run records, merges and baselines key tests by file and name)', () => {
    const seen = new Set<string>();
    const twice = listed.filter((t) => seen.size === seen.add(`${t.file}\u0000${t.name}`).size).map(where);
    expect(twice).toEqual([]);
  });

  test('every test names its clauses in brackets at the end of its name', () => {
    expect(listed.filter((t) => t.clauses.length === 0).map(where)).toEqual([]);
  });

  test('every clause id a test names is in the catalogue', () => {
    const unknown = listed.flatMap((t) => t.clauses.filter((id) => !ids.has(id)).map((id) => `${id} — ${where(t)}`));
    expect(unknown).toEqual([]);
  });

  test('every clause id a check or helper names is in the catalogue', () => {
    const unknown = [...inSource.entries()].filter(([id]) => !ids.has(id)).map(([id, where]) => `${id} — ${where.join(', ')}`);
    expect(unknown).toEqual([]);
  });

  test('every testable clause (targets not empty) has at least one test: named by a test, or by a check in a suite or helper', () => {
    const named = new Set(listed.flatMap((t) => t.clauses));
    const untested = entries.filter((c) => c.targets?.length > 0 && !named.has(c.id) && !inSource.has(c.id)).map((c) => `${c.id} (${c.file}): ${c.text}`);
    expect(untested).toEqual([]);
  });
});
