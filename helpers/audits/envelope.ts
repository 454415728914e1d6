/**
 * Envelope audit (§2.1, §7): every answer any suite receives from a JSON endpoint is checked
 * against the envelope schemas, so a target that drops `metadata.version` fails wherever it is
 * seen, under the envelope's own clause ids. Bare-JSON routes of §7 exceptions 2 and 3 are
 * exempt. Every answer whose body is the API's (the envelope, or a bare body of §7) is also
 * checked to be served as JSON (§1 "responses are JSON", 2.1/json-content-type): the body tells
 * whose answer it is, the media type is then the API's to get right. Failures are soft: recorded
 * on the test and raised when the test body ends.
 *
 * The audit's clauses ({@link AUDIT_CLAUSES}) are the one stated exception to "a test records only
 * the clauses it declares" (docs/writing-suites.md): every test that receives an answer records them.
 *
 * §2.1's rule for an answer that is not JSON lives here too ({@link notJsonRule}): it fails
 * `2.1/json-envelope` once per test, and the test's failing checks are not evaluated on it.
 */
import { apiShaped, onAnswer } from '../http/client';
import { describeExchange, NOT_JSON, notJson, type ApiResponse } from '../base/exchange';
import { findDrift, formatIssues, validate } from '../spec/validator';
import { currentRecord } from '../record/current-test';
import type { Judgment, TestRecorder } from '../record/test-recorder';
import { render } from '../base/values';
import { epochWithin } from '../base/lateness';

/** The envelope clause a body that is not JSON fails (§2.1). */
const JSON_ENVELOPE = '2.1/json-envelope';

/**
 * The clause ids the envelope audit records on any test that receives an answer, declared or not
 * (§2.1, §7): the one exception to "every recorded clause is a declared one".
 */
export const AUDIT_CLAUSES: readonly string[] = [
  '2.1/json-envelope',
  '2.1/success-envelope',
  '7/error-envelope',
  '2.1/metadata-required',
  '2.1/metadata-timestamp-current',
  '2.1/json-content-type',
];

/** Whether `record` already holds a failed `2.1/json-envelope` check (it fails once per test). */
function jsonEnvelopeFailed(record: TestRecorder): boolean {
  return record.checks.some((c) => !c.ok && c.clauses.includes(JSON_ENVELOPE));
}

/**
 * §2.1 for the checks of a test (the check engine's `unevaluated` rule, helpers/checks/engine.ts): a
 * failing check on a complete 2xx answer that is not JSON fails `2.1/json-envelope` once per test
 * (recorded here unless the audit already did), and it, like every failing check of a test that
 * met such an answer, is not evaluated: answers {@link NOT_JSON}. Otherwise undefined.
 */
export function notJsonRule(res: ApiResponse | undefined, record: TestRecorder): string | undefined {
  const thisOne = res !== undefined && notJson(res);
  if (thisOne && !jsonEnvelopeFailed(record)) {
    record.judge(notJsonProblem(res));
  }
  return thisOne || record.receivedNotJson ? NOT_JSON : undefined;
}

/** The failed `2.1/json-envelope` check of an answer whose body is not JSON. */
function notJsonProblem(res: ApiResponse): Judgment {
  return {
    clauses: [JSON_ENVELOPE],
    requirement: 'every answer of a JSON endpoint is a JSON envelope',
    ok: false,
    expected: 'a JSON body',
    actual: `${render(res.text.slice(0, 200))}${res.notJsonResent ? ' (asked again, §8: no body was JSON)' : ''}`,
    evidence: () => describeExchange(res),
  };
}

/** Routes answering bare JSON (§4.5, §7 exceptions 2 and 3), as method + path pattern. */
export const BARE_JSON_ROUTES: { method: string; pattern: RegExp }[] = [
  { method: 'POST', pattern: /^\/calls\/[^/?]+\/monitor-session(\?|$)/ },
  { method: 'POST', pattern: /^\/calls\/[^/?]+\/takeover(\?|$)/ },
  { method: 'POST', pattern: /^\/calls\/[^/?]+\/end(\?|$)/ },
];

/** Whether a request is answered in bare JSON rather than the envelope. */
export function isBareRoute(method: string, path: string): boolean {
  return BARE_JSON_ROUTES.some((r) => r.method === method && r.pattern.test(path));
}

/**
 * Largest accepted distance between `metadata.timestamp` and the local clock when the answer
 * arrived, in ms. "The time the server answered" (§2.1) is checked with room for clock skew
 * between the target and the machine running the suite.
 */
export const TIMESTAMP_TOLERANCE_MS = 30_000;

/**
 * Checks one answer's envelope and returns the failed checks (empty when it conforms).
 * Does not throw. Skips bare routes and bodiless answers (204, HEAD).
 */
