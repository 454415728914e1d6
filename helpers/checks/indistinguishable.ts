/**
 * Compares two answers of the target and explains every difference field by field (§5.7, §4.4,
 * §7 exceptions 1 and 2). Used to prove that a resource of another tenant is indistinguishable
 * from one that never existed: same status, same `error.code` and `error.message`, same header
 * names and values (except the volatile headers listed in {@link VOLATILE_HEADERS}, each with its
 * reason), and the same body once `metadata.timestamp` and `metadata.path` are set aside, or, for
 * the bare-JSON routes of §7, the byte-identical body.
 *
 * Pure functions, no I/O: unit-tested in test/unit/compare.test.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import { redact } from '../base/redact';
import { isObject, render } from '../base/values';

/** The part of an answer the comparison reads (an {@link ApiResponse} fits). */
export interface ComparableAnswer {
  status: number;
  /** Response headers, lower-case names (repeated headers joined). */
  headers: Record<string, string>;
  /** Raw body text. */
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json?: unknown;
}

/**
 * How a volatile header is compared:
 * - `presence`: the value is set aside, but a header present in one answer only is a difference;
 * - `ignored`: set aside entirely (connection management and framing, chosen per socket by the
 *   server or a proxy, not per resource).
 */
export type VolatileHandling = 'presence' | 'ignored';

/** One header that may legitimately differ between two answers to the same question. */
export interface VolatileHeader {
  /** Lower-case header name. */
  name: string;
  handling: VolatileHandling;
  /** Why its value may differ between two requests for the same resource. */
  reason: string;
}

/**
 * The one list of headers whose values are not compared, with the reason for each. Anything not
 * listed here is compared by name and value. `content-length` is handled apart (see
 * {@link compareAnswers}): it is compared whenever the two raw bodies have the same length.
 */
export const VOLATILE_HEADERS: readonly VolatileHeader[] = [
  { name: 'date', handling: 'presence', reason: 'time the answer was sent (RFC 9110 §6.6.1); differs by the second' },
  { name: 'etag', handling: 'presence', reason: 'digest of a body that carries metadata.timestamp, so it differs per answer' },
  { name: 'last-modified', handling: 'presence', reason: 'a time' },
  { name: 'expires', handling: 'presence', reason: 'a time computed from the answer time' },
  { name: 'age', handling: 'presence', reason: 'seconds an intermediary cache held the answer' },
  { name: 'x-request-id', handling: 'presence', reason: 'request id: unique per request' },
  { name: 'request-id', handling: 'presence', reason: 'request id: unique per request' },
  { name: 'x-correlation-id', handling: 'presence', reason: 'request id: unique per request' },
  { name: 'x-trace-id', handling: 'presence', reason: 'trace id: unique per request' },
  { name: 'traceparent', handling: 'presence', reason: 'W3C trace context: unique per request' },
  { name: 'tracestate', handling: 'presence', reason: 'W3C trace context: per request' },
  { name: 'x-amzn-requestid', handling: 'presence', reason: 'gateway request id: unique per request' },
  { name: 'x-amzn-trace-id', handling: 'presence', reason: 'load-balancer trace id: unique per request' },
  { name: 'x-amz-cf-id', handling: 'presence', reason: 'CDN request id: unique per request' },
  { name: 'x-amz-cf-pop', handling: 'presence', reason: 'CDN edge that served the request; may change between requests' },
  { name: 'cf-ray', handling: 'presence', reason: 'CDN request id: unique per request' },
  { name: 'x-cache', handling: 'presence', reason: 'CDN hit or miss: depends on what was asked before' },
  { name: 'server-timing', handling: 'presence', reason: 'timing of this request' },
  { name: 'x-response-time', handling: 'presence', reason: 'timing of this request' },
  { name: 'x-runtime', handling: 'presence', reason: 'timing of this request' },
  { name: 'x-ratelimit-remaining', handling: 'presence', reason: 'rate-limit counter: decreases with every request' },
  { name: 'x-ratelimit-reset', handling: 'presence', reason: 'rate-limit window: a time' },
  { name: 'ratelimit-remaining', handling: 'presence', reason: 'rate-limit counter: decreases with every request' },
  { name: 'ratelimit-reset', handling: 'presence', reason: 'rate-limit window: a time' },
  { name: 'ratelimit', handling: 'presence', reason: 'rate-limit counter and window (IETF draft): change per request' },
  { name: 'set-cookie', handling: 'presence', reason: 'load-balancer stickiness cookies carry per-request values and expiry times' },
  { name: 'connection', handling: 'ignored', reason: 'connection management: a server or proxy may close any socket (e.g. after N requests)' },
  { name: 'keep-alive', handling: 'ignored', reason: 'connection management: per socket, not per resource' },
  { name: 'transfer-encoding', handling: 'ignored', reason: 'message framing chosen by the server or a proxy, not by the resource' },
];

