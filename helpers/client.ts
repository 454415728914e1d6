/**
 * The one place that sends HTTP to the Core API (undici). It builds every authentication variant of
 * §5 (malformed ones included), counts requests per test, applies the retry policy of §8 (p-retry:
 * retry idempotent methods on connection errors and 5xx; never retry a POST blindly), and redacts
 * secrets before anything is recorded. Only the API's own answers reach a test: no answer within
 * the request deadline, a connection lost during the body and a gateway's 5xx page are target
 * trouble ({@link TargetError}, an `error` verdict), retried where §8 allows.
 *
 * A 429 proves nothing about the request: a gateway or rate limiter in front of the API may answer
 * it before authentication and routing (§7 lists 429 as "throttled", §8 "clients back off"). So a
 * 429 is never handed to a test as an answer: it is waited out (`Retry-After` in seconds or as an
 * HTTP date, a top-level `retryAfterSeconds`, else exponential back-off with jitter) and the same
 * request is sent again, up to {@link THROTTLE_RETRIES} times; then the request fails with a
 * {@link TargetError} (an `error` verdict, never a `fail`). Every request to the same target waits
 * out the same pause (one shared back-off per target and worker). Only a test about the 429 itself
 * opts in with `expect429`. Reading for POST: a throttled request was refused, not processed, so
 * resending it after the wait is not a blind retry (§8).
 */
import { request as undiciRequest, type Dispatcher } from 'undici';
import pRetry, { AbortError } from 'p-retry';
import { redact, redactHeaders, registerSecret } from './redact';
import type { ApiResponse, Exchange, RequestSummary } from './exchange';
import { recordExchange, recordHung, recordNotApi, recordNotJson, recordTargetTrouble } from './recorder';
import { notJson } from './exchange';
import { TARGET_ERROR_NAME } from './error-names';
import { suiteDispatcher } from './proxy';
import { currentScope, markInflight, markQueued } from './current-test';
import { requestTimeoutMs } from './deadline';

export type { ApiResponse, Exchange, RequestSummary } from './exchange';

/**
 * How the `Authorization` (or substitute) header is formed from a key (§5.1, §5.6):
 * - `apikey`: `Authorization: ApiKey <key>` (the only accepted form)
 * - `missing`: no credential header at all
 * - `bearer`: `Authorization: Bearer <key>`
 * - `bare`: `Authorization: <key>`
 * - `x-api-key`: `X-Api-Key: <key>` and no Authorization header
 * - `lowercase-scheme`: `Authorization: apikey <key>` (the scheme is exactly `ApiKey`)
 * - `escaped-newline`: the key followed by the two characters `\n`, as a secret store that kept an
 *   escaped trailing newline delivers it (a raw newline cannot travel in an HTTP header)
 * - `encoded-newline`: the key followed by `%0A`
 * - `unexpanded-variable`: `Authorization: ApiKey $CORE_API_KEY` (a shell variable never expanded)
 * - `unexpanded-braces`: `Authorization: ApiKey ${CORE_API_KEY}`
 * - `empty-key`: `Authorization: ApiKey ` with nothing after the scheme
 */
export type AuthVariant =
  | 'apikey'
  | 'missing'
  | 'bearer'
  | 'bare'
  | 'x-api-key'
  | 'lowercase-scheme'
  | 'escaped-newline'
  | 'encoded-newline'
  | 'unexpanded-variable'
  | 'unexpanded-braces'
  | 'empty-key';

/** Every malformed variant, i.e. all but `apikey`. */
export const MALFORMED_AUTH_VARIANTS: readonly AuthVariant[] = [
  'missing',
  'bearer',
  'bare',
  'x-api-key',
  'lowercase-scheme',
  'escaped-newline',
  'encoded-newline',
  'unexpanded-variable',
  'unexpanded-braces',
  'empty-key',
];

