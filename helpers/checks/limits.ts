/**
 * A limit check is sure the refusal is the API's before it judges it (issue 41). §7 allows a 429
 * on any endpoint ("throttled", its code endpoint-specific): a gateway in front, or a limiter of the
 * API's own that is not the stated limit, may refuse any request for a moment, even in the API's
 * envelope. Only the stated limit's refusal carries the endpoint's own body (the per-tenant mint
 * refusal a top-level `retryAfterSeconds`, §7 exception 3). So a test about a stated limit sends
 * its requests with `expect429` and hands each answer here: a 429 without the endpoint's body is a
 * throttle, waited out as it asks and sent again; only the answer after it is judged. A throttle
 * that does not lift is no verdict (`TargetError`, kind `throttled`), unless the caller has other
 * evidence that it is the endpoint's refusal after all (`persisted`, see {@link pastThrottles}).
 * The window a limit is spent in is judged by helpers/checks/clock.ts (`TimeWindow.spentWithin`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs, retryAfterMs, TargetError, THROTTLE_BACKOFF, THROTTLE_RETRIES, type ApiResponse } from '../http/client';
import { validate } from '../spec/validator';
import { rawRequest, type RawAnswer } from '../http/raw-http';

/** How {@link pastThrottles} waits out a throttle. */
export interface ThrottleOptions {
  /** Throttles waited out before giving up (default {@link THROTTLE_RETRIES}). */
  retries?: number;
  /** Longest wait for one throttle, ms (default 2,000: a limit's window is not outwaited; a longer Retry-After is cut to it). */
  maxWaitMs?: number;
  /**
   * On a throttle that did not lift, return it (`persisted`) instead of throwing: for a caller that
   * can tell, by other evidence, whether the endpoint itself refused (default false).
   */
  keepPersisting?: boolean;
}

/**
 * How a 429 without the endpoint's body is waited out where the stated budget is known to be spent
 * (a simulator states it): four times, at most a second each, so the limit's window (a minute for
 * the mint rate) is not outwaited. A refusal that outlasts it is the limit's only with other
 * evidence (`keepPersisting`): a gateway throttling one request in ten gives five in a row once in 10⁵.
 */
export const AT_LIMIT: ThrottleOptions = { retries: 4, maxWaitMs: 1_000, keepPersisting: true };

/** What {@link pastThrottles} got: the answer to judge, and the throttles waited out before it. */
export interface PastThrottles {
  /** The first answer that is not a throttle, or the last throttle when `persisted`. */
  res: ApiResponse;
  /** The throttles waited out (429s without the endpoint's body), oldest first. */
  throttles: ApiResponse[];
  /** Every answer was a throttle, `retries` waits did not lift it (only with `keepPersisting`). */
  persisted: boolean;
}

/**
 * Sends `send` until its answer is not a throttle: a 429 for which `endpoints(res)` is false (not
 * the endpoint's own refusal) is waited out — its Retry-After or retryAfterSeconds, else the
 * client's back-off (250 ms, doubling), at most `maxWaitMs` — and sent again, up to `retries` times.
 * A 429 of the endpoint's own body, and every other answer, is returned at once.
 * @param what the request in words, for the error ("POST /calls/{id}/monitor-session")
 * @throws TargetError (`throttled`, an `error`) when the throttle did not lift (unless `keepPersisting`); whatever `send` throws
 */
export async function pastThrottles(
  send: () => Promise<ApiResponse>,
  endpoints: (res: ApiResponse) => boolean,
  what: string,
  opts: ThrottleOptions = {},
): Promise<PastThrottles> {
  const retries = opts.retries ?? THROTTLE_RETRIES;
  const maxWaitMs = opts.maxWaitMs ?? 2_000;
  const throttles: ApiResponse[] = [];
  for (;;) {
    const res = await send();
    if (res.status !== 429 || endpoints(res)) return { res, throttles, persisted: false };
    if (throttles.length >= retries) {
      if (opts.keepPersisting) return { res, throttles, persisted: true };
      throw new TargetError(
        `${what}: still throttled after ${retries} waits by 429s without the endpoint's own body (a gateway's or another limiter's, §7 "throttled"); such a 429 says nothing about the stated limit, so no verdict`,
        res.request,
        'throttled',
      );
    }
    throttles.push(res);
    await sleep(Math.min(retryAfterMs(res) ?? backoffMs(THROTTLE_BACKOFF, throttles.length), maxWaitMs));
  }
}

/**
 * Whether an answer is the mint endpoint's own refusal over the per-tenant rate (§4.5, §7 exception
 * 3): a 429 whose body is the bare `{ retryAfterSeconds, … }` of schemas/monitor `rateLimited`. Any
 * other 429 is a throttle, for {@link pastThrottles} to wait out.
 */
export function mintRateRefusal(res: ApiResponse): boolean {
  return res.status === 429 && validate('monitor#/$defs/rateLimited', res.json).ok;
}

/**
 * {@link rawRequest} for a GET or HEAD, past throttles by {@link pastThrottles}: a raw-bytes read
 * has no endpoint body of its own, so every 429 is a throttle (§7), waited out as its
 * `Retry-After` asks, and never judged as the answer to what the bytes test.
 * @returns the first answer that is not a 429
 * @throws TargetError (`throttled`, an `error` verdict) when every attempt was answered 429
 * @throws Error when `request` is not a GET or HEAD (a write is never resent blindly, §8)
 */
export async function rawReadPastThrottles(baseUrl: string, request: string, timeoutMs = 5_000): Promise<RawAnswer> {
  const [method, path] = request.split(' ', 2);
  if (method !== 'GET' && method !== 'HEAD') throw new Error(`rawReadPastThrottles sends only GET and HEAD, not ${method}`);
  let raw: RawAnswer = { head: '', body: '' };
  const send = async (): Promise<ApiResponse> => {
    raw = await rawRequest(baseUrl, request, timeoutMs);
    const retryAfter = /\r\nretry-after:\s*([^\r\n]*)/i.exec(raw.head)?.[1]?.trim();
    return {
      status: raw.status ?? 0,
      headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
      text: raw.body,
      json: undefined,
      durationMs: 0,
      retries: 0,
      request: { method, path, headers: {} },
    };
  };
  await pastThrottles(send, () => false, `${method} ${path}`);
  return raw;
}
