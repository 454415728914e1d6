/**
 * The bottom floor of helpers/: what one exchange with the target is, as every other floor sees
 * it (the client that makes it, the checks that judge it, the recorder that keeps it as evidence),
 * and its one-line description for failure messages. Imports nothing of helpers/ but redaction.
 */
import { redact } from './redact';

/** What was sent, secrets removed. Bodies are cut at 4,000 characters. */
export interface RequestSummary {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * A JSON value as the target sent it, before any check has established its shape. A test reads
 * into it freely (`res.json.data.assistants[0].id`): reading a field is how a check finds it
 * missing or wrong, and a type that claimed more would be a guess. This alias is the one place the
 * code base gives up a static type, so every such value says why.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an answer's shape is what the checks establish
export type UncheckedJson = any;

/** One answer of the target. */
export interface ApiResponse<T = UncheckedJson> {
  status: number;
  /** Response headers, lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Raw body bytes as text (UTF-8). */
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: T;
  /** Wall time of the final attempt, in ms. */
  durationMs: number;
  /** Number of retries that preceded this answer (0 when the first attempt answered). */
  retries: number;
  /**
   * Set when the first answer to this request had a body that did not parse and the request was
   * sent once more (§8; helpers/http/mangled.ts): this is the second answer, with the first one's status.
   */
  notJsonResent?: boolean;
  /** What was sent, redacted. */
  request: RequestSummary;
}

/** One exchange kept as failure evidence (redacted): the request, and the answer or the error. */
export interface Exchange {
  request: RequestSummary;
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
}

/**
 * One-line description of an exchange for failure messages, redacted: the request line with its
 * credential header and X-Tenant-Id, then the status and the body (cut at 500 characters). Empty
 * for no response.
 */
export function describeExchange(res: ApiResponse | undefined): string {
  if (!res) return '';
  const auth = res.request.headers.authorization ?? (res.request.headers['x-api-key'] ? `X-Api-Key ${res.request.headers['x-api-key']}` : 'no credential');
  const tenant = res.request.headers['x-tenant-id'] ? `  x-tenant-id: ${res.request.headers['x-tenant-id']}` : '';
  const body = res.text.length > 500 ? `${res.text.slice(0, 500)}…` : res.text;
  return redact(`\n  request:  ${res.request.method} ${res.request.path}  authorization: ${auth}${tenant}\n  answer:   ${res.status} ${body}`);
}

/**
 * The status and what names it, for expected/actual texts: `401 UNAUTHORIZED` (envelope code),
 * `404 {"error":"not_found"}` (a bare §7 body), `200 (success envelope)`, or the bare status.
 */
export function statusLine(res: Pick<ApiResponse, 'status' | 'json'>): string {
  const e = res.json?.error;
  if (typeof e === 'string') return `${res.status} {"error":"${e}"}`;
  if (typeof e?.code === 'string') return `${res.status} ${e.code}`;
  return `${res.status}${res.json?.success === true ? ' (success envelope)' : ''}`;
}

/**
 * Whether an answer says the route itself is not served: 404 with code NOT_FOUND (§7 "the route
 * does not exist") or 405. A 404 RESOURCE_NOT_FOUND or a bare not_found is an answer of a served route.
 */
export function routeNotServed(res: Pick<ApiResponse, 'status' | 'json'>): boolean {
  return res.status === 405 || (res.status === 404 && res.json?.error?.code === 'NOT_FOUND');
}

/**
 * Whether an answer is a complete 2xx whose body is not JSON (not empty, not 204): the API's defect
 * (§2.1), on which a test's other checks cannot be evaluated.
 */
export function notJson(res: Pick<ApiResponse, 'status' | 'text' | 'json'>): boolean {
  return res.status >= 200 && res.status < 300 && res.status !== 204 && res.json === undefined && res.text.trim() !== '';
}

/** Why a check on an answer whose body was not JSON is not evaluated (an `error` of that check's clauses, not a `fail`). */
export const NOT_JSON = 'the answer was not JSON';

/**
 * How a curl reproduction presents a principal's credential: shell words that stand for the key and
 * for X-Tenant-Id (`$CORE_API_TENANT_KEY`, `$CORE_API_TENANT_ID`), so no secret is ever printed.
 * Both absent: no credential header (an anonymous request).
 */
export interface CurlCredential {
  /** The key after `Authorization: ApiKey `, e.g. `$CORE_API_ORG_KEY`. */
  key?: string;
  /** The X-Tenant-Id value, e.g. `$CORE_API_TENANT_ID`. */
  tenantId?: string;
}

/** `text` as one single-quoted shell word. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A curl command that repeats a request against `$CORE_API_BASE_URL`, for failure messages
 * (robustness findings, h2spec-style "how to see it yourself"): the credential as shell variables
 * (`credential`; helpers/world/world.ts `curlCredential` gives a principal's), then `headers` (a header
 * whose value is `undefined` is left out; values over 60 characters are shortened and say their
 * length), then `body` (over 200 characters shortened likewise). Every literal reaches curl as
 * written: only `$CORE_API_BASE_URL` and the credential variables expand (a path holding a character
 * the shell reads inside double quotes is single-quoted).
 */
export function curlReproduction(
  req: { method: string; path: string; headers?: Record<string, string | undefined>; body?: string },
  credential: CurlCredential = {},
): string {
  const auth = credential.key === undefined ? '' : ` -H "Authorization: ApiKey ${credential.key}"`;
  const tenant = credential.tenantId === undefined ? '' : ` -H "X-Tenant-Id: ${credential.tenantId}"`;
  const headers = Object.entries(req.headers ?? {})
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => ` -H ${shellWord(`${k}: ${v.length > 60 ? `${v.slice(0, 20)}…(${v.length} characters)` : v}`)}`)
    .join('');
  const body =
    req.body === undefined
      ? ''
      : ` --data-binary ${shellWord(req.body.length > 200 ? `${req.body.slice(0, 200)}… (${req.body.length} characters)` : req.body)}`;
  // A path the shell would read inside double quotes ($, `, ", \, !) is one single-quoted word after the base URL's variable.
  const url = /[$`"\\!]/.test(req.path) ? `"$CORE_API_BASE_URL"${shellWord(req.path)}` : `"$CORE_API_BASE_URL${req.path}"`;
  return `curl -X ${req.method} ${url}${auth}${tenant}${headers}${body}`;
}
