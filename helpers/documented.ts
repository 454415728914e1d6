/**
 * Comparisons over what the spec documents, and nothing else. A conformant server may return
 * fields the spec does not name (§9.4: clients ignore unknown fields), including ones it changes
 * by itself on every write or every read (a version counter, a served-at time, an etag-like
 * field). "Unchanged", "equal" and "converges" checks therefore compare the documented fields of
 * the answer's schema (schemas/<name>.json `properties`, the §2.2 response column for an
 * assistant) and leave the rest to drift reporting.
 */
import { schemaDocument } from './validator';

/**
 * Names of the documented top-level fields of a response schema, e.g. `documentedFields('assistant')`.
 * @throws Error when the schema is unknown or has no `properties`.
 */
export function documentedFields(schema: string): string[] {
  const doc = schemaDocument(schema);
  const props = doc?.properties;
  if (!props || typeof props !== 'object') throw new Error(`schemas/${schema}.json has no top-level properties`);
  return Object.keys(props);
}

/**
 * The documented part of an answer: only the fields `schema` documents, without the ones in
 * `except` (by default `updatedAt`, which every write changes). Anything that is not a plain
 * object is answered as is, so a wrong shape still fails the comparison that follows.
 */
export function documentedPart(value: unknown, schema: string, except: readonly string[] = ['updatedAt']): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of documentedFields(schema)) {
    if (except.includes(k)) continue;
    if (Object.prototype.hasOwnProperty.call(value, k)) out[k] = (value as Record<string, unknown>)[k];
  }
  return out;
}
