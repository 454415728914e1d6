/**
 * The credential check that follows the reachability probe (helpers/target/probe.ts) in a live-tenant run:
 * one harmless read (`GET /assistants`, §4.5) with each credential the operator gave — tenant key
 * A, tenant key B, the organization key with each tenant id (§5.2) — before the first test. A
 * refused one stops the run with one line naming the variable, the status and the likely causes,
 * instead of a hundred set-up errors that each print a 401 (issue 32, item 5). Rotation (§5.4: the
 * previous key stops at once, no rollback) is the likeliest way a nightly run breaks.
 *
 * Only a refusal of the credential stops the run: 401 (§5.6: unknown, invalid or rotated key, a
 * trailing newline, an unexpanded variable), 403 (§5.6: the named tenant is not in the key's
 * organization), or 400 (§5.6: an organization key where a tenant key was expected, so no
 * `X-Tenant-Id` went with it; or a tenant id the API does not take). A 429 is waited out; a 5xx,
 * an answer that is not the API's or a lost connection after a few attempts lets the run go on
 * (the probe judged reachability; the tests will say what they meet). The key itself is never
 * printed: messages name variables, statuses and error codes only, and pass through {@link redact}.
 */
import { request, type Dispatcher } from 'undici';
import type { LiveFixtures } from './target';
import { REQUIRED_LIVE_VARIABLES } from './target';
import { suiteDispatcher } from '../http/proxy';
import { redact, registerSecret } from '../base/redact';
import { requestTimeoutMs } from '../base/deadline';

/** One credential to check: the variables that hold it, and what is sent. */
export interface CredentialUnderCheck {
  /** Variable holding the key, e.g. `CORE_API_TENANT_KEY`. */
  keyVariable: string;
  /** Variable holding the tenant id sent as `X-Tenant-Id`, for an organization key. */
  tenantVariable?: string;
  /** Spec name of the credential, e.g. "tenant key A" (also its redaction label). */
  label: string;
  /** The key (secret). */
  key: string;
  /** The `X-Tenant-Id` value, when sent. */
  tenantId?: string;
}

/** A refused credential: what was refused, and the likely causes with their fix. */
export interface RefusedCredential {
  /** The variables involved, e.g. "CORE_API_ORG_KEY with CORE_API_OTHER_TENANT_ID". */
  what: string;
  /** Status and code, e.g. "401 UNAUTHORIZED", or "not sent" when the value cannot be a header. */
  answer: string;
  /** Likely causes and the fix, in words. */
  likely: string;
}

/** Outcome of {@link checkCredentials}: every credential accepted (or not judged), or the refused ones and one line for each. */
export type CredentialResult = { ok: true } | { ok: false; refused: RefusedCredential[]; cause: string; fix: string; what: typeof CREDENTIAL_REFUSED };

/** The outage's name in the run record (`unreachable.what`), the reports' heading and the gate's line. */
export const CREDENTIAL_REFUSED = 'a credential was refused';

/** Options of {@link checkCredentials}. */
export interface CredentialCheckOptions {
  /** Attempts per credential while answers are 429, 5xx, not the API's, or lost (default 4). */
  attempts?: number;
  /** First pause between attempts in ms, doubling (default 500); a 429's `Retry-After` wins, up to 10 s. */
  pauseMs?: number;
  /** Time allowed for headers and for the body, each, in ms (default: the run's request deadline, helpers/base/deadline.ts). */
  timeoutMs?: number;
  /** Dispatcher to send through (default: a fresh {@link suiteDispatcher}, closed afterwards). */
  dispatcher?: Dispatcher;
}

/** The credentials of a live run, in the order they are checked and named: tenant key A, tenant key B, the organization key with A's id, then with B's. */
export function credentialsToCheck(live: LiveFixtures): CredentialUnderCheck[] {
  const v = REQUIRED_LIVE_VARIABLES;
  return [
    { keyVariable: v.tenantKey, label: 'tenant key A', key: live.tenantKey },
    { keyVariable: v.otherTenantKey, label: 'tenant key B', key: live.otherTenantKey },
    { keyVariable: v.orgKey, tenantVariable: v.tenantId, label: 'organization key O', key: live.orgKey, tenantId: live.tenantId },
    { keyVariable: v.orgKey, tenantVariable: v.otherTenantId, label: 'organization key O', key: live.orgKey, tenantId: live.otherTenantId },
  ];
}

