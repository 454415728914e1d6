/**
 * Named waiters of the §6 webhook suites: what a test hands to an arrival wait ("N attempts
 * came"), following a failing model B event's retries to their end, and waiting for the control
 * API's deliveries log to show a retry. They hold the timing machinery (windows from
 * helpers/webhooks/timing.ts, bounded polling), so a test body states what it waits for, not how;
 * the verdicts stay with helpers/webhooks/verifiers.ts and watch.ts.
 */
import { vi } from 'vitest';
import type { ControlDelivery } from '../target/control';
import { WaitTimeoutError, type ReceivedRequest, type WebhookReceiver } from './receiver';
import { deliveryIdOf } from './verify';
import { nextRetryWindowMs } from './timing';
import { LATE_MS, openWindow } from '../checks/clock';

/** What an arrival wait is handed: the deliveries it was waiting for, or a falsy value to go on waiting. */
export type Pick = (all: ReceivedRequest[]) => ReceivedRequest[] | undefined | false;

/**
 * An arrival pick that ends the wait once `attemptsOf` (the test's deliveries, e.g. the onboarding
 * events at its path) holds at least `n`.
 * @returns the pick: all of them once there are `n`, else false
 */
export function atLeastAttempts(n: number, attemptsOf: (all: ReceivedRequest[]) => ReceivedRequest[]): Pick {
  return (all) => {
    const mine = attemptsOf(all);
    return mine.length >= n && mine;
  };
}

/**
 * An arrival pick that ends the wait once `attemptsOf` holds `events` distinct delivery ids (§6
 * model B: one per event), each attempted at least `times` times.
 * @returns the pick: all of them once each event was attempted so often, else false
 */
export function eachEventAttempted(events: number, times: number, attemptsOf: (all: ReceivedRequest[]) => ReceivedRequest[]): Pick {
  return (all) => {
    const mine = attemptsOf(all);
    const byId = new Map<string, number>();
    for (const r of mine) byId.set(deliveryIdOf(r.headers) ?? '', (byId.get(deliveryIdOf(r.headers) ?? '') ?? 0) + 1);
    return byId.size >= events && [...byId.values()].every((n) => n >= times) && mine;
  };
}

/** How {@link followRetries} waits for the next attempt. */
export interface FollowOptions {
  /** The target's model B retry base delay, ms; undefined when it is not known (a live tenant). */
  retryBaseMs: number | undefined;
  /** How long to wait for the first retry when the base delay is not known, ms. */
  unknownFirstWaitMs: number;
  /** Attempts after which no more is waited for (default 8: 7 retries, already too many). */
  max?: number;
}

/**
 * Follows the attempts of a failing model B event (§6: retried up to 5 times with exponential
 * backoff) until none comes within the window the next exponential step needs
 * (helpers/webhooks/timing.ts `nextRetryWindowMs`; a first retry whose delay is not known is
 * waited for `opts.unknownFirstWaitMs`), or `opts.max` came. A window the runner spent running
 * late (helpers/base/lateness.ts, {@link LATE_MS} or more) proves no silence and is waited again, twice at most.
 * @param attemptsOf the event's attempts among all the receiver saw, in arrival order
 * @returns the attempts, in arrival order
 */
export async function followRetries(rx: WebhookReceiver, attemptsOf: () => ReceivedRequest[], opts: FollowOptions): Promise<ReceivedRequest[]> {
  const max = opts.max ?? 8;
  let seen = attemptsOf();
  // A window the runner spent running late (helpers/base/lateness.ts) proves no silence: it is waited again, twice at most.
  let extensions = 0;
  while (seen.length < max) {
    const n = seen.length;
    const lastGap = n >= 2 ? seen[n - 1].arrivedAtMs - seen[n - 2].arrivedAtMs : 0;
    const window = n < 2 && opts.retryBaseMs === undefined ? opts.unknownFirstWaitMs : nextRetryWindowMs(lastGap, opts.retryBaseMs ?? 0);
    const watched = openWindow();
    const more = await rx.holdsOff(() => attemptsOf().length > n, window);
    seen = attemptsOf();
    if (more.violated) continue;
    if (extensions < 2 && watched.close().lateBy(LATE_MS)) extensions += 1;
    else break;
  }
  return seen;
}

