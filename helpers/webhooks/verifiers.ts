/**
 * The named verifiers of §6 deliveries (h2spec's verifiers): each owns the clauses it judges, made
 * with `sharedVerifier`, so a test lists it among its clauses and calls it with its `verify`. A
 * delivery is a JSON POST with a `type`, carries the model A secret, is signed under model B over
 * its raw bytes; a lost model A event is logged once; a failing model B event is retried as often
 * as §6 says, with growing waits, the same delivery id and the same event. Each records soft
 * checks and, on failure, expected against actual. Secrets are never printed: a failed secret or
 * signature check says why it failed (helpers/webhooks/verify.ts), not what.
 *
 * The waits that judge a window on whatever clause their caller binds (arrival, silence, no retry)
 * are helpers/webhooks/watch.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import { sharedVerifier, type Verify } from '../checks/engine';
import type { ControlDelivery } from '../target/control';
import { jsonOf, type ReceivedRequest } from './receiver';
import { deliveryIdOf, getHeader, HEADER_SIGNATURE, verifyModelA, verifyModelB } from './verify';
import { analyseBackoff, couldBeExponential, retryReading } from './timing';
import { TICK_MS } from '../base/lateness';
import { openWindow } from '../checks/clock';
import { attemptWords } from './watch';

/** §6 first paragraph: the delivery is an HTTP POST with Content-Type application/json; soft, on 6/events-post-json. */
export const verifyPostJson = sharedVerifier('6/events-post-json', function verifyPostJson(verify: Verify, r: ReceivedRequest, what: string): void {
  const ct = String(r.headers['content-type'] ?? '');
  verify
    .on('6/events-post-json')
    .soft.that(`${what} is an HTTP POST with Content-Type application/json`, r.method === 'POST' && /^application\/json\s*(;|$)/i.test(ct), {
      expected: 'POST, content-type: application/json',
      actual: `${r.method}, content-type: ${ct || '(none)'}`,
    });
});

/**
 * §6 Model A rule 1: the delivery carries x-service-core-secret equal to the client server secret
 * (never printed); soft, on 6/a-secret-header and 6/delivery-model-per-event.
 */
export const verifyModelASecret = sharedVerifier(
  ['6/a-secret-header', '6/delivery-model-per-event'],
  function verifyModelASecret(verify: Verify, r: ReceivedRequest, secret: string, what: string): void {
    const v = verifyModelA(r.headers, secret);
    verify
      .on(['6/a-secret-header', '6/delivery-model-per-event'])
      .soft.that(`${what} (model A) carries x-service-core-secret equal to the client server secret`, v.ok, {
        expected: 'the client server secret, verbatim',
        actual: v.ok ? 'equal' : `${v.reason}: ${v.message}`,
      });
  },
);

/**
 * §6: every body is a JSON object carrying a string `type`; soft, on 6/type-field.
 * @returns the parsed body, as `jsonOf` reads it (undefined when it is not JSON)
 */
export const verifyTypeField = sharedVerifier('6/type-field', function verifyTypeField(verify: Verify, r: ReceivedRequest, what: string): ReturnType<
  typeof jsonOf
> {
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
});

/**
 * §6 Model A, every delivery: a JSON POST ({@link verifyPostJson}) carrying the client server
 * secret ({@link verifyModelASecret}) and a string `type` ({@link verifyTypeField}); soft.
 * @returns the parsed body, as `jsonOf` reads it
 */
export const verifyModelADelivery = sharedVerifier(
  [...verifyPostJson.clauses, ...verifyModelASecret.clauses, ...verifyTypeField.clauses],
  function verifyModelADelivery(verify: Verify, r: ReceivedRequest, secret: string, what: string): ReturnType<typeof jsonOf> {
    verifyPostJson(verify, r, what);
    verifyModelASecret(verify, r, secret, what);
    return verifyTypeField(verify, r, what);
  },
);

/**
 * §6 Model B rule 2: the signature covers the raw bytes only, so the body re-serialised or
 * reformatted no longer verifies; soft, on 6/b-raw-bytes. A body sent exactly as JSON.stringify
 * writes it proves nothing for that form (reported, informational).
 */
export const verifySignedOverRawBytes = sharedVerifier(
  '6/b-raw-bytes',
  function verifySignedOverRawBytes(verify: Verify, r: ReceivedRequest, secret: string, what: string): void {
    const rawBytes = verify.on('6/b-raw-bytes');
    const parsed = JSON.parse(r.body.toString('utf8'));
    for (const [how, text] of [
      ['re-serialised', JSON.stringify(parsed)],
      ['reformatted', JSON.stringify(parsed, null, 2)],
    ] as const) {
      const changed = Buffer.from(text, 'utf8');
      if (changed.equals(r.body)) {
        rawBytes.inform(
          `${what}: the ${how} body differs from the bytes sent`,
          false,
          `the body was sent exactly as JSON.stringify writes it, so ${how} bytes are identical and prove nothing`,
        );
        continue;
      }
      rawBytes.soft.that(
        `${what}: the signature does not verify once the body is ${how} (it covers the raw bytes only)`,
        !verifyModelB(changed, r.headers, secret).ok,
        {
          expected: 'mismatch',
          actual: 'the signature verified over the changed bytes: it was computed over a re-serialised body, not the bytes sent',
        },
      );
    }
  },
);