export function envelopeProblems(res: ApiResponse, receivedAt = Date.now()): Judgment[] {
  if (isBareRoute(res.request.method, res.request.path.replace(/^https?:\/\/[^/]+/, ''))) return [];
  if (res.status === 204 || (res.text === '' && res.status < 300)) return [];
  const problems: Judgment[] = [];
  // The exchange's description goes into failure details only: built when a check fails.
  const ev = (): string => describeExchange(res);
  const success = res.status >= 200 && res.status < 300;
  if (res.json === undefined) return [notJsonProblem(res)];
  const schema = success ? 'envelope.success' : 'envelope.error';
  const clause = success ? '2.1/success-envelope' : '7/error-envelope';
  const result = validate(schema, res.json);
  if (!result.ok) {
    const fixed = result.issues.some((i) => i.path.startsWith('/metadata')) ? [clause, '2.1/metadata-required'] : [clause];
    problems.push({
      clauses: fixed,
      requirement: success
        ? 'a 2xx answer is { success: true, data, metadata: { timestamp, version } }'
        : 'an error answer is { success: false, error: { code, message }, metadata: { timestamp, version } }',
      ok: false,
      expected: `${status(res)} valid against schemas/${schema}.json`,
      actual: `\n${formatIssues(result.issues).replace(/^/gm, '    ')}`,
      evidence: ev,
    });
  }
  const ts = res.json?.metadata?.timestamp;
  if (typeof ts === 'string' && !Number.isNaN(Date.parse(ts))) {
    // The exchange's span on the runner's clock, from before the request left to the answer: the runner's lateness only widens it.
    const stamp = Date.parse(ts);
    const tookMs = Number.isFinite(res.durationMs) ? res.durationMs : 0;
    if (!epochWithin(stamp, receivedAt - tookMs, receivedAt, TIMESTAMP_TOLERANCE_MS)) {
      problems.push({
        clauses: ['2.1/metadata-timestamp-current'],
        requirement: 'metadata.timestamp is the time the server answered',
        ok: false,
        expected: `within ${TIMESTAMP_TOLERANCE_MS / 1000} s of the exchange on the local clock`,
        actual: `${ts} (${Math.round(Math.abs(stamp - receivedAt) / 1000)} s away)`,
        evidence: ev,
      });
    }
  }
  return problems;
}

/**
 * Whether a Content-Type header value names a JSON media type (RFC 8259 `application/json`, or a
 * `+json` structured syntax suffix, RFC 6839), parameters (charset) aside; false when absent.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/(?:[\w.-]+\+)?json$/i.test((contentType ?? '').split(';')[0].trim());
}

/**
 * §1, §2.1: the failed check of an answer whose body is the API's ({@link apiShaped}: an envelope,
 * or a bare body of §7) but whose Content-Type is not a JSON media type (text/html, text/plain,
 * none); undefined when it is JSON, or when the body is not the API's (a gateway's page is judged
 * elsewhere). Does not throw.
 */
export function mediaTypeProblem(res: ApiResponse): Judgment | undefined {
  if (!apiShaped(res.json) || isJsonMediaType(res.headers['content-type'])) return undefined;
  const type = (res.headers['content-type'] ?? '').split(';')[0].trim();
  return {
    clauses: ['2.1/json-content-type'],
    requirement: "an answer in the API's JSON is served as JSON (Content-Type application/json)",
    ok: false,
    expected: 'Content-Type application/json (or a +json type)',
    actual: `${type ? JSON.stringify(type) : 'none'} on ${status(res)}`,
    evidence: () => describeExchange(res),
  };
}

function status(res: ApiResponse): string {
  return `${res.status} ${res.json?.error?.code ?? ''}`.trim();
}

/**
 * Audits an answer on behalf of the running test (helpers/record/recorder.ts finds its record; `record`
 * names one explicitly): passing audits are recorded once per clause, failing ones are recorded
 * and raised when the test body ends (helpers/checks/clause.ts). Undocumented error codes are recorded as
 * drift. Outside a test, nothing.
 */
export function auditEnvelope(res: ApiResponse, record: TestRecorder | undefined = currentRecord()): void {
  if (!record) return;
  record.audited(ENVELOPE_AUDIT_NAME);
  let problems = envelopeProblems(res);
  // A body that is not JSON fails §2.1 once per test, however many such answers it met.
  if (res.json === undefined && jsonEnvelopeFailed(record)) problems = problems.filter((p) => p.clauses[0] !== JSON_ENVELOPE);
  for (const p of problems) record.judge(p);
  // The media type fails once per test, however many such answers it met, and passes once per test.
  const media = mediaTypeProblem(res);
  if (media && !record.checks.some((c) => !c.ok && c.clauses[0] === media.clauses[0])) record.judge(media);
  if (!media && apiShaped(res.json)) record.judge({ clauses: ['2.1/json-content-type'], requirement: 'answer is served as JSON', ok: true, passOnce: true });
  if (problems.length === 0 && !isBareRoute(res.request.method, res.request.path) && res.json !== undefined) {
    const clause = res.status < 300 ? '2.1/success-envelope' : '7/error-envelope';
    for (const [id, requirement] of [
      [clause, 'answer uses the envelope'],
      ['2.1/json-envelope', 'answer has a JSON body'],
    ] as const) {
      record.judge({ clauses: [id], requirement, ok: true, passOnce: true });
    }
    const code = res.json?.error?.code;
    if (typeof code === 'string' && !validate('error-codes', code).ok) {
      record.drift({ kind: 'error-code', where: `${res.request.method} ${res.request.path.split('?')[0]}`, what: code });
    }
    if (res.status < 300 && res.json?.metadata) record.drift(...findDrift('envelope.success', { ...res.json, data: {} }));
  }
}

let unsubscribe: (() => void) | undefined;

/** The envelope audit's name, as the run record counts the exchanges each audit judged (`audits`). */
export const ENVELOPE_AUDIT_NAME = 'envelope';

/**
 * Subscribes {@link auditEnvelope} to every answer the client hands to a test (helpers/http/client.ts
 * `onAnswer`), once per module instance; every suite file's world calls it (helpers/world/world.ts).
 */
export function installEnvelopeAudit(): void {
  unsubscribe ??= onAnswer((res) => auditEnvelope(res));
}
