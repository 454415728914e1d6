/**
 * The causes of spec/statements.json's ways (issue 34, item 4): beside the families of issue 27
 * (cardinality, scope, units, paths, credentials, value), each way may name the layer under an
 * API whose plausible defect breaks the statement that way: a database's collation, column width
 * and charset, soft deletes and unique indexes; caches; the parsers of URLs, media types, numbers
 * and JSON; writes that append where they should replace; lifecycles. A list of causes found by
 * asking "what under an API could break this sentence", so the suite is not limited to the ways
 * someone already thought of; docs/mutation.md, "Causes". `test/unit/statement-ways.test.ts`
 * keeps every cause covered by a fault and its test, or explained, through {@link checkCauses}.
 */
import type { StatementLink } from '../helpers/report/statements';

/** One cause: its name (as ways give it) and the defect in words. */
export interface Cause {
  name: string;
  layer: 'database' | 'cache' | 'parser' | 'write' | 'lifecycle';
  defect: string;
}

/** Every cause a way may name. */
export const CAUSES: readonly Cause[] = [
  { name: 'collation', layer: 'database', defect: 'a case- or accent-insensitive collation compares keys, enum values or names as equal when they differ' },
  { name: 'column-width', layer: 'database', defect: 'a column cuts or refuses a value at its width, one off the stated limit' },
  {
    name: 'charset',
    layer: 'database',
    defect: 'a column stores bytes, not characters: a 3-byte utf8 column cuts characters outside the BMP, a limit counts bytes',
  },
  { name: 'soft-delete', layer: 'database', defect: 'a row marked deleted is still found, or found as something else, by a lookup that forgets the mark' },
  { name: 'unique-index', layer: 'database', defect: 'a value the spec wants unique per object is shared, or a unique index refuses what the spec allows' },
  { name: 'cache', layer: 'cache', defect: 'an answer or a credential is served from a cache after the change that should have replaced it' },
  { name: 'url-parser', layer: 'parser', defect: 'a URL or path is parsed leniently or differently: scheme, host, address forms, path spellings' },
  { name: 'media-type-parser', layer: 'parser', defect: 'a media type is set or read wrongly: JSON sent as text/html or text/plain' },
  { name: 'number-parser', layer: 'parser', defect: 'a number, integer string, digit count or boolean is coerced or bounded wrongly' },
  { name: 'json-parser', layer: 'parser', defect: 'a malformed, huge or odd JSON body is answered outside the stated error' },
  { name: 'append', layer: 'write', defect: 'a write appends to or merges with the stored value where the spec says it replaces, or replaces where it merges' },
  {
    name: 'race',
    layer: 'write',
    defect: 'a read and the write it decides are two steps with an await between: requests sent at once lose an update or pass a limit together',
  },
  {
    name: 'lifecycle',
    layer: 'lifecycle',
    defect: 'a state transition is missed: an event not emitted on one path, a resource present too early or gone too late',
  },
];

/**
 * Checks the causes the ways name: every way's `cause` is one of {@link CAUSES}, and every cause
 * is named by at least one way that is covered (a fault) or explained. Never throws; answers the
 * problems, each naming what to add.
 */
export function checkCauses(links: readonly StatementLink[], causes: readonly Cause[] = CAUSES): string[] {
  const known = new Set(causes.map((c) => c.name));
  const named = new Set<string>();
  const problems: string[] = [];
  for (const l of links)
    for (const w of l.ways ?? []) {
      if (w.cause === undefined) continue;
      if (!known.has(w.cause)) problems.push(`${l.key}: way names unknown cause "${w.cause}" (known: ${[...known].join(', ')})`);
      else if (w.fault || w.explained) named.add(w.cause);
    }
  for (const c of causes) if (!named.has(c.name)) problems.push(`cause "${c.name}" (${c.defect}) is named by no way: add a fault and its test, or explain it`);
  return problems;
}