/**
 * §6 "retried up to 5 times" against §8 "5 attempts": the attempts of one failing model B event
 * number 6 or 5, never fewer or more (helpers/webhooks/timing.ts `retryReading`), and the reading
 * the target takes is reported; soft, on 6/b-retry-count. `atLeast` is the count at which the
 * observer stopped waiting (the actual count may be higher).
 */
export const verifyRetryCount = sharedVerifier('6/b-retry-count', function verifyRetryCount(verify: Verify, attempts: ReceivedRequest[], atLeast = 8): void {
  const count = verify.on('6/b-retry-count');
  const reading = retryReading(attempts.length);
  // Too few may be a retry that came after the runner, running late, had closed its window.
  if (reading === 'too-few' && attempts.length > 0)
    openWindow(attempts[0].arrivedAtMs)
      .close()
      .unlessExplained('a failing model B delivery is retried up to 5 times', { actual: `only ${attempts.length} attempts seen` }, verify.record);
  count.soft.that(
    'a failing model B delivery is retried up to 5 times (5 or 6 attempts in all, never fewer or more)',
    reading === 'five-retries' || reading === 'five-attempts',
    {
      expected: '6 attempts (1 + 5 retries) or 5 attempts in all (§8 "5 attempts")',
      actual: `${attempts.length} attempts${attempts.length >= atLeast ? ' or more' : ''} (${attempts.length - 1} retries)`,
    },
  );
  count.inform(
    'reading of "up to 5 retries" the target takes',
    true,
    reading === 'five-retries' ? '1 + 5 retries (6 attempts)' : '5 attempts in all (1 + 4 retries, §8 limit table)',
  );
});

/**
 * §6 Model B, the attempts of one event: every retry reuses the first attempt's delivery id (on
 * 6/b-same-delivery-id) and carries the same event, equal parsed bodies (on 6/b-dedupe), so
 * deduplicating on the id loses nothing; byte identity is reported only (6/b-same-bytes). Soft.
 */
export const verifySameEvent = sharedVerifier(
  ['6/b-same-delivery-id', '6/b-dedupe', '6/b-same-bytes'],
  function verifySameEvent(verify: Verify, attempts: ReceivedRequest[]): void {
    const ids = attempts.map((r) => deliveryIdOf(r.headers));
    verify.on('6/b-same-delivery-id').soft.that(
      'every retry reuses the delivery id of the first attempt',
      ids.every((id) => id && id === ids[0]),
      {
        expected: `all ${ids[0]}`,
        actual: ids.join(', '),
      },
    );
    const first = jsonOf(attempts[0]);
    verify.on('6/b-dedupe').soft.that(
      'every attempt carries the same event (same parsed body), so deduplicating on the id loses nothing',
      attempts.every((r) => isDeepStrictEqual(jsonOf(r), first)),
      {
        expected: 'equal JSON bodies',
        actual: attempts.map((r) => `#${r.seq}: ${r.body.length} bytes`).join(', '),
      },
    );
    verify.on('6/b-same-bytes').inform(
      'retries are byte-identical to the first attempt',
      attempts.every((r) => r.body.equals(attempts[0].body)),
      attempts.map((r) => `${r.body.length} bytes`).join(', '),
    );
  },
);

/** The window of a schedule's arrivals, from a tick before the first to the last. */
const scheduleWindow = (arrivals: number[]) => openWindow(arrivals[0] - TICK_MS).close(arrivals[arrivals.length - 1]);

/**
 * A schedule whose reading is in doubt: 4 or more arrivals whose waits do not look exponential,
 * with its window and the runner's lateness (ms) that would explain them. Undefined when the waits
 * are too few to judge or look exponential. The one decision behind {@link backoffSpoilt} and
 * {@link verifyBackoff}.
 */
function doubtfulSchedule(arrivals: number[]): { window: ReturnType<typeof scheduleWindow>; explainedBy: (lateMs: number) => boolean } | undefined {
  if (arrivals.length < 4 || analyseBackoff(arrivals).exponential) return undefined;
  return { window: scheduleWindow(arrivals), explainedBy: (lateMs) => couldBeExponential(arrivals, lateMs) };
}

/**
 * Whether the runner's own lateness spoilt the reading of `attempts`' schedule: the waits do not
 * look exponential, yet the lateness over their window could have made them so, so
 * {@link verifyBackoff} would end the test without a verdict. A test may then read a fresh event's
 * schedule instead: a conformant target's schedule reads as exponential once the runner keeps time,
 * and a target whose waits do not grow still fails. Pure apart from reading the runner's lateness.
 */