const VOLATILE = new Map(VOLATILE_HEADERS.map((h) => [h.name, h]));

/** How bodies are compared. */
export type BodyComparison =
  /** JSON envelope (§2.1): deep equality after setting aside the values of metadata.timestamp and metadata.path. */
  | 'envelope'
  /** Byte-identical text (§7 exceptions 1 and 2: `{ "error": "not_found" }`). */
  | 'bytes';

/** Options of {@link compareAnswers}. */
export interface CompareOptions {
  /** Names of the two answers in explanations; default `['first', 'second']`, e.g. `['never-existed', 'other-tenant']`. */
  labels?: [string, string];
  /** Default `envelope`. */
  body?: BodyComparison;
  /**
   * The id each answer was asked about. Where a body legitimately echoes the requested id (e.g. a
   * per-id report of GET /calls/insights), each answer's own id is replaced by `{id}` before the
   * bodies are compared. Only in `envelope` mode; a `bytes` comparison is never rewritten.
   */
  ids?: [string, string];
}

/** One difference between the two answers. */
export interface Difference {
  /** `status`, `header <name>`, `body`, or `body <dotted.path>` (e.g. `body error.message`). */
  field: string;
  /** The value in the first answer; undefined when absent there. */
  first: unknown;
  /** The value in the second answer; undefined when absent there. */
  second: unknown;
  /** One line, e.g. `header x-foo: present in other-tenant answer only`. Secrets redacted. */
  explanation: string;
}

/** Result of {@link compareAnswers}. */
export interface Comparison {
  /** True when no difference was found. */
  same: boolean;
  differences: Difference[];
  /** Headers whose values were set aside in this comparison, with the reason. */
  setAside: string[];
}

function diffLine(field: string, first: unknown, second: unknown, labels: [string, string]): Difference {
  let explanation: string;
  if (first === undefined) explanation = `${field}: present in ${labels[1]} answer only (${render(second)})`;
  else if (second === undefined) explanation = `${field}: present in ${labels[0]} answer only (${render(first)})`;
  else explanation = `${field}: ${render(first)} in ${labels[0]} answer, ${render(second)} in ${labels[1]} answer`;
  return { field, first, second, explanation: redact(explanation) };
}

/** Structural difference of two JSON values, one entry per differing leaf, dotted paths. */
function diffJson(a: unknown, b: unknown, path: string, out: { path: string; a: unknown; b: unknown }[]): void {
  if (isDeepStrictEqual(a, b)) return;
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) diffJson(a[k], b[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((v, i) => diffJson(v, b[i], `${path}[${i}]`, out));
    return;
  }
  out.push({ path, a, b });
}

const SET_ASIDE_MARK = '<set aside>';

/** A copy of an envelope with the values of metadata.timestamp and metadata.path replaced by a mark (presence kept). */
function setAsideMetadata(json: unknown): unknown {
  if (!isObject(json) || !isObject(json.metadata)) return json;
  const metadata = { ...json.metadata };
  for (const k of ['timestamp', 'path']) if (k in metadata) metadata[k] = SET_ASIDE_MARK;
  return { ...json, metadata };
}

