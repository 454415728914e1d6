/**
 * Comparisons over what the spec documents, and nothing else. A conformant server may return
 * fields the spec does not name (§9.4: clients ignore unknown fields), including ones it changes
 * by itself on every write or every read (a version counter, a served-at time, an etag-like
 * field). "Unchanged", "equal" and "converges" checks therefore compare the documented fields of
 * the answer's schema (schemas/<name>.json `properties`, the §2.2 response column for an
 * assistant) and leave the rest to drift reporting.
 *
 * What a comparison covers is a named {@link Shape}, and a documented field it leaves out is named
 * by the caller ({@link documented}'s `ignore`, e.g. {@link WRITE_STAMPS}): nothing is dropped by a
 * default the reader cannot see. `verify.unchanged(requirement, before, after, shape)`
 * (helpers/checks/clause.ts) is the check that uses them.
 */
import { schemaDocument } from './validator';
import { SERVER_OWNED } from './unchanged';

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
 * The documented fields a write changes by itself: `updatedAt` (§2.2), which every accepted write
 * moves. A comparison across an accepted write (a replay converging, a PATCH leaving other fields as
 * they were) ignores them; one across a refused write does not (nothing may change, §4.1).
 */
export const WRITE_STAMPS: readonly string[] = ['updatedAt'];

/**
 * The documented fields of `schema` that a comparison counts: all but those in `ignore` (named by
 * the caller: {@link WRITE_STAMPS}, a field a PATCH set, or none) and the server's own
 * ({@link SERVER_OWNED}, helpers/spec/unchanged.ts: never compared).
 * @throws Error when the schema is unknown (see {@link documentedFields}).
 */
export function comparedFields(schema: string, ignore: readonly string[] = []): string[] {
  return documentedFields(schema).filter((k) => !ignore.includes(k) && !SERVER_OWNED.includes(k));
}

/**
 * The documented part of an answer: only the fields {@link comparedFields} keeps. Anything that
 * is not a plain object is answered as is, so a wrong shape still fails the comparison that follows.
 * @throws Error when the schema is unknown (see {@link documentedFields}).
 */
export function documentedPart(value: unknown, schema: string, ignore: readonly string[]): unknown {
  // The schema is looked up for an object only: anything else is compared as is.
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return fields(comparedFields(schema, ignore)).part(value);
}

/** What an "unchanged" comparison covers of a value, said by name so a failure and a reader both see it. */
export interface Shape {
  /** Words for the compared part, e.g. "the documented fields of assistant, updatedAt aside". */
  readonly name: string;
  /** The compared part of `value`. */
  part(value: unknown): unknown;
}

/**
 * The documented fields of `schema` (the §2.2 response column for `assistant`), less the fields
 * named in `ignore`.
 * @throws Error from `part` when the schema is unknown.
 */
export function documented(schema: string, ignore: readonly string[] = []): Shape {
  return {
    name: `the documented fields of ${schema}${asideWords(schema, ignore)}`,
    part: (value) => documentedPart(value, schema, ignore),
  };
}

/** `, updatedAt, featureFlags aside` for what {@link comparedFields} leaves out of `schema`'s documented fields; '' when nothing. */
function asideWords(schema: string, ignore: readonly string[]): string {
  let own: string[] = [];
  try {
    own = SERVER_OWNED.filter((k) => documentedFields(schema).includes(k));
  } catch {
    // An unknown schema throws when a value is compared, not when the shape is named.
  }
  const aside = [...ignore, ...own];
  return aside.length ? `, ${aside.join(', ')} aside` : '';
}

/** Exactly the top-level fields `names` of an object (those it has); a value that is not an object is compared as is. */
export function fields(names: readonly string[]): Shape {
  return {
    name: `the fields ${names.join(', ')}`,
    part: (value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(names.filter((k) => Object.prototype.hasOwnProperty.call(value, k)).map((k) => [k, (value as Record<string, unknown>)[k]]))
        : value,
  };
}

/** The whole value: for answers the spec shows only in part, where no documented field list exists to narrow to. */
export const WHOLE: Shape = { name: 'the whole value', part: (value) => value };

/**
 * An answer as a reader sees it: its status and its `data` in `shape` (`part` takes an
 * `ApiResponse`-like `{ status, json }`).
 */
export function answerOf(shape: Shape): Shape {
  return {
    name: `the status and ${shape.name} of the answer`,
    part: (value) => {
      const res = value as { status?: number; json?: { data?: unknown } } | undefined;
      return { status: res?.status, data: shape.part(res?.json?.data) };
    },
  };
}