export function backoffSpoilt(attempts: ReceivedRequest[]): boolean {
  const doubt = doubtfulSchedule(attempts.map((r) => r.arrivedAtMs));
  return doubt !== undefined && doubt.window.explains(doubt.explainedBy);
}

/**
 * §6 Model B "exponential backoff", judged by the ratios between successive waits only
 * (helpers/webhooks/timing.ts `analyseBackoff`), never by absolute times; the measured waits are
 * reported. Fewer than 4 attempts give too few ratios to judge. Soft, on 6/b-backoff-exponential.
 * `retryBaseMs` is the configured first delay, for the message. The arrival times are the
 * runner's: when the waits do not grow but the runner's own lateness over the same window
 * (helpers/base/lateness.ts) could explain it, nothing is judged.
 * @throws OwnSideError (`late-runner`, an `error`) when the runner's lateness could explain a schedule that looks wrong
 */
export const verifyBackoff = sharedVerifier(
  '6/b-backoff-exponential',
  function verifyBackoff(verify: Verify, attempts: ReceivedRequest[], retryBaseMs: number): void {
    const arrivals = attempts.map((r) => r.arrivedAtMs);
    const backoff = analyseBackoff(arrivals);
    const gaps = backoff.gapsMs.map((g) => g.toFixed(0)).join(', ');
    const exponential = verify.on('6/b-backoff-exponential');
    // Arrival times are the runner's: waits its lateness over the schedule could have stretched or shrunk are no verdict.
    const doubt = doubtfulSchedule(arrivals);
    doubt?.window.unlessExplained(
      'the retry waits grow as §6 says (6/b-backoff-exponential)',
      { actual: `the retry waits ${gaps} ms do not grow`, explainedBy: doubt.explainedBy },
      verify.record,
    );
    exponential.soft.that('each retry comes later than the one before, the waits growing about geometrically', attempts.length < 4 || backoff.exponential, {
      expected: `median growth ≥ 1.4× per retry (the larger of two), and at most one wait growing less than 1.3× with 10 ms slack (first retry delay configured: ${retryBaseMs} ms)`,
      actual: `waits ${gaps} ms; ${backoff.problems.join('; ')}`,
    });
    exponential.inform('measured retry waits (ms) and growth', true, `waits ${gaps}; ratios ${backoff.ratios.map((r) => r.toFixed(2)).join(', ')}`);
  },
);

/**
 * §6 model A, as the control API's deliveries log shows it: at least one delivery, each attempted
 * exactly once; soft, on 6/a-no-retry. `to` names the URL for the failure text ("the failing URL").
 */
export const verifyLoggedOnce = sharedVerifier(
  '6/a-no-retry',
  function verifyLoggedOnce(verify: Verify, requirement: string, log: ControlDelivery[], to: string): void {
    verify.on('6/a-no-retry').soft.that(requirement, log.length >= 1 && log.every((d) => d.attempts.length === 1), {
      expected: `each delivery to ${to}: 1 attempt`,
      actual: log.map((d) => `${d.type} (${d.model}): ${d.attempts.length} attempts, ${d.state}`).join('; ') || 'no delivery logged',
    });
  },
);

/**
 * §6 model B: a delivery that was not answered 2xx is attempted again with the same delivery id;
 * soft, on 6/b-retry-every-non-2xx and 6/b-same-delivery-id. `attempts` are the receiver's
 * deliveries carrying `deliveryId`.
 */
export const verifyRetried = sharedVerifier(
  ['6/b-retry-every-non-2xx', '6/b-same-delivery-id'],
  function verifyRetried(verify: Verify, requirement: string, attempts: ReceivedRequest[], deliveryId: string): void {
    verify.on(['6/b-retry-every-non-2xx', '6/b-same-delivery-id']).soft.that(requirement, attempts.length >= 2, {
      expected: `2 or more attempts with delivery id ${deliveryId}`,
      actual: `${attempts.length} attempt(s): ${attemptWords(attempts)}`,
    });
  },
);

/**
 * §6 Model B rules 1–2, the judgment every signature check shares: X-Service-Signature is
 * `sha256=<hex>`, the HMAC-SHA256 of the raw body bytes keyed by the client server secret. A suite
 * records it on the clause it proves (6/b-signature, 6/b-host-independent):
 * `checks.that(requirement, j.ok, j)`. The failure says why it did not verify and how the header
 * starts (14 characters), never the secret.
 * @returns `ok`, with `expected` and `actual` words for the record
 */
export function modelBSigned(r: ReceivedRequest, secret: string): { ok: boolean; expected: string; actual: string } {
  const v = verifyModelB(r.body, r.headers, secret);
  const sig = getHeader(r.headers, HEADER_SIGNATURE);
  return {
    ok: v.ok,
    expected: 'sha256= followed by the 64-digit hex HMAC of the bytes received',
    actual: v.ok ? 'verified' : `${v.reason}: ${v.message} (header starts ${JSON.stringify(sig?.slice(0, 14) ?? null)})`,
  };
}