function replaceId(json: unknown, id: string): unknown {
  if (!id) return json;
  return JSON.parse(JSON.stringify(json).split(id).join('{id}'));
}

/**
 * Compares two answers to "the same question" (e.g. the same route asked about an id that never
 * existed and about another tenant's id) and lists every difference:
 * - status;
 * - headers by name and value, except {@link VOLATILE_HEADERS} (compared by presence or not at
 *   all, as listed) and `content-length`, which is compared only when the two raw bodies have the
 *   same length (otherwise the body comparison explains the difference, and in `envelope` mode the
 *   set-aside metadata values may legitimately differ in length);
 * - body: in `envelope` mode, the parsed JSON with the values of metadata.timestamp and
 *   metadata.path set aside (their presence still compared), field by field so that `error.code`
 *   and `error.message` are named; a body that is not JSON is compared as text. In `bytes` mode,
 *   the raw text.
 * Never throws. Explanations are redacted (no key or secret).
 */
export function compareAnswers(first: ComparableAnswer, second: ComparableAnswer, opts: CompareOptions = {}): Comparison {
  const labels = opts.labels ?? ['first', 'second'];
  const mode = opts.body ?? 'envelope';
  const differences: Difference[] = [];
  const setAside: string[] = [];

  if (first.status !== second.status) differences.push(diffLine('status', first.status, second.status, labels));

  const names = [...new Set([...Object.keys(first.headers), ...Object.keys(second.headers)].map((n) => n.toLowerCase()))].sort();
  const get = (a: ComparableAnswer, n: string) => {
    for (const [k, v] of Object.entries(a.headers)) if (k.toLowerCase() === n) return v;
    return undefined;
  };
  for (const name of names) {
    const a = get(first, name);
    const b = get(second, name);
    const volatile = VOLATILE.get(name);
    if (name === 'content-length') {
      if (Buffer.byteLength(first.text) !== Buffer.byteLength(second.text) && a !== undefined && b !== undefined) {
        setAside.push('content-length: the two bodies differ in length (explained by the body comparison)');
        continue;
      }
    } else if (volatile?.handling === 'ignored') {
      if (a !== b) setAside.push(`${name}: ${volatile.reason}`);
      continue;
    } else if (volatile?.handling === 'presence' && a !== undefined && b !== undefined) {
      if (a !== b) setAside.push(`${name}: ${volatile.reason}`);
      continue;
    }
    if (a !== b) differences.push(diffLine(`header ${name}`, a, b, labels));
  }

  if (mode === 'bytes' || first.json === undefined || second.json === undefined) {
    if (first.text !== second.text) {
      const d = diffLine('body', first.text, second.text, labels);
      if (first.text === '' || second.text === '')
        d.explanation = redact(`body: ${render(first.text)} in ${labels[0]} answer, ${render(second.text)} in ${labels[1]} answer`);
      differences.push(d);
    }
  } else {
    let a = setAsideMetadata(first.json);
    let b = setAsideMetadata(second.json);
    if (opts.ids) {
      a = replaceId(a, opts.ids[0]);
      b = replaceId(b, opts.ids[1]);
    }
    const out: { path: string; a: unknown; b: unknown }[] = [];
    diffJson(a, b, '', out);
    for (const d of out) differences.push(diffLine(d.path ? `body ${d.path}` : 'body', d.a, d.b, labels));
  }
  return { same: differences.length === 0, differences, setAside };
}

/**
 * The differences of a comparison as an indented multi-line text for a failure message, e.g.
 * `  - header x-foo: present in other-tenant answer only ("1")`. Empty string when the answers match.
 */
export function explainDifferences(c: Comparison): string {
  return c.differences.map((d) => `  - ${d.explanation}`).join('\n');
}