/**
 * Polls the control API's deliveries log (`readLog`, every 50 ms) until the delivery `deliveryId`
 * shows at least `attempts` attempts, or `timeoutMs` passed; never throws on the timeout, so the
 * caller judges what the log last showed (read once more after the timeout: a runner late past the
 * deadline still reads what the target logged by then; the caller judges it through a
 * helpers/checks/clock.ts window).
 * @returns the log entry of that delivery as last read, or undefined when it was never logged
 */
export async function waitForLoggedAttempts(
  readLog: () => Promise<ControlDelivery[]>,
  deliveryId: string,
  attempts: number,
  timeoutMs: number,
): Promise<ControlDelivery | undefined> {
  let log: ControlDelivery[] = [];
  await vi
    .waitFor(
      async () => {
        log = await readLog();
        if (!log.some((d) => d.deliveryId === deliveryId && d.attempts.length >= attempts)) throw new Error('not attempted so often yet');
      },
      { timeout: timeoutMs, interval: 50 },
    )
    .catch(async () => {
      log = await readLog();
    });
  return log.find((d) => d.deliveryId === deliveryId);
}

/**
 * Waits (at most `windowMs`) until the event's first attempt, held on purpose past an attempt
 * timeout, was either followed by a retry or answered 200 at the hold's end, and says which: a
 * sender that waited out the whole hold had no timeout, so §6 owes no retry. A timeout of the
 * wait itself is not an error; the caller's arrival wait judges what came.
 * @param attemptsOf the event's attempts among all the receiver saw, in arrival order
 * @returns true when the first attempt got its slow 200 and no retry came
 */
export async function slowAnswerTaken(rx: WebhookReceiver, attemptsOf: () => ReceivedRequest[], windowMs: number): Promise<boolean> {
  const first = () => attemptsOf()[0];
  await rx
    .waitFor(() => attemptsOf().length >= 2 || first()?.answeredStatus === 200, windowMs, 'a retry, or the end of the hold')
    .catch((e) => {
      if (!(e instanceof WaitTimeoutError)) throw e;
    });
  return attemptsOf().length < 2 && first()?.answeredStatus === 200;
}

/** What {@link routedArrival} saw: the deliveries expected, one that went elsewhere, or neither in time. */
export type RoutedArrival =
  | { kind: 'arrived'; found: ReceivedRequest[] }
  | { kind: 'wrong'; wrong: ReceivedRequest }
  | { kind: 'none'; /** the runner ran late over the wait (5% of it, at least {@link LATE_MS}): the silence proves nothing */ late: boolean };

/**
 * Waits at most `timeoutMs` until `expected` finds deliveries among all the receiver has seen, or
 * `elsewhere` finds one that went where it must not; judges nothing, so a model's command words its
 * own failure (a routing model, §6). A wait that ran out says whether the runner was late over it.
 * @param what the deliveries waited for, in words (for the receiver's timeout)
 */
export async function routedArrival(
  rx: WebhookReceiver,
  expected: (all: ReceivedRequest[]) => ReceivedRequest[],
  elsewhere: (all: ReceivedRequest[]) => ReceivedRequest | undefined,
  timeoutMs: number,
  what: string,
): Promise<RoutedArrival> {
  const window = openWindow();
  let seen: RoutedArrival | undefined;
  const settled = (all: ReceivedRequest[]): boolean => {
    const wrong = elsewhere(all);
    const found = expected(all);
    seen = wrong ? { kind: 'wrong', wrong } : found.length ? { kind: 'arrived', found } : undefined;
    return seen !== undefined;
  };
  try {
    await rx.waitFor(settled, timeoutMs, what);
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    // A runner late past the deadline still reads what came by then.
    settled(rx.requests);
  }
  return seen ?? { kind: 'none', late: window.close().lateBy(Math.max(LATE_MS, timeoutMs * 0.05)) };
}