/** Builds the credential headers of one variant for a key (§5.1). */
export function authHeaders(key: string | undefined, variant: AuthVariant = 'apikey'): Record<string, string> {
  if (variant === 'missing' || key === undefined) return {};
  switch (variant) {
    case 'apikey':
      return { authorization: `ApiKey ${key}` };
    case 'bearer':
      return { authorization: `Bearer ${key}` };
    case 'bare':
      return { authorization: key };
    case 'x-api-key':
      return { 'x-api-key': key };
    case 'lowercase-scheme':
      return { authorization: `apikey ${key}` };
    case 'escaped-newline':
      return { authorization: `ApiKey ${key}\\n` };
    case 'encoded-newline':
      return { authorization: `ApiKey ${key}%0A` };
    case 'unexpanded-variable':
      return { authorization: 'ApiKey $CORE_API_KEY' };
    case 'unexpanded-braces':
      return { authorization: 'ApiKey ${CORE_API_KEY}' };
    case 'empty-key':
      return { authorization: 'ApiKey ' };
  }
}

/** Who is asking: a key (tenant key or organization key), an optional `X-Tenant-Id`, and a label for reports. */
export interface Credentials {
  /** Human name used in reports, e.g. "tenant key A", "organization key O". */
  label: string;
  /** The key itself (secret); undefined sends no credential. */
  key?: string;
  /** Value of `X-Tenant-Id`, when sent. */
  tenantId?: string;
  /** How the key is presented; default `apikey`. */
  variant?: AuthVariant;
}

/** Options of one request. */
export interface RequestOptions {
  /** JSON body (serialised with JSON.stringify). */
  body?: unknown;
  /** Raw body text, sent as is (e.g. invalid JSON for §7 PARSE). Wins over `body`. */
  rawBody?: string;
  /** Extra headers; a header set to undefined is removed. */
  headers?: Record<string, string | undefined>;
  /** Query parameters. */
  query?: Record<string, string | number | boolean | undefined>;
  /**
   * Retry policy for 5xx answers and lost connections; `false` returns the first such answer (for
   * tests that expect a 5xx or time answers). A 429 is waited out and resent either way.
   */
  retry?: false | RetryPolicy;
  /** Hand a 429 to the caller at once instead of waiting it out: only for tests about the 429 itself (§4.5 monitor-session rate). */
  expect429?: boolean;
  /**
   * Hand the answer to the answer listeners, the envelope audit among them (default true; see
   * {@link onAnswer}). False for deliberately hostile requests whose answers a test grades itself
   * (suites/robustness.test.ts).
   */
  audit?: boolean;
}

/** Bounded retry policy (§8: exponential back-off with jitter; POST never retried except on 429). */
export interface RetryPolicy {
  /** Maximum retries after the first attempt. */
  retries: number;
  /** First back-off delay in ms; doubles each time, with jitter. */
  minTimeoutMs: number;
  /** Largest back-off delay in ms (also the cap on an honoured Retry-After). */
  maxTimeoutMs: number;
}

/** Default policy: up to 3 retries, 200 ms first delay, 5 s cap. */
export const DEFAULT_RETRY: RetryPolicy = { retries: 3, minTimeoutMs: 200, maxTimeoutMs: 5_000 };

/** Resends of one request after 429 answers before it fails with a {@link TargetError}. */
export const THROTTLE_RETRIES = 6;
/** Back-off after a 429 that names no delay: 250 ms first, doubling with jitter. The longest honoured wait for one 429 (a longer `Retry-After` is cut to it): 10 s. */
export const THROTTLE_BACKOFF: RetryPolicy = { retries: THROTTLE_RETRIES, minTimeoutMs: 250, maxTimeoutMs: 10_000 };

/**
 * Why a request got no answer of the API:
 * - `hung`: nothing (or no whole body) within the request deadline;
 * - `lost`: the connection was refused, reset or closed (before the headers or during the body);
 * - `not-api`: a 5xx whose body is not the API's JSON (a gateway's page), kept after the retries;
 * - `throttled`: still 429 after {@link THROTTLE_RETRIES} waits;
 * - `cancelled`: the test was already judged, so the request was stopped (recorded nowhere).
 */
