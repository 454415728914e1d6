/**
 * The clause catalogue (`spec/clauses/*.json`): every testable statement of the spec with a stable
 * id, its section, a one-line paraphrase, its level and where it can be tested. Kubernetes
 * conformance style: a unit test checks mechanically that tests and catalogue never drift apart.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How binding a clause is: a stated rule, advice (§5.4, §8 back-off), or information only. */
export type ClauseLevel = 'must' | 'should' | 'informational';

/** Where a clause can be checked: on a simulator (control API), on a live tenant. Empty: not testable. */
export type ClauseTarget = 'simulator' | 'live';

/** One catalogue entry. */
export interface Clause {
  /** Stable id `<section>/<slug>`, e.g. `5.6/rotated-key`. */
  id: string;
  /** Spec section, e.g. `5.6`, `4.5`, `2.3`. */
  section: string;
  /** One-line paraphrase of the statement. */
  text: string;
  level: ClauseLevel;
  /** Targets on which a test can check it; `[]` when not testable. */
  targets: ClauseTarget[];
  /** Why it is not testable, or what limits it (e.g. "not shown"). */
  reason?: string;
  /** Readings a careful implementer could take, all accepted by the tests. */
  ambiguity?: string;
  /** Name of the catalogue file it came from (filled by the loader). */
  file?: string;
}

/** Folder of the catalogue files. */
export const CATALOGUE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'spec', 'clauses');

/**
 * Loads every catalogue file.
 * @throws Error on a duplicate id, a malformed id, or a file that is not `{ clauses: [...] }`.
 */
export function loadCatalogue(dir: string = CATALOGUE_DIR): Map<string, Clause> {
  const out = new Map<string, Clause>();
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    if (!Array.isArray(doc.clauses)) throw new Error(`${name}: expected { "clauses": [...] }`);
    for (const c of doc.clauses as Clause[]) {
      if (!/^\d+(\.\d+)*\/[a-z0-9][a-z0-9.-]*$/.test(c.id)) throw new Error(`${name}: malformed clause id ${c.id}`);
      if (out.has(c.id)) throw new Error(`${name}: duplicate clause id ${c.id} (also in ${out.get(c.id)!.file})`);
      out.set(c.id, { ...c, file: name });
    }
  }
  return out;
}

/** Section of a clause id (`5.6/rotated-key` → `5.6`). */
export function sectionOf(id: string): string {
  return id.split('/')[0];
}

/** Top-level section number (`5.6` → `5`). */
export function topSection(section: string): string {
  return section.split('.')[0];
}
