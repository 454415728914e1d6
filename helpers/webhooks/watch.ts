/**
 * Waits that judge a window of §6 deliveries: an arrival (and not elsewhere), a silence, a lost
 * model A event not attempted again, a failing model B event attempted again as the deliveries log
 * shows it. One wait serves many clauses, so each takes the `Checks` its caller bound
 * (`verify.on(id)`, `.soft` when the test goes on after a failure), as the engine's own verifiers
 * record on the test's clauses. Every window is judged through helpers/checks/clock.ts: what the
 * runner's own lateness over it may explain is no verdict.
 *
 * The verifiers that own their clauses (what each delivery carries, the retry schedule) are
 * helpers/webhooks/verifiers.ts. The receiver (helpers/webhooks/receiver.ts) observes; these judge.
 */
import type { Checks } from '../checks/engine';
import type { ControlDelivery } from '../target/control';
import { WaitTimeoutError, describeRequest, type ReceivedRequest, type WebhookReceiver } from './receiver';
import { LATE_MS, NEVER, openWindow } from '../checks/clock';
import { waitForLoggedAttempts } from './waits';

/** How {@link verifyArrival} waits and what it calls a wrong delivery. */
export interface ArrivalOptions {
  /** Longest wait, ms. */
  timeoutMs: number;
  /**
   * Checked on every arrival: a text (e.g. "delivered to the tenant-level URL") ends the wait at
   * once with a failure saying so.
   */
  wrong?: (all: ReceivedRequest[]) => string | undefined;
  /** What the failure says was expected; default "within <timeoutMs> ms" (or "delivery as stated" for a wrong one). */
  expected?: string;
}

/**
 * Waits until `pick` finds the deliveries the test expects among all the receiver has seen, and
 * records the requirement on `checks`' clauses: a pass when they came; on a timeout a failure
 * listing what did arrive (redacted), not a bare timeout; a failure naming what `opts.wrong` found.
 * @returns the deliveries `pick` found (empty only when a soft check recorded the failure)
 * @throws ConformanceFailure when nothing matching arrived or a wrong delivery came (unless `checks` is soft)
 */
export async function verifyArrival(
  checks: Checks,
  rx: WebhookReceiver,
  requirement: string,
  pick: (all: ReceivedRequest[]) => ReceivedRequest[] | undefined | false,
  opts: ArrivalOptions,
): Promise<ReceivedRequest[]> {
  let found: ReceivedRequest[] = [];
  let wrong: string | undefined;
  const window = openWindow();
  try {
    await rx.waitFor(
      (all) => {
        wrong = opts.wrong?.(all);
        if (wrong) return true;
        const r = pick(all);
        if (r && r.length) {
          found = r;
          return true;
        }
        return false;
      },
      opts.timeoutMs,
      requirement,
    );
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    // A wait the runner spent late (5% of it, at least LATE_MS) may have closed before what came was seen.
    window.close().judge(checks, requirement, false, {
      expected: opts.expected ?? `within ${opts.timeoutMs} ms`,
      actual: `nothing matching arrived within ${opts.timeoutMs} ms; the receiver saw: ${rx.summary()}`,
      explainedBy: (lateMs) => lateMs >= Math.max(LATE_MS, opts.timeoutMs * 0.05),
    });
    return found;
  }
  if (wrong) {
    checks.that(requirement, false, { expected: opts.expected ?? 'delivery as stated', actual: wrong });
    return found;
  }
  checks.that(requirement, true, { expected: '', actual: '' });
  return found;
}

/** "#3 -> 500, #7 -> held": each attempt's arrival number and the status the receiver answered. */
export function attemptWords(attempts: ReceivedRequest[]): string {
  return attempts.map((r) => `#${r.seq} -> ${r.answeredStatus ?? 'held'}`).join(', ');
}

/**
 * Silence: watches the receiver for `windowMs` and records on `checks` that nothing `unwanted`
 * finds (the requests that must not come, among all received) arrived, e.g. §2.3's "no test
 * request" after a PATCH of serverUrl. It ends early, failing, as soon as one comes, and lists it (redacted).
 * @param expected what the failure says was expected ("no request at /x within 250 ms of the PATCH")
 * @throws ConformanceFailure when one came (unless `checks` is soft)
 */
export async function verifySilence(
  checks: Checks,
  rx: WebhookReceiver,
  requirement: string,
  unwanted: (all: ReceivedRequest[]) => ReceivedRequest[],
  windowMs: number,
  expected: string,
): Promise<void> {
  const window = openWindow();
  const probe = await rx.holdsOff((all) => unwanted(all).length > 0, windowMs);
  // What came in a silence window came: the runner's lateness never explains it.
  window.close().judge(checks, requirement, !probe.violated, {
    expected,
    actual: probe.violated ? unwanted(rx.requests).map(describeRequest).join('; ') : 'none',
    explainedBy: NEVER,
  });
}

/**
 * §6 model A: an event is attempted once. Watches the receiver for `windowMs` (longer than a whole
 * model B retry schedule of the target) and records on `checks` that `attempts` (the event's
 * deliveries among all received) never grew past one.
 * @throws ConformanceFailure when a second attempt came (unless `checks` is soft)
 */
export async function verifyNoRetry(
  checks: Checks,
  rx: WebhookReceiver,
  requirement: string,
  attempts: (all: ReceivedRequest[]) => ReceivedRequest[],
  windowMs: number,
): Promise<void> {
  const window = openWindow();
  const more = await rx.holdsOff((all) => attempts(all).length > 1, windowMs);
  const seen = attempts(rx.requests);
  // A second attempt of a model A event came: the runner's lateness never explains it.
  window.close().judge(checks, requirement, !more.violated, {
    expected: `1 attempt within ${windowMs} ms`,
    actual: `${seen.length} attempts: ${attemptWords(seen)}`,
    explainedBy: NEVER,
  });
}

/**
 * §6 model B, as the control API's deliveries log shows it: the delivery `deliveryId` (one whose
 * connection was refused) is attempted again within `windowMs`. Polls the log (helpers/webhooks/waits.ts
 * `waitForLoggedAttempts`) and judges what it last showed through a helpers/checks/clock.ts window:
 * too few attempts while the runner ran late over the wait is no verdict.
 * @throws OwnSideError (`late-runner`) when the runner's lateness may explain too few attempts
 * @throws ConformanceFailure when fewer than two were logged (unless `checks` is soft)
 */
export async function verifyLoggedRetry(
  checks: Checks,
  requirement: string,
  readLog: () => Promise<ControlDelivery[]>,
  deliveryId: string,
  windowMs: number,
): Promise<void> {
  const logged = openWindow();
  const entry = await waitForLoggedAttempts(readLog, deliveryId, 2, windowMs);
  logged.close().judge(checks, requirement, !!entry && entry.attempts.length >= 2, {
    expected: `2 or more attempts of the delivery within ${windowMs} ms`,
    actual: entry ? `${entry.attempts.length} attempt(s), ${entry.state}` : 'no delivery logged',
  });
}