export type TroubleKind = 'hung' | 'lost' | 'not-api' | 'throttled' | 'cancelled';

/** Thrown when the target could not be reached or kept failing: an `error` verdict, not a conformance `fail`. */
export class TargetError extends Error {
  /** Attempts sent before giving up (1: never resent, e.g. a POST, §8). Set by the client. */
  attempts = 1;
  /** Whether every attempt met the same trouble (`kind`): a persisting answer, not a flaky one. Set by the client. */
  sameEachTime = true;
  /**
   * @param message what happened, naming the request (redacted here)
   * @param request the request, redacted
   * @param kind why no answer of the API was obtained
   * @param response for `not-api`: the last answer that came back instead (a gateway's page)
   */
  constructor(message: string, readonly request: RequestSummary, readonly kind: TroubleKind = 'lost', readonly response?: ApiResponse) {
    super(redact(message));
    this.name = TARGET_ERROR_NAME;
  }
}

/**
 * Whether a parsed body is an answer of the API: a JSON object with a boolean `success` (the §2.1
 * and §7 envelopes) or an `error` member (the bare bodies of §7 exceptions 1 and 2). A gateway's
 * HTML page, its `{"message": …}` JSON and an empty body are not.
 */
export function apiShaped(json: unknown): boolean {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false;
  const o = json as Record<string, unknown>;
  return typeof o.success === 'boolean' || 'error' in o;
}

/** "502 text/html from the gateway (server: nginx)": what came back instead of an answer of the API. */
export function foreignWords(res: Pick<ApiResponse, 'status' | 'headers' | 'text'>): string {
  const type = (res.headers['content-type'] ?? '').split(';')[0].trim() || (res.text ? 'an untyped body' : 'an empty body');
  const server = res.headers.server ? ` (server: ${res.headers.server})` : '';
  return `${res.status} ${type} from the gateway${server}`;
}

/**
 * Exponential back-off with full jitter (§8): a random delay in ms between half and all of
 * `minTimeoutMs × 2^(attempt-1)`, capped at `maxTimeoutMs`.
 */
export function backoffMs(policy: RetryPolicy, attemptNumber: number): number {
  const ceiling = Math.min(policy.maxTimeoutMs, policy.minTimeoutMs * 2 ** Math.max(0, attemptNumber - 1));
  return ceiling * (0.5 + Math.random() / 2);
}

// Through the proxy HTTPS_PROXY / HTTP_PROXY / NO_PROXY name, for a remote target (helpers/proxy.ts).
const agent = suiteDispatcher({ keepAliveTimeout: 10_000, connections: 32 });

