/**
 * The one place that sends HTTP to the Core API (undici). It builds every authentication variant of
 * §5 (malformed ones included; the table is helpers/http/auth-variants.ts), counts requests per test, applies the retry policy of §8 in one
 * loop (retry idempotent methods on connection errors and 5xx; never retry a POST blindly), and redacts
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
import { redact, redactCut, redactHeaders, registerSecret } from '../base/redact';
import type { ApiResponse, RequestSummary, UncheckedJson } from '../base/exchange';
import { recordExchange, recordHung, recordNotApi, recordNotJson, recordNotJsonResent, recordSpan, recordTargetTrouble } from '../record/recorder';
import { resendable, unjudgedBody, unreadableBody, UNREADABLE_RESENDS } from './mangled';
import { notJson } from '../base/exchange';
import { TARGET_ERROR_NAME } from '../base/error-names';
import { suiteDispatcher } from './proxy';
import { sendTimed, type WireTiming } from './wire';
import { currentScope, markInflight, markQueued } from '../record/current-test';
import { requestTimeoutMs } from '../base/deadline';
import { authHeaders, type AuthVariant } from './auth-variants';

export type { ApiResponse, Exchange, RequestSummary } from '../base/exchange';

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
  /** Marks the request as an audit's resend of an earlier one (helpers/audits/replay.ts); tests never set it. */
  replay?: boolean;
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
  constructor(
    message: string,
    readonly request: RequestSummary,
    readonly kind: TroubleKind = 'lost',
    readonly response?: ApiResponse,
  ) {
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

// Through the proxy HTTPS_PROXY / HTTP_PROXY / NO_PROXY name, for a remote target (helpers/http/proxy.ts).
const agent = suiteDispatcher({ keepAliveTimeout: 10_000, connections: 32 });

/** Base URLs whose target frames every request by its Content-Length, whatever the method ({@link trustContentLengthFraming}). */
const framedByLength = new Set<string>();

/**
 * Declares that the target at `baseUrl` reads every request's body by its Content-Length, whatever
 * the method: our simulator (embedded or external, Node's HTTP parser). A GET, HEAD or DELETE sent
 * with a body (the robustness phase sends hostile bodies to every route) then keeps its connection
 * for the next request. undici closes the connection after such a request unless told otherwise,
 * for servers that leave a GET's body unread and would read it as the next request; a live tenant
 * keeps that default. Issue 43: 3,400 of the robustness phase's 3,600 connections were closed
 * this way, and each new one costs both sides CPU.
 */
export function trustContentLengthFraming(baseUrl: string): void {
  framedByLength.add(baseUrl);
}

/** Bodies are kept as evidence up to this many characters (helpers/base/exchange.ts). */
const MAX_BODY = 4_000;

/** Bodies of at least this many characters are encoded to bytes once and the bytes kept for the next request that sends the same text. */
const ENCODE_ONCE_CHARS = 65_536;
/** How many encoded bodies are kept (the most recently sent): the robustness phase sends each of its large bodies to every route in turn. */
const ENCODED_KEPT = 8;
/** Large bodies sent lately, as text → its UTF-8 bytes, oldest first. */
const encoded = new Map<string, Buffer>();

/**
 * What goes on the wire for `payload`: the text itself, or, for a large one, its UTF-8 bytes encoded
 * once for every request that sends the same text (undici would encode the text again for each
 * request: issue 43, 4.4 s of CPU a run in the robustness phase, whose bodies of megabytes go to
 * every route). The bytes are the same either way.
 */
function wireBody(payload: string | undefined): string | Buffer | undefined {
  if (payload === undefined || payload.length < ENCODE_ONCE_CHARS) return payload;
  let bytes = encoded.get(payload);
  if (bytes) encoded.delete(payload);
  else bytes = Buffer.from(payload, 'utf8');
  encoded.set(payload, bytes);
  if (encoded.size > ENCODED_KEPT) encoded.delete(encoded.keys().next().value!);
  return bytes;
}

/** Called with every answer a test receives (requests sent with `audit: false` excepted). */
export type AnswerListener = (res: ApiResponse) => void;

const answerListeners = new Set<AnswerListener>();

/**
 * One request as a request observer sees it (helpers/audits/): what was sent and by whom, never
 * recorded anywhere (the key and body are unredacted, kept in memory only).
 */
export interface SentRequest {
  method: string;
  /** Path with its query string, relative to the base URL. */
  path: string;
  /**
   * The body sent, parsed (undefined when none or not JSON). Parsed on first read, once: most
   * observers never read it, and the robustness phase sends bodies of megabytes (issue 43: parsing
   * every one for the observers was a fifth of that worker's CPU).
   */
  readonly body: UncheckedJson;
  credentials?: Credentials;
  /** Whether the answer goes to the answer listeners (`audit` option). */
  audited: boolean;
  /** Whether this request is an audit's resend of an earlier one (helpers/audits/replay.ts), which no audit resends again. */
  replay: boolean;
  /** Sends the same request once more, marked as a replay; answers as {@link ApiClient.request}. */
  resend(): Promise<ApiResponse>;
}

/**
 * Told of every request when it is sent; returns what is told how it ended: with the API's answer,
 * or undefined when none came (target trouble: the outcome of a write is then unknown). What it
 * tells may answer a later answer to the same request (a replay's, helpers/audits/replay.ts), which
 * the caller then gets instead: the state the target is in after both.
 */
export type RequestObserver = (sent: SentRequest) => (answer: ApiResponse | undefined) => void | ApiResponse | Promise<void | ApiResponse>;

const requestObservers = new Set<RequestObserver>();

/**
 * Subscribes `observer` to every request the client sends, audited or not (the invariant audits of
 * helpers/audits/ are observers: a hostile write the envelope audit does not see still moves what
 * they know). Returns the unsubscribe function. An observer that throws fails the request.
 */
export function onRequest(observer: RequestObserver): () => void {
  requestObservers.add(observer);
  return () => requestObservers.delete(observer);
}

/**
 * Subscribes `listener` to every answer the client hands to a test (the envelope audit of
 * helpers/audits/envelope.ts is one). The client calls up into no check module: checks that want every
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
  get<T = UncheckedJson>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  /** POST a JSON body; never retried blindly on a lost answer (§8). */
  post<T = UncheckedJson>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  /** PATCH a JSON body (partial update, §4.1). */
  patch<T = UncheckedJson>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  /** PUT a JSON body. */
  put<T = UncheckedJson>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', path, { ...opts, body });
  }
  /** DELETE `path`. */
  delete<T = UncheckedJson>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }

  /**
   * Sends one request (plus retries per policy) and returns the final answer.
   *
   * Every attempt has the request deadline of helpers/base/deadline.ts (headers and body together) and
   * follows the running test's abort signal: once the test is judged its requests stop, so it
   * cannot change a shared fixture afterwards. What the API did not answer is target trouble and
   * is retried for the methods §8 allows (every method but POST), like a connection lost before
   * the headers: no answer within the deadline, a connection lost during the body (a body cut
   * short), and a 5xx whose body is not the API's JSON (a gateway's 502/503/504 page,
   * {@link apiShaped}). A 4xx outside the envelope is handed to the test: it is a refusal, which
   * the check that expected another answer judges (an HTTP layer's own refusal is graded there).
   *
   * One loop decides after each attempt: a 429 is waited out (its own budget,
   * {@link THROTTLE_RETRIES}); trouble and the API's own 5xx share one budget of resends (the
   * policy's `retries`), each resend after an exponential back-off with jitter (§8). A body that
   * does not parse is asked for once more before it is judged (helpers/http/mangled.ts).
   * @throws TargetError when no answer of the API could be obtained (`kind` says why; for
   *   `not-api` the last answer is attached); also when the test was judged (`cancelled`).
   */
  async request<T = UncheckedJson>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const req = this.prepare(method, path, opts);
    if (requestObservers.size === 0) return this.exchange<T>(req, opts);
    let parsed: { value: UncheckedJson } | undefined;
    const sent: SentRequest = {
      method,
      path: req.fullPath,
      get body() {
        parsed ??= { value: req.payload === undefined ? undefined : parseJson(req.payload) };
        return parsed.value;
      },
      credentials: this.credentials,
      audited: opts.audit !== false,
      replay: opts.replay === true,
      resend: () => this.request(method, path, { ...opts, replay: true }),
    };
    const ends = [...requestObservers].map((o) => o(sent));
    let answer: ApiResponse<T> | undefined;
    try {
      answer = await this.exchange<T>(req, opts);
    } catch (e) {
      for (const end of ends) await end(undefined);
      throw e;
    }
    for (const end of ends) answer = ((await end(answer)) as ApiResponse<T> | undefined) ?? answer;
    return answer;
  }

  /** The attempts of one prepared request, per {@link ApiClient.request}. */
  private async exchange<T>(req: PreparedRequest, opts: RequestOptions): Promise<ApiResponse<T>> {
    const method = req.method;
    // `retry: false` keeps the API's own 5xx for the caller; what the API did not answer is retried either way.
    const apiPolicy = opts.retry === false ? { retries: 0, minTimeoutMs: 0, maxTimeoutMs: 0 } : (opts.retry ?? this.retryPolicy);
    const troublePolicy = opts.retry === false ? this.retryPolicy : apiPolicy;
    const idempotent = method !== 'POST';
    const testSignal = currentScope()?.signal;
    let attempts = 0;
    let throttles = 0;
    /** Attempts resent after trouble or after an API 5xx: one budget for both. */
    let resends = 0;
    /** The kind of trouble each attempt met, in order (none for an attempt the API answered). */
    const troubles: TroubleKind[] = [];
    /** The first answer, when its body did not parse and the request was sent once more (helpers/http/mangled.ts). */
    let unreadable: ApiResponse<T> | undefined;
    /** Resends after answers whose body did not parse (helpers/http/mangled.ts `UNREADABLE_RESENDS`). */
    let unreadableResends = 0;

    for (;;) {
      await this.waitForPause(req, testSignal);
      attempts += 1;
      const sent = await this.attempt<T>(req, testSignal, attempts - 1);
      if (sent instanceof TargetError) {
        troubles.push(sent.kind);
        resends += 1;
        if (!idempotent || resends > troublePolicy.retries) this.giveUp(sent, attempts, troubles, opts.replay === true);
        await sleep(backoffMs(troublePolicy, resends));
      } else if (sent.status === 429 && !opts.expect429) {
        throttles += 1;
        // The shared pause, which the next attempt (of this request or any other to the target) waits out.
        pauseTarget(this.baseUrl, Math.min(retryAfterMs(sent) ?? backoffMs(THROTTLE_BACKOFF, throttles), THROTTLE_BACKOFF.maxTimeoutMs));
        if (throttles > THROTTLE_RETRIES) {
          const still = `${req.words}: still throttled (429) after ${THROTTLE_RETRIES} waits; a 429 says nothing about the request, so no verdict`;
          this.giveUp(new TargetError(still, req.summary, 'throttled'), attempts, troubles, opts.replay === true);
        }
      } else if (sent.status >= 500 && idempotent && resends < apiPolicy.retries) {
        resends += 1;
        await sleep(backoffMs(apiPolicy, resends));
      } else if (unreadableResends < UNREADABLE_RESENDS && unreadableBody(sent)) {
        unreadable ??= sent;
        unreadableResends += 1;
        if (!resendable(method)) {
          recordNotApi();
          this.giveUp(new TargetError(unjudgedBody(req.words, sent)!, req.summary, 'not-api', sent), attempts, troubles, opts.replay === true);
        }
        recordNotJsonResent();
      } else {
        const unjudged = unreadable && unjudgedBody(req.words, unreadable, sent);
        if (unjudged) this.giveUp(new TargetError(unjudged, req.summary, 'not-api', sent), attempts, troubles, opts.replay === true);
        if (unreadable) sent.notJsonResent = true;
        return this.deliver(sent, attempts, opts);
      }
    }
  }

  /** Headers, body and query of a request, and its redacted summary for evidence and messages. */
  private prepare(method: string, path: string, opts: RequestOptions): PreparedRequest {
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
      body: payload === undefined ? undefined : redactCut(payload, MAX_BODY),
    };
    const notResent = method === 'POST' ? '; a POST is never resent blindly (§8)' : '';
    return { method, fullPath, headers, payload, summary, words: `${method} ${summary.path}`, notResent };
  }

  /**
   * Waits out the target's shared 429 pause, shown as queued time (not charged to the test).
   * @throws TargetError `cancelled` when the test is judged before or after the wait.
   */
  private async waitForPause(req: PreparedRequest, testSignal: AbortSignal | undefined): Promise<void> {
    if (testSignal?.aborted) throw cancelledError(req);
    if ((pausedUntil.get(this.baseUrl) ?? 0) > Date.now()) {
      const unqueue = markQueued(`the target's 429 pause (${this.baseUrl})`);
      try {
        await targetReady(this.baseUrl);
      } finally {
        unqueue();
      }
    }
    if (testSignal?.aborted) throw cancelledError(req);
  }

  /**
   * Sends one attempt within the request deadline.
   * @returns the API's answer (any status, 429 included), or the trouble that kept one from
   *   arriving: `hung`, `lost`, or `not-api` (a 5xx whose body is not the API's, attached)
   * @throws TargetError `cancelled` when the test was judged meanwhile.
   */
  private async attempt<T>(req: PreparedRequest, testSignal: AbortSignal | undefined, retries: number): Promise<ApiResponse<T> | TargetError> {
    const deadline = requestTimeoutMs();
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
    const inflight = markInflight(req.words);
    let res: Dispatcher.ResponseData | undefined;
    let text: string;
    let wire: WireTiming | undefined;
    try {
      const sending = sendTimed(() =>
        undiciRequest(this.baseUrl + req.fullPath, {
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: wireBody(req.payload),
          dispatcher: agent,
          ...(req.payload !== undefined && framedByLength.has(this.baseUrl) ? { reset: false } : {}),
          headersTimeout: deadline,
          bodyTimeout: deadline,
          signal: attempt.signal,
        }),
      );
      wire = sending.timing;
      res = await sending.result;
      text = await res.body.text();
    } catch (e) {
      if (testSignal?.aborted) throw cancelledError(req);
      const code = (e as { code?: string }).code ?? '';
      const hung = timedOut || /TIMEOUT/.test(code);
      const phase = res ? `during the body of a ${res.statusCode} answer (a body cut short)` : 'before the headers';
      const why = hung
        ? `no answer within the ${deadline} ms request deadline (${res ? `the body of a ${res.statusCode} answer stalled` : 'no headers'})`
        : `connection lost ${phase}: ${(e as Error).message}`;
      if (hung) recordHung();
      else if (res) recordNotApi();
      res?.body.destroy();
      return new TargetError(`${req.words}: ${why}${req.notResent}`, req.summary, hung ? 'hung' : 'lost');
    } finally {
      clearTimeout(timer);
      testSignal?.removeEventListener('abort', onJudged);
      inflight();
      // From when the request went on the wire (not while it queued for a connection) to its end.
      recordSpan(performance.timeOrigin + (wire?.sentAt ?? started), performance.timeOrigin + performance.now());
    }
    const answer: ApiResponse<T> = {
      status: res.statusCode,
      headers: flattenHeaders(res.headers as Record<string, string | string[] | undefined>),
      text,
      json: parseJson(text),
      durationMs: performance.now() - started,
      retries,
      request: req.summary,
    };
    if (answer.status < 500 || apiShaped(answer.json)) return answer;
    recordNotApi();
    const what = `${req.words}: ${foreignWords(answer)}, not an answer of the API (its body is not the API's JSON)${req.notResent}`;
    return new TargetError(what, req.summary, 'not-api', answer);
  }

  /**
   * Ends a request that got no answer of the API: the error says how many attempts were sent and
   * what each met, and the test's record keeps it as target trouble (not for `replay`, an audit's
   * resend, whose trouble leaves only the audit unjudged).
   * @throws TargetError always (`err`, completed).
   */
  private giveUp(err: TargetError, attempts: number, troubles: readonly TroubleKind[], replay = false): never {
    err.attempts = attempts;
    err.sameEachTime = troubles.every((k) => k === err.kind);
    if (troubles.length > 1) {
      const counts = (['not-api', 'hung', 'lost'] as const).map((k) => [k, troubles.filter((x) => x === k).length] as const).filter(([, n]) => n > 0);
      const kindWords: Record<string, string> = { 'not-api': "not the API's", hung: 'hung', lost: 'connection lost' };
      err.message = `${err.message}; ${troubles.length} attempts, none answered by the API (${counts.map(([k, n]) => `${n} ${kindWords[k]}`).join(', ')})`;
    }
    if (err.response) err.response.retries = attempts - 1;
    recordExchange({ request: err.request, error: redact(err.message) }, attempts - 1);
    // An audit's replay (helpers/audits/replay.ts) that meets trouble leaves the audit unjudged, never the test in error.
    if (!replay) recordTargetTrouble(err.message);
    throw err;
  }

  /** Hands the API's answer to the test: recorded as evidence, audited by the answer listeners unless `audit: false`. */
  private deliver<T>(answer: ApiResponse<T>, attempts: number, opts: RequestOptions): ApiResponse<T> {
    answer.retries = attempts - 1;
    recordExchange(
      {
        request: answer.request,
        response: { status: answer.status, headers: redactHeaders(answer.headers), body: redactCut(answer.text, MAX_BODY) },
      },
      answer.retries,
    );
    if (notJson(answer)) recordNotJson();
    if (opts.audit !== false) for (const listener of answerListeners) listener(answer);
    return answer;
  }
}

/** One request as built once and sent on every attempt. */
interface PreparedRequest {
  method: string;
  /** Path with its query string, relative to the base URL. */
  fullPath: string;
  headers: Record<string, string>;
  payload?: string;
  /** The request as evidence shows it, redacted. */
  summary: RequestSummary;
  /** `METHOD /path` for messages, redacted. */
  words: string;
  /** What a trouble message adds for a method that is never resent after trouble (POST, §8), else ''. */
  notResent: string;
}

function cancelledError(req: PreparedRequest): TargetError {
  return new TargetError(`${req.words}: not sent or not awaited, the test was already judged`, req.summary, 'cancelled');
}

function parseJson(text: string): UncheckedJson {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