/** What a value that no key can be looks like, said without showing it (null when it looks like a key). */
function malformedValue(value: string): string | null {
  if (/[\r\n]$/.test(value)) return 'its value ends with a newline (copied with it, or written with echo)';
  if (/^\s|\s$/.test(value)) return 'its value starts or ends with a space';
  if (/^\$\{?[A-Za-z_]|\$\{\{/.test(value)) return 'its value is an unexpanded variable (a literal "$…"), not a key';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(value)) return 'its value holds a control character';
  return null;
}

/** The likely causes of a refusal, by status and by which credential it was. */
function likelyCauses(c: CredentialUnderCheck, status: number): string {
  const shape = malformedValue(c.key);
  if (shape) return `${shape}; set ${c.keyVariable} to the key alone`;
  if (status === 401)
    return `the key was rotated in the dashboard (§5.4: the previous key stops at once), copied with a trailing newline or space, or belongs to another environment; set ${c.keyVariable} to the current key`;
  if (status === 403)
    return c.tenantVariable
      ? `${c.tenantVariable} names a tenant outside the organization of ${c.keyVariable} (a wrong tenant id, or the tenant moved or was removed, §5.6); check both against the dashboard`
      : `${c.keyVariable} is valid but refused for its own tenant (§5.6 FORBIDDEN); check it against the dashboard`;
  if (status === 400)
    return c.tenantVariable
      ? `${c.tenantVariable} is not a tenant id the API takes (a uuid, §5.2), or ${c.keyVariable} is a tenant key; check both against the dashboard`
      : `${c.keyVariable} looks like an organization key (§5.6: one answers 400 without X-Tenant-Id); set it to the tenant key of that tenant`;
  return `check ${c.keyVariable}${c.tenantVariable ? ` and ${c.tenantVariable}` : ''} against the dashboard`;
}

/** The error code of a §7 envelope (or a bare `{error}` body), when it is an identifier; never free text, which could echo what was sent. */
function errorCode(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    const code = typeof body.error === 'string' ? body.error : (body.error as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** A 429's wait in ms: `Retry-After` in seconds, capped at 10 s; undefined when it names none. */
function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const s = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(s) && s >= 0 ? Math.min(10_000, s * 1_000) : undefined;
}

/** Checks one credential: the refusal, or null when it was accepted or could not be judged. */
async function checkOne(baseUrl: string, c: CredentialUnderCheck, opts: Required<Omit<CredentialCheckOptions, 'dispatcher'>>, dispatcher: Dispatcher) {
  const what = c.tenantVariable ? `${c.keyVariable} with ${c.tenantVariable}` : c.keyVariable;
  const shape = malformedValue(c.key);
  // A newline or control character cannot go into a header at all (the HTTP client refuses to send it).
  if (shape && /newline|control/.test(shape)) return { what, answer: 'not sent', likely: likelyCauses(c, 401) };
  const headers: Record<string, string> = { accept: 'application/json', authorization: `ApiKey ${c.key}` };
  if (c.tenantId !== undefined) headers['x-tenant-id'] = c.tenantId;
  for (let attempt = 1; attempt <= opts.attempts; attempt += 1) {
    let wait = opts.pauseMs * 2 ** (attempt - 1);
    try {
      const res = await request(`${baseUrl}/assistants`, { headers, dispatcher, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
      const text = await res.body.text();
      const code = errorCode(text);
      if (res.statusCode < 300) return null;
      if (res.statusCode === 401 || res.statusCode === 403 || (res.statusCode === 400 && code !== undefined)) {
        return { what, answer: `${res.statusCode}${code ? ` ${code}` : ''}`, likely: likelyCauses(c, res.statusCode) };
      }
      if (res.statusCode === 429) wait = retryAfterMs(res.headers['retry-after']) ?? wait;
      else if (res.statusCode < 500) return null; // an answer about something else than the key: the tests judge it
    } catch {
      // lost or timed out: another attempt, then the run goes on (the probe judged reachability)
    }
    if (attempt < opts.attempts) await new Promise((r) => setTimeout(r, wait));
  }
  return null;
}

/**
 * Checks every credential of a live run (see the module comment) with one `GET /assistants` each,
 * side by side. Never throws. Registers each key for redaction before the first request.
 * @param baseUrl the API's base URL, without a trailing slash
 * @returns `{ ok: true }`, or the refused credentials with `what`, `cause` and `fix` for the run
 *   record's `unreachable` (the gate counts it as an outage) and {@link refusedLine} for the console
 */
export async function checkCredentials(baseUrl: string, live: LiveFixtures, opts: CredentialCheckOptions = {}): Promise<CredentialResult> {
  const list = credentialsToCheck(live);
  for (const c of list) registerSecret(c.key, c.label);
  const dispatcher = opts.dispatcher ?? suiteDispatcher();
  const settings = { attempts: Math.max(1, opts.attempts ?? 4), pauseMs: opts.pauseMs ?? 500, timeoutMs: opts.timeoutMs ?? requestTimeoutMs() };
  try {
    const results = await Promise.all(list.map((c) => checkOne(baseUrl, c, settings, dispatcher)));
    const refused = results.filter((r): r is RefusedCredential => r !== null);
    if (refused.length === 0) return { ok: true };
    return {
      ok: false,
      refused,
      what: CREDENTIAL_REFUSED,
      cause: redact(`${refused.map((r) => `${r.what} ${r.answer === 'not sent' ? 'was not sent' : `answered ${r.answer}`} to GET /assistants`).join('; ')}`),
      fix: redact(`likely: ${[...new Set(refused.map((r) => r.likely))].join('; ')}`),
    };
  } finally {
    if (!opts.dispatcher) await dispatcher.close().catch(() => undefined);
  }
}

/** The one line a run stops with when a credential is refused (never the key). */
export function refusedLine(r: { cause: string; fix: string }): string {
  return `conformance: credential refused: ${r.cause}, no test ran; ${r.fix}`;
}