const MAX_BODY = 4_000;
function cut(text: string): string {
  return text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}… (${text.length} characters)` : text;
}

function recordOnTest(exchange: Exchange, retries: number): void {
  recordExchange(exchange, retries);
}

/** Called with every answer a test receives (requests sent with `audit: false` excepted). */
export type AnswerListener = (res: ApiResponse) => void;

const answerListeners = new Set<AnswerListener>();

/**
 * Subscribes `listener` to every answer the client hands to a test (the envelope audit of
 * helpers/envelope.ts is one). The client calls up into no check module: checks that want every
 * answer subscribe here. Returns the unsubscribe function. A listener that throws fails the
 * request that produced the answer.
 */
export function onAnswer(listener: AnswerListener): () => void {
  answerListeners.add(listener);
  return () => answerListeners.delete(listener);
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

class RetryableAnswer extends Error {
  constructor(readonly response: ApiResponse, readonly waitMs?: number) {
    super(`retryable answer ${response.status}`);
  }
}

/**
 * Delay asked for by a 429, in ms: `Retry-After` as seconds or as an HTTP date (RFC 9110 §10.2.3;
 * a date in the past asks for 0), else a top-level `retryAfterSeconds` (§7 exception 3); undefined
 * when the answer names none. `now` (ms since the epoch) is for tests.
 */
export function retryAfterMs(res: Pick<ApiResponse, 'headers' | 'json'>, now: number = Date.now()): number | undefined {
  const header = res.headers['retry-after']?.trim();
  if (header && /^\d+(\.\d+)?$/.test(header)) return Number(header) * 1000;
  if (header && /[a-z]/i.test(header)) {
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const body = res.json as { retryAfterSeconds?: unknown } | undefined;
  if (body && typeof body.retryAfterSeconds === 'number' && body.retryAfterSeconds >= 0) return body.retryAfterSeconds * 1000;
  return undefined;
}

/** Pauses asked for by 429 answers, per target base URL: ms since the epoch until which nothing is sent there. */
const pausedUntil = new Map<string, number>();

/**
 * The shared back-off: after a 429 from a target, every request of this worker to that target
 * waits until the pause ends (§8 "clients back off"). `waitMs` extends the pause, never shortens it.
 */
export function pauseTarget(baseUrl: string, waitMs: number): void {
  const until = Date.now() + waitMs;
  if ((pausedUntil.get(baseUrl) ?? 0) < until) pausedUntil.set(baseUrl, until);
}

/** Resolves when the target's shared pause (if any) is over. */
export async function targetReady(baseUrl: string): Promise<void> {
  for (;;) {
    const left = (pausedUntil.get(baseUrl) ?? 0) - Date.now();
    if (left <= 0) return;
    await new Promise((r) => setTimeout(r, left));
  }
}

/**
 * An HTTP client bound to a base URL and one set of credentials.
 * Create one per principal with {@link ApiClient.as}; it never throws on an HTTP status, only
 * {@link TargetError} when the target cannot be reached after the retry policy.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly credentials?: Credentials,
    readonly retryPolicy: RetryPolicy = DEFAULT_RETRY,
  ) {
    if (credentials?.key) registerSecret(credentials.key, credentials.label);
  }

  /** The same target with other credentials. */
  as(credentials: Credentials | undefined): ApiClient {
    return new ApiClient(this.baseUrl, credentials, this.retryPolicy);
  }

  /** The same credentials presented through another auth variant (§5.1). */
  withVariant(variant: AuthVariant): ApiClient {
    return this.as({ ...(this.credentials ?? { label: 'no key' }), variant });
  }

  /** The same credentials with another `X-Tenant-Id` (undefined drops the header). */
  withTenant(tenantId: string | undefined): ApiClient {
    return this.as({ ...(this.credentials ?? { label: 'no key' }), tenantId });
  }

  /** GET `path` (relative to the base URL); see {@link ApiClient.request}. */
  get<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  /** POST a JSON body; never retried blindly on a lost answer (§8). */
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  /** PATCH a JSON body (partial update, §4.1). */
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  /** PUT a JSON body. */
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', path, { ...opts, body });
  }
  /** DELETE `path`. */
  delete<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }

  /**
   * Sends one request (plus retries per policy) and returns the final answer.
   *
   * Every attempt has the request deadline of helpers/deadline.ts (headers and body together) and
   * follows the running test's abort signal: once the test is judged its requests stop, so it
   * cannot change a shared fixture afterwards. What the API did not answer is target trouble and
   * is retried for the methods §8 allows (every method but POST), like a connection lost before
   * the headers: no answer within the deadline, a connection lost during the body (a body cut
   * short), and a 5xx whose body is not the API's JSON (a gateway's 502/503/504 page,
   * {@link apiShaped}). A 4xx outside the envelope is handed to the test: it is a refusal, which
   * the check that expected another answer judges (an HTTP layer's own refusal is graded there).
   * @throws TargetError when no answer of the API could be obtained (`kind` says why; for
   *   `not-api` the last answer is attached); also when the test was judged (`cancelled`).
   */
  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const creds = this.credentials;
    if (creds) Object.assign(headers, authHeaders(creds.key, creds.variant ?? 'apikey'));
    if (creds?.tenantId !== undefined) headers['x-tenant-id'] = creds.tenantId;
    let payload: string | undefined;
    if (opts.rawBody !== undefined) payload = opts.rawBody;
    else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (v === undefined) delete headers[k.toLowerCase()];
      else headers[k.toLowerCase()] = v;
    }
    let query = '';
    if (opts.query) {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.query)) if (v !== undefined) qs.append(k, String(v));
      const s = qs.toString();
      if (s) query = (path.includes('?') ? '&' : '?') + s;
    }
    const fullPath = path + query;
    const summary: RequestSummary = {
      method,
      path: redact(fullPath),
      headers: redactHeaders(headers),
      body: payload === undefined ? undefined : cut(redact(payload)),
    };
    const words = `${method} ${summary.path}`;
    // `retry: false` keeps the API's own 5xx for the caller; what the API did not answer is retried either way.
    const apiPolicy = opts.retry === false ? { retries: 0, minTimeoutMs: 0, maxTimeoutMs: 0 } : opts.retry ?? this.retryPolicy;
    const troublePolicy = opts.retry === false ? this.retryPolicy : apiPolicy;
    const idempotent = method !== 'POST';
    const deadline = requestTimeoutMs();
    const testSignal = currentScope()?.signal;
    let attempts = 0;
    let throttles = 0;
    let failures = 0;
    let lastForeign: ApiResponse<T> | undefined;

    const cancelled = () =>
      new AbortError(new TargetError(`${words}: not sent or not awaited, the test was already judged`, summary, 'cancelled'));
    /** One attempt that got no answer of the API: retried while the policy allows and the method may be resent (§8). */
    const troubles: TroubleKind[] = [];
    const trouble = (err: TargetError) => {
      troubles.push(err.kind);
      failures += 1;
      if (!idempotent || failures > troublePolicy.retries) throw new AbortError(err);
      throw err;
    };

    const once = async (): Promise<ApiResponse<T>> => {
      if (testSignal?.aborted) throw cancelled();
      if ((pausedUntil.get(this.baseUrl) ?? 0) > Date.now()) {
        const unqueue = markQueued(`the target's 429 pause (${this.baseUrl})`);
        try {
          await targetReady(this.baseUrl);
        } finally {
          unqueue();
        }
      }
      if (testSignal?.aborted) throw cancelled();
      attempts += 1;
      const started = performance.now();
      // One controller per attempt: the deadline or the test's judgement aborts it (listeners removed when the attempt ends).
      const attempt = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attempt.abort(new Error(`no answer within ${deadline} ms`));
      }, deadline);
      const onJudged = () => attempt.abort(testSignal?.reason);
      testSignal?.addEventListener('abort', onJudged, { once: true });
      const signal = attempt.signal;
      const inflight = markInflight(words);
      const done = () => {
        clearTimeout(timer);
        testSignal?.removeEventListener('abort', onJudged);
        inflight();
      };
      let res: Dispatcher.ResponseData | undefined;
      let text: string;
      try {
        res = await undiciRequest(this.baseUrl + fullPath, {
          method: method as any,
          headers,
          body: payload,
          dispatcher: agent,
          headersTimeout: deadline,
          bodyTimeout: deadline,
          signal,
        });
        text = await res.body.text();
      } catch (e) {
        if (testSignal?.aborted) throw cancelled();
        const code = (e as { code?: string }).code ?? '';
        const hung = timedOut || /TIMEOUT/.test(code);
        const phase = res ? `during the body of a ${res.statusCode} answer (a body cut short)` : 'before the headers';
        const why = hung
          ? `no answer within the ${deadline} ms request deadline (${res ? `the body of a ${res.statusCode} answer stalled` : 'no headers'})`
          : `connection lost ${phase}: ${(e as Error).message}`;
        if (hung) {
          recordHung();
        } else if (res) {
          recordNotApi();
        }
        res?.body.destroy();
        return trouble(new TargetError(`${words}: ${why}${idempotent ? '' : '; a POST is never resent blindly (§8)'}`, summary, hung ? 'hung' : 'lost'));
      } finally {
        done();
      }
      let json: any;
      if (text.length > 0) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
      }
      const answer: ApiResponse<T> = {
        status: res.statusCode,
        headers: flattenHeaders(res.headers as Record<string, string | string[] | undefined>),
        text,
        json,
        durationMs: performance.now() - started,
        retries: attempts - 1,
        request: summary,
      };
      if (res.statusCode === 429 && !opts.expect429) {
        throttles += 1;
        const wait = Math.min(retryAfterMs(answer) ?? backoffMs(THROTTLE_BACKOFF, throttles), THROTTLE_BACKOFF.maxTimeoutMs);
        pauseTarget(this.baseUrl, wait);
        if (throttles > THROTTLE_RETRIES) {
          throw new AbortError(new TargetError(`${words}: still throttled (429) after ${THROTTLE_RETRIES} waits; a 429 says nothing about the request, so no verdict`, summary, 'throttled'));
        }
        throw new RetryableAnswer(answer, 0);
      }
      if (res.statusCode >= 500 && !apiShaped(json)) {
        recordNotApi();
        lastForeign = answer;
        return trouble(
          new TargetError(
            `${words}: ${foreignWords(answer)}, not an answer of the API (its body is not the API's JSON)${idempotent ? '' : '; a POST is never resent blindly (§8)'}`,
            summary,
            'not-api',
            answer,
          ),
        );
      }
      lastForeign = undefined;
      if (res.statusCode >= 500 && idempotent && failures < apiPolicy.retries) {
        failures += 1;
        throw new RetryableAnswer(answer);
      }
      return answer;
    };

    let final: ApiResponse<T>;
    try {
      // p-retry runs the loop; the delay is chosen here so that an explicit Retry-After or
      // retryAfterSeconds (§7 exception 3) replaces the exponential back-off instead of adding to it.
      final = await pRetry(once, {
        retries: Math.max(apiPolicy.retries, troublePolicy.retries) + THROTTLE_RETRIES,
        minTimeout: 0,
        maxTimeout: 0,
        randomize: false,
        shouldRetry: ({ error }) => error instanceof RetryableAnswer || error instanceof TargetError,
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
          if (retriesLeft === 0) return;
          // A 429 set the shared pause, which the next attempt waits out (waitMs 0 here).
          const asked = error instanceof RetryableAnswer ? error.waitMs : undefined;
          const policy = error instanceof TargetError ? troublePolicy : apiPolicy;
          const delay = asked ?? backoffMs(policy, failures || attemptNumber);
          if (delay > 0) await new Promise((r) => setTimeout(r, Math.min(delay, policy.maxTimeoutMs)));
        },
      });
    } catch (e) {
      if (e instanceof RetryableAnswer) final = e.response as ApiResponse<T>;
      else {
        const err = e instanceof TargetError ? e : new TargetError(`${words}: ${(e as Error).message}`, summary, 'lost');
        if (err.kind === 'cancelled') throw err;
        err.attempts = attempts;
        err.sameEachTime = troubles.every((k) => k === err.kind);
        if (troubles.length > 1) {
          const tally = (['not-api', 'hung', 'lost'] as const).map((k) => [k, troubles.filter((x) => x === k).length] as const).filter(([, n]) => n > 0);
          const words: Record<string, string> = { 'not-api': 'not the API\'s', hung: 'hung', lost: 'connection lost' };
          err.message = `${err.message}; ${troubles.length} attempts, none answered by the API (${tally.map(([k, n]) => `${n} ${words[k]}`).join(', ')})`;
        }
        if (lastForeign && err.kind === 'not-api') lastForeign.retries = attempts - 1;
        recordOnTest({ request: summary, error: redact(err.message) }, attempts - 1);
        recordTargetTrouble(err.message);
        throw err;
      }
    }
    final.retries = attempts - 1;
    recordOnTest(
      {
        request: summary,
        response: { status: final.status, headers: redactHeaders(final.headers), body: cut(redact(final.text)) },
      },
      final.retries,
    );
    if (notJson(final)) recordNotJson();
    if (opts.audit !== false) for (const listener of answerListeners) listener(final);
    return final;
  }
}
