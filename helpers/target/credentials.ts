/**
 * The credential check that follows the reachability probe (helpers/target/probe.ts) in a live-tenant run:
 * one harmless read (`GET /assistants`, §4.5) with each credential form the operator gave (tenant
 * key A, tenant key B, the organization key with each tenant id, §5.2) before the first test.
 *
 * It tells a bad key from a bad API (issue 42, item 3). Only a 401 to that read (§5.6: unknown,
 * invalid or rotated key, a trailing newline, an unexpanded variable), or a value no key can be
 * (not sent), means a refused credential form: the tests that need it skip, naming the variable
 * and the answer (helpers/world.ts), and the run goes on with the others. Any other answer to a
 * form that looks valid (a 400, a 403, a 5xx) is the API's answer: the run goes on and the tests
 * judge it against §5 with their clauses (a server that answers the organization key with
 * `X-Tenant-Id` by 400 fails `5.2/org-key-with-tenant-header`); a note says what it answered and,
 * should a variable be wrong after all, what to check. The run stops before its first test only
 * when every credential form was refused: one line naming each variable, the status and the
 * likely causes (rotation, §5.4, is the likeliest way a nightly run breaks).
 *
 * A 429 is waited out; a lost connection after a few attempts lets the run go on (the probe judged
 * reachability). The key itself is never printed: messages name variables, statuses and error
 * codes only, and pass through {@link redact}.
 */
import { request, type Dispatcher } from 'undici';
import type { LiveFixtures } from './target';
import { REQUIRED_LIVE_VARIABLES } from './target';
import { suiteDispatcher } from '../http/proxy';
import { redact, registerSecret } from '../base/redact';
import { requestTimeoutMs } from '../base/deadline';
import { CREDENTIAL_REFUSED_NAME } from '../base/error-names';
import { readEnv, type EnvSource } from '../base/env';

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

/** A refused credential form: what was refused, and the likely causes with their fix. */
export interface RefusedCredential {
  /** The variables involved, e.g. "CORE_API_ORG_KEY with CORE_API_OTHER_TENANT_ID". */
  what: string;
  /** Variable holding the key, e.g. `CORE_API_ORG_KEY`. */
  keyVariable: string;
  /** Variable holding the tenant id sent with it, when one was. */
  tenantVariable?: string;
  /** Status and code, e.g. "401 UNAUTHORIZED", or "not sent" when the value cannot be a header. */
  answer: string;
  /** Likely causes and the fix, in words. */
  likely: string;
}

/** A credential form the API answered with neither a success nor a 401: its answer, which the tests judge against §5. */
export interface AnsweredCredential {
  /** The variables involved, as {@link RefusedCredential.what}. */
  what: string;
  /** Status and code, e.g. "400 VALIDATION_ERROR" or "503". */
  answer: string;
  /** What to check should a variable be wrong after all, in words. */
  likely: string;
}

/**
 * Outcome of {@link checkCredentials}. `ok: true`: at least one credential form works (or could
 * not be judged); `refused` lists the forms whose tests skip, `answered` the answers the tests
 * judge. `ok: false`: every form was refused; `cause` and `fix` for the run record's
 * `unreachable` (the gate counts it as an outage) and {@link refusedLine} for the console.
 */
export type CredentialResult =
  | { ok: true; refused: RefusedCredential[]; answered: AnsweredCredential[] }
  | { ok: false; refused: RefusedCredential[]; cause: string; fix: string; what: typeof CREDENTIAL_REFUSED };

/** The outage's name in the run record (`unreachable.what`), the reports' heading and the gate's line. */
export const CREDENTIAL_REFUSED = 'every credential was refused';

/**
 * Variable handing the refused credential forms of a live run (JSON, {@link RefusedCredential}[],
 * no key) from the global set-up to the test workers, whose world skips the tests that need them.
 */
export const REFUSED_CREDENTIALS_VAR = 'CORE_API__REFUSED_CREDENTIALS' as const;

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

