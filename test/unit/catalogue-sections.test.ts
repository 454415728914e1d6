/**
 * The clause catalogue against the spec document (Kubernetes conformance style): every id's prefix
 * is its section, every section exists in the spec, and every numbered section of the spec has a
 * clause. Needs the spec: without it each test skips with one line saying where it looked.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_DIR, type Clause } from '../../helpers/spec/catalogue';
import { readSpec, SPEC_NEEDED, withinSection } from '../../helpers/spec/spec-doc';

const spec = readSpec();
if (!spec) console.warn(`catalogue-sections.test.ts: ${SPEC_NEEDED}`);

/** Every clause of every catalogue file (their format is checked by catalogue.test.ts). */
const entries: (Clause & { file: string })[] = readdirSync(CATALOGUE_DIR)
  .filter((f) => f.endsWith('.json'))
  .flatMap((file) => (JSON.parse(readFileSync(join(CATALOGUE_DIR, file), 'utf8')).clauses as Clause[]).map((c) => ({ ...c, file })));

describe('catalogue against the spec document', () => {
  test.skipIf(!spec)(`an id's prefix is its section, and the section exists in the spec${spec ? '' : ` (${SPEC_NEEDED})`}`, () => {
    const numbers = spec!.sections.map((s) => s.number);
    const wrong = entries.filter((c) => c.id.split('/')[0] !== c.section).map((c) => `${c.file}: ${c.id} has section ${c.section}`);
    const unknown = entries
      .filter((c) => !numbers.some((n) => withinSection(c.section, n)))
      .map((c) => `${c.file}: ${c.id} (§${c.section} is no section of the spec)`);
    expect([...wrong, ...unknown]).toEqual([]);
  });

  test.skipIf(!spec)(`every section of the spec (1, 2.1 … 2.10, 3, 4.1 … 4.5, 5, 6, 7, 8, 9) has at least one clause${spec ? '' : ` (${SPEC_NEEDED})`}`, () => {
    const leaves = spec!.sections.filter((s) => s.leaf);
    expect(leaves.length).toBeGreaterThanOrEqual(22);
    const empty = leaves.filter((s) => !entries.some((c) => withinSection(c.section, s.number))).map((s) => `§${s.number} ${s.title}`);
    expect(empty, 'sections without a clause').toEqual([]);
  });
});
