/**
 * Named checks of §6 deliveries, as the webhook suites say them: a delivery arrived (and not
 * elsewhere), a lost model A event was not retried, a failed model B event was, a delivery is a
 * JSON POST with a `type`, carries the model A secret, or is signed under model B. Each states its
 * requirement and, on failure, expected against actual (h2spec's named verifiers), and records on
 * the clauses of the `verify` (or `Checks`) it is given, so a suite never restates them.
 *
 * The receiver (helpers/webhooks/receiver.ts) observes; these judge. Secrets are never printed:
 * a failed secret or signature check says why it failed (helpers/webhooks/verify.ts), not what.
 */
import type { Checks, Verify } from '../clause';
import type { ControlDelivery } from '../control';
import { WaitTimeoutError, jsonOf, type ReceivedRequest, type WebhookReceiver } from './receiver';
import { getHeader, HEADER_SIGNATURE, verifyModelA, verifyModelB } from './verify';

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
    checks.that(requirement, false, {
      expected: opts.expected ?? `within ${opts.timeoutMs} ms`,
      actual: `nothing matching arrived; the receiver saw: ${rx.summary()}`,
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
  const more = await rx.holdsOff((all) => attempts(all).length > 1, windowMs);
  const seen = attempts(rx.requests);
  checks.that(requirement, !more.violated, { expected: `1 attempt within ${windowMs} ms`, actual: `${seen.length} attempts: ${attemptWords(seen)}` });
}

/**
 * §6 model A, as the control API's deliveries log shows it: at least one delivery, each attempted
 * exactly once. `to` names the URL for the failure text ("the failing URL").
 * @throws ConformanceFailure when the log is empty or shows a retry (unless `checks` is soft)
 */
export function verifyLoggedOnce(checks: Checks, requirement: string, log: ControlDelivery[], to: string): void {
  checks.that(requirement, log.length >= 1 && log.every((d) => d.attempts.length === 1), {
    expected: `each delivery to ${to}: 1 attempt`,
    actual: log.map((d) => `${d.type} (${d.model}): ${d.attempts.length} attempts, ${d.state}`).join('; ') || 'no delivery logged',
  });
}

/**
 * §6 model B: a delivery that was not answered 2xx is attempted again with the same delivery id.
 * `attempts` are the receiver's deliveries carrying `deliveryId`.
 * @throws ConformanceFailure when fewer than two came (unless `checks` is soft)
 */
export function verifyRetried(checks: Checks, requirement: string, attempts: ReceivedRequest[], deliveryId: string): void {
  checks.that(requirement, attempts.length >= 2, {
    expected: `2 or more attempts with delivery id ${deliveryId}`,
    actual: `${attempts.length} attempt(s): ${attemptWords(attempts)}`,
  });
}

/** §6 first paragraph: the delivery is an HTTP POST with Content-Type application/json; soft, on 6/events-post-json. */
export function verifyPostJson(verify: Verify, r: ReceivedRequest, what: string): void {
  const ct = String(r.headers['content-type'] ?? '');
  verify
    .on('6/events-post-json')
    .soft.that(`${what} is an HTTP POST with Content-Type application/json`, r.method === 'POST' && /^application\/json\s*(;|$)/i.test(ct), {
      expected: 'POST, content-type: application/json',
      actual: `${r.method}, content-type: ${ct || '(none)'}`,
    });
}

/**
 * §6 Model A rule 1: the delivery carries x-service-core-secret equal to the client server secret
 * (never printed); soft, on 6/a-secret-header and 6/delivery-model-per-event.
 */
export function verifyModelASecret(verify: Verify, r: ReceivedRequest, secret: string, what: string): void {
  const v = verifyModelA(r.headers, secret);
  verify
    .on(['6/a-secret-header', '6/delivery-model-per-event'])
    .soft.that(`${what} (model A) carries x-service-core-secret equal to the client server secret`, v.ok, {
      expected: 'the client server secret, verbatim',
      actual: v.ok ? 'equal' : `${v.reason}: ${v.message}`,
    });
}

/**
 * §6: every body is a JSON object carrying a string `type`; soft, on 6/type-field.
 * @returns the parsed body, as `jsonOf` reads it (undefined when it is not JSON)
 */
export function verifyTypeField(verify: Verify, r: ReceivedRequest, what: string): ReturnType<typeof jsonOf> {
  const body = jsonOf(r);
  verify
    .on('6/type-field')
    .soft.that(
      `${what} is a JSON object carrying a string \`type\``,
      !!body && typeof body === 'object' && typeof body.type === 'string' && body.type.length > 0,
      {
        expected: 'a JSON object with a non-empty string `type`',
        actual: body === undefined ? `not JSON (${r.body.length} bytes)` : `type ${JSON.stringify(body?.type)}`,
      },
    );
  return body;
}

/**
 * §6 Model B rules 1–2: X-Service-Signature is `sha256=<hex>`, the HMAC-SHA256 of the raw body bytes
 * keyed by the client server secret. Records on `checks`' clauses; the failure says why the
 * signature did not verify and how the header starts, never the secret.
 * @throws ConformanceFailure when it does not verify (unless `checks` is soft)
 */
export function verifyModelBSigned(checks: Checks, requirement: string, r: ReceivedRequest, secret: string): void {
  const v = verifyModelB(r.body, r.headers, secret);
  const sig = getHeader(r.headers, HEADER_SIGNATURE);
  checks.that(requirement, v.ok, {
    expected: 'sha256= followed by the 64-digit hex HMAC of the bytes received',
    actual: v.ok ? 'verified' : `${v.reason}: ${v.message} (header starts ${JSON.stringify(sig?.slice(0, 14) ?? null)})`,
  });
}