/** What one credential form met: accepted (or not judged), refused (401, or not sent), or another answer of the API. */
type FormOutcome = { kind: 'accepted' } | { kind: 'refused'; refusal: RefusedCredential } | { kind: 'answered'; answer: AnsweredCredential };

/** Checks one credential form (see the module comment): a 2xx, a 401, another answer, or nothing judged after the attempts. */
async function checkOne(
  baseUrl: string,
  c: CredentialUnderCheck,
  opts: Required<Omit<CredentialCheckOptions, 'dispatcher'>>,
  dispatcher: Dispatcher,
): Promise<FormOutcome> {
  const what = c.tenantVariable ? `${c.keyVariable} with ${c.tenantVariable}` : c.keyVariable;
  const refused = (answer: string): FormOutcome => ({
    kind: 'refused',
    refusal: { what, keyVariable: c.keyVariable, ...(c.tenantVariable ? { tenantVariable: c.tenantVariable } : {}), answer, likely: likelyCauses(c, 401) },
  });
  const shape = malformedValue(c.key);
  // A newline or control character cannot go into a header at all (the HTTP client refuses to send it).
  if (shape && /newline|control/.test(shape)) return refused('not sent');
  const headers: Record<string, string> = { accept: 'application/json', authorization: `ApiKey ${c.key}` };
  if (c.tenantId !== undefined) headers['x-tenant-id'] = c.tenantId;
  let last: number | undefined;
  for (let attempt = 1; attempt <= opts.attempts; attempt += 1) {
    let wait = opts.pauseMs * 2 ** (attempt - 1);
    try {
      const res = await request(`${baseUrl}/assistants`, { headers, dispatcher, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
      const code = errorCode(await res.body.text());
      const answer = `${res.statusCode}${code ? ` ${code}` : ''}`;
      if (res.statusCode < 300) return { kind: 'accepted' };
      if (res.statusCode === 401) return refused(answer);
      if (res.statusCode === 429) wait = retryAfterMs(res.headers['retry-after']) ?? wait;
      else if (res.statusCode < 500) return { kind: 'answered', answer: { what, answer, likely: likelyCauses(c, res.statusCode) } };
      else last = res.statusCode;
    } catch {
      // lost or timed out: another attempt, then the run goes on (the probe judged reachability)
    }
    if (attempt < opts.attempts) await new Promise((r) => setTimeout(r, wait));
  }
  return last === undefined ? { kind: 'accepted' } : { kind: 'answered', answer: { what, answer: String(last), likely: likelyCauses(c, last) } };
}

/**
 * Checks every credential form of a live run (see the module comment) with one `GET /assistants`
 * each, side by side. Never throws. Registers each key for redaction before the first request.
 * @param baseUrl the API's base URL, without a trailing slash
 * @returns the forms refused and the other answers met, with `ok: true` while one form works; or,
 *   when every form was refused, `ok: false` with `what`, `cause` and `fix` for the run record's
 *   `unreachable` and {@link refusedLine} for the console
 */
export async function checkCredentials(baseUrl: string, live: LiveFixtures, opts: CredentialCheckOptions = {}): Promise<CredentialResult> {
  const list = credentialsToCheck(live);
  for (const c of list) registerSecret(c.key, c.label);
  const dispatcher = opts.dispatcher ?? suiteDispatcher();
  const settings = { attempts: Math.max(1, opts.attempts ?? 4), pauseMs: opts.pauseMs ?? 500, timeoutMs: opts.timeoutMs ?? requestTimeoutMs() };
  try {
    const outcomes = await Promise.all(list.map((c) => checkOne(baseUrl, c, settings, dispatcher)));
    const refused = outcomes.flatMap((o) => (o.kind === 'refused' ? [o.refusal] : []));
    const answered = outcomes.flatMap((o) => (o.kind === 'answered' ? [o.answer] : []));
    if (refused.length < list.length) return { ok: true, refused, answered };
    return {
      ok: false,
      refused,
      what: CREDENTIAL_REFUSED,
      cause: redact(`${refused.map(refusalWords).join('; ')}`),
      fix: redact(`likely: ${[...new Set(refused.map((r) => r.likely))].join('; ')}`),
    };
  } finally {
    if (!opts.dispatcher) await dispatcher.close().catch(() => undefined);
  }
}

/** "CORE_API_TENANT_KEY answered 401 UNAUTHORIZED to GET /assistants" (or "was not sent to …"). */
function refusalWords(r: Pick<RefusedCredential, 'what' | 'answer'>): string {
  return `${r.what} ${r.answer === 'not sent' ? 'was not sent' : `answered ${r.answer}`} to GET /assistants`;
}

/**
 * The lines a run that goes on prints about its credentials (never a key): one per refused form
 * (its tests skip) and one per other answer (the tests judge it against §5).
 */
export function credentialNotes(r: { refused: readonly RefusedCredential[]; answered: readonly AnsweredCredential[] }): string[] {
  return [
    ...r.refused.map((x) => redact(`conformance: credential refused: ${refusalWords(x)}; the tests that need it skip; likely: ${x.likely}`)),
    ...r.answered.map((x) =>
      redact(
        `conformance: note ${x.what} answered ${x.answer} to GET /assistants: not a refused key (only a 401 is), so the tests judge it against §5; should a variable be wrong after all: ${x.likely}`,
      ),
    ),
  ];
}

/** The refused credential forms a live run's global set-up handed to this worker ({@link REFUSED_CREDENTIALS_VAR}); empty when none. */
export function refusedCredentialsOfRun(source?: EnvSource): RefusedCredential[] {
  try {
    const v = JSON.parse(readEnv(REFUSED_CREDENTIALS_VAR, source) ?? '[]') as unknown;
    return Array.isArray(v) ? (v as RefusedCredential[]) : [];
  } catch {
    return [];
  }
}

/**
 * Why a principal made of the key in `keyVariable` (with the tenant id in `tenantVariable`, when
 * it sends one) cannot act, when the credential check refused it: its own form was refused, or
 * every form of its key was. The reason names the variables and the answer; undefined otherwise.
 */
export function refusalReason(refused: readonly RefusedCredential[], keyVariable: string, tenantVariable?: string): string | undefined {
  const own = refused.find((r) => r.keyVariable === keyVariable && r.tenantVariable === tenantVariable);
  const forms = credentialForms().filter((f) => f.keyVariable === keyVariable);
  const everyForm = forms.length > 0 && forms.every((f) => refused.some((r) => r.keyVariable === f.keyVariable && r.tenantVariable === f.tenantVariable));
  const r = own ?? (everyForm ? refused.find((x) => x.keyVariable === keyVariable) : undefined);
  return r && redact(`${REFUSED_PREFIX}${refusalWords(r)} (likely: ${r.likely})`);
}

/** How every skip reason of a refused credential form starts (helpers/world.ts tells it from a missing fixture by it). */
export const REFUSED_PREFIX = 'credential refused before the first test: ';

/** The credential forms the check tries, as variable names only (no fixture needed). */
function credentialForms(): { keyVariable: string; tenantVariable?: string }[] {
  const v = REQUIRED_LIVE_VARIABLES;
  return [
    { keyVariable: v.tenantKey },
    { keyVariable: v.otherTenantKey },
    { keyVariable: v.orgKey, tenantVariable: v.tenantId },
    { keyVariable: v.orgKey, tenantVariable: v.otherTenantId },
  ];
}

/**
 * Ends a test (or a suite file's set-up) that needs a credential form the check refused: the test
 * skips with this message (helpers/clause.ts; helpers/report/vitest-reporter.ts for a set-up).
 */
export class CredentialRefusedError extends Error {
  constructor(message: string) {
    super(redact(message));
    this.name = CREDENTIAL_REFUSED_NAME;
  }
}

/** The one line a run stops with when every credential form is refused (never a key). */
export function refusedLine(r: { cause: string; fix: string }): string {
  return `conformance: every credential refused: ${r.cause}, no test ran; ${r.fix}`;
}
