/**
 * The judgments behind the named verifiers of helpers/checks/engine.ts (h2spec's `VerifyConnectionError`
 * model): each recurring expectation is one pure function that says whether it holds and words
 * expected against actual, so a suite names the judgment instead of writing it inline. No I/O, no
 * record: the check engine records the outcome on the test's clauses.
 */
import { isDeepStrictEqual } from 'node:util';
import { statusLine, type ApiResponse } from '../base/exchange';
import { describeActual, describeReading, getAt, readingHolds, type PathSegment, type Reading } from '../generate/paths';
import { containsString, rowsOf } from '../spec/shapes';
import { render } from '../base/values';

/** The outcome of a judgment: whether it holds, and expected against actual in plain words. */
export interface Judgment {
  ok: boolean;
  expected: unknown;
  actual: unknown;
}

/** "GET /assistants/{id}"-style words for a response's request. */
export function requestWords(res: ApiResponse): string {
  return `${res.request.method} ${res.request.path}`;
}

/** An answer of exactly `status` and, when given, `error.code` (§7: the code decides, never the message). */
export function errorJudgment(res: ApiResponse, status: number, code?: string): Judgment {
  const ok = res.status === status && (code === undefined || res.json?.error?.code === code);
  return { ok, expected: code ? `${status} ${code}` : `${status}`, actual: statusLine(res) };
}

/** A 2xx answer, or exactly `status` when given. */
export function successJudgment(res: ApiResponse, status?: number): Judgment {
  const ok = status === undefined ? res.status >= 200 && res.status < 300 : res.status === status;
  return { ok, expected: status ? `${status}` : '2xx', actual: statusLine(res) };
}

/**
 * A refusal whose exact status the spec does not state: any 4xx (a 404, 409, 422, 400 … all read
 * as "refused"), except the statuses in `except` (a 429 where the refusal must not be the limiter's).
 */
export function refusedJudgment(res: ApiResponse, except: readonly number[] = []): Judgment {
  const ok = res.status >= 400 && res.status < 500 && !except.includes(res.status);
  return { ok, expected: except.length ? `a 4xx refusal other than ${except.join(', ')}` : 'a 4xx refusal', actual: statusLine(res) };
}

/** The value at `path` of `value` reads as `reading` (helpers/generate/paths.ts); an absent value never equals anything. */
export function readingJudgment(value: unknown, path: readonly PathSegment[], reading: Reading): Judgment {
  const actual = getAt(value, path);
  return { ok: readingHolds(reading, actual), expected: describeReading(reading), actual: describeActual(actual) };
}

/** How a document is shown when a value was or was not found in it: the ids of its rows when it is a list, else the document. */
function documentWords(value: unknown): string {
  const rows = rowsOf(value);
  const ids = rows.map((r) => (r && typeof r === 'object' && 'id' in r ? (r as { id: unknown }).id : undefined));
  if (rows.length && ids.every((id) => id !== undefined)) return `rows with ids ${render(ids)}`;
  return value === undefined ? 'no data' : render(value);
}

/**
 * How {@link containsJudgment} searches: `keys` also finds `text` as a property name (ids used as
 * map keys); `text` searches a raw answer body (a string `value`) for `text` anywhere in it, even
 * inside another string (an id in a URL, a body that is not JSON).
 */
export interface ContainsOptions {
  keys?: boolean;
  text?: boolean;
}

function found(value: unknown, text: string, opts: ContainsOptions): boolean {
  return opts.text ? typeof value === 'string' && value.includes(text) : containsString(value, text, opts);
}

/**
 * `text` occurs in `value` as an exact string value (nested objects and arrays; see
 * {@link ContainsOptions}): an id in a list whose row shape the spec does not show (§4.5), a
 * stored label.
 */
export function containsJudgment(value: unknown, text: string, opts: ContainsOptions = {}): Judgment {
  return { ok: found(value, text, opts), expected: `${JSON.stringify(text)} in the answer`, actual: documentWords(value) };
}

/** The inverse of {@link containsJudgment}: `text` occurs nowhere in `value`. */
export function lacksJudgment(value: unknown, text: string, opts: ContainsOptions = {}): Judgment {
  return { ok: !found(value, text, opts), expected: `no ${JSON.stringify(text)} in the answer`, actual: documentWords(value) };
}

/**
 * Silence: `found` (deliveries that must not have come, rows that must not be listed, ids of
 * another tenant) is empty. A failure counts them and shows the first three.
 */
export function noneJudgment(found: readonly unknown[], expected: string): Judgment {
  return { ok: found.length === 0, expected, actual: `${found.length} found: ${firstThree(found)}` };
}

/** The first three of `items`, briefly, `; `-separated, with `; …` when there are more. */
function firstThree(items: readonly unknown[]): string {
  const shown = items
    .slice(0, 3)
    .map((f) => render(f))
    .join('; ');
  return `${shown}${items.length > 3 ? '; …' : ''}`;
}

/**
 * Arrival in a window: what was waited for (a delivery, a retry, a 429 by the mint past the
 * budget) came, so `arrived` is neither undefined nor null; `seen` words what came instead.
 */
export function arrivedJudgment(arrived: unknown, expected: string, seen: string): Judgment {
  return { ok: arrived !== undefined && arrived !== null, expected, actual: seen };
}

/** Every one of `items` satisfies `holds`; a failure counts the items that do not and shows the first three. */
export function everyJudgment<T>(items: readonly T[], holds: (item: T) => boolean, expected: string): Judgment {
  const offenders = items.filter((i) => !holds(i));
  return { ok: offenders.length === 0, expected, actual: `${offenders.length} of ${items.length} not: ${firstThree(offenders)}` };
}

/**
 * Whether a details entry's `field` (§4.1, §7) names `name`: the field itself, or one segment of
 * it read as a path (`settings.x`, `/a/x`, `items[0]`). An enclosing field is accepted as naming
 * a field inside it, and a path through the field as naming it (§4.1 does not say how deep the
 * path goes: every careful reading is accepted).
 */
export function fieldNamed(field: unknown, name: string): boolean {
  if (typeof field !== 'string' || !field) return false;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return field === name || new RegExp(`(^|[./\\[])${escaped}(\\]|$|[.\\[/])`).test(field);
}

/** `error.details` of a §7 refusal holds an entry naming one of `names` ({@link fieldNamed}). */
export function namesFieldJudgment(res: ApiResponse, names: readonly string[]): Judgment {
  const details: unknown = res.json?.error?.details;
  const entries = Array.isArray(details) ? (details as { field?: unknown }[]) : [];
  return {
    ok: entries.some((d) => names.some((n) => fieldNamed(d?.field, n))),
    expected: `an entry whose field is ${names.join(' or ')}`,
    actual: Array.isArray(details) ? entries.map((d) => d?.field) : `error.details ${details === undefined ? 'absent' : describeActual(details)}`,
  };
}

/** Deep equality: `actual` equals `expected`. */
export function equalJudgment(actual: unknown, expected: unknown): Judgment {
  return { ok: isDeepStrictEqual(actual, expected), expected, actual };
}
