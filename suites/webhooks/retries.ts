/**
 * §6 retries: a model B event not answered 2xx (every non-2xx status, a timeout, a refused
 * connection) is retried with the same delivery id, up to 5 times with exponential backoff, and a
 * receiver deduplicating on that id processes it once; a model A event is never retried (4xx,
 * 429 included, or left unanswered past the sender's timeout), and its call stays readable.
 *
 * The tests keep the describe names they had before the webhook suite was split by concern, so
 * run records compare test by test.
 *
 * How these tests reach a receiver, make events happen and stay isolated on each target:
 * suites/webhooks/fixture.ts.
 */
import { describe } from 'vitest';
import { clauseTest, skipWith, type ClauseContext, type Verify } from '../../helpers/checks/clause';
import { backoffSpoilt, modelBSigned, verifyBackoff, verifyRetried, verifyRetryCount, verifySameEvent } from '../../helpers/webhooks/verifiers';
import { attemptWords, verifyLoggedRetry, verifyNoRetry } from '../../helpers/webhooks/watch';
import { downEndpoint, isRefusing, type ReceivedRequest } from '../../helpers/webhooks/receiver';
import { deliveryIdOf } from '../../helpers/webhooks/verify';
import { Deduper } from '../../helpers/webhooks/dedupe';
import { atLeastAttempts, eachEventAttempted, slowAnswerTaken } from '../../helpers/webhooks/waits';
import { type ControlSteps, type WebhookFixture, REACH, RETRIES, LIVE_SLOW_ANSWER_MS, aboutCall, isOnboarding } from './fixture';

/** The non-2xx answers §6 model B retries after, each given once to the first attempt of one event. */
const NON_2XX = [400, 401, 404, 409, 429, 503];

/** Registers this concern's tests on the webhook file's fixture (suites/webhooks.test.ts: one receiver per run). */
export function retryTests(wh: WebhookFixture): void {
  const { world, arrival, onboardingAt, beginCall, finishCall, hookedAssistant, onboardingTo, needSecret } = wh;

  describe.concurrent('model B: HMAC signature', () => {
    clauseTest(
      ['6/b-dedupe', '6/b-retry-on-failure'],
      'a receiver that deduplicates on the delivery id processes a retried event once',
      async (ctx) => {
        const { verify } = ctx;
        const events = wh.needEvents(ctx);
        const { deliverTo, seen: path } = await onboardingTo('/b-dedupe');
        const dedupe = new Deduper();
        let processed = 0;
        // The integrator's handler: claim the id, process; it fails (500) on the first two tries after
        // processing, as a crash after the work would. (A real receiver verifies first; signatures are
        // proved by the other model B tests, so a signing fault does not blur this verdict.)
        let n = 0;
        wh.rx.route(path, (r) => {
          if (!isOnboarding(r)) return 200;
          const id = deliveryIdOf(r.headers);
          if (id && dedupe.claim(id) === 'process') processed += 1;
          return n++ < 2 ? 500 : 200;
        });
        await events.onboarding(world().tenantA.id, 'chatapp.onboarding.tier_pending', deliverTo);
        const got = await arrival(
          verify.on('6/b-retry-on-failure'),
          'the event is retried after two 500 answers',
          atLeastAttempts(3, () => onboardingAt(path)),
          { timeoutMs: wh.retryWaitMs(3) },
        );
        verify
          .on('6/b-retry-on-failure')
          .that('two 500 answers were each followed by a retry', got.length >= 3 && got[0].answeredStatus === 500 && got[1].answeredStatus === 500, {
            expected: '500, 500, then a third attempt',
            actual: attemptWords(got),
          });
        verify.on('6/b-dedupe').soft.that('the event was processed exactly once over all attempts', processed === 1, {
          expected: 1,
          actual: `${processed} times over ${got.length} attempts with delivery ids ${got.map((r) => deliveryIdOf(r.headers)).join(', ')}`,
        });
      },
      RETRIES,
    );

    clauseTest(
      ['6/b-retry-on-failure', '6/b-same-delivery-id'],
      'a model B attempt that times out is retried with the same delivery id',
      async (ctx) => {
        const verify = ctx.verify.on('6/b-retry-on-failure');
        const { deliverTo, seen: path } = await onboardingTo('/b-timeout');
        // Hold the first attempt past the target's attempt timeout (a simulator's, read from its config; a live
        // target's is not shown, §6, so past any plausible one), then answer 200 to it and to the rest.
        const hold = wh.ifControl() ? wh.timeoutMs + 1_500 : LIVE_SLOW_ANSWER_MS;
        let n = 0;
        wh.rx.route(path, (r) => (isOnboarding(r) && n++ === 0 ? { hang: true, holdMs: hold } : 200));
        await wh.needEvents(ctx).onboarding(world().tenantA.id, 'chatapp.onboarding.failed', deliverTo);
        // A live target that waited the whole hold got the slow 200: no timeout happened, so no retry is due.
        if (!wh.ifControl() && (await slowAnswerTaken(wh.rx, () => onboardingAt(path), hold + wh.arrivalMs)))
          skipWith(
            ctx,
            `precondition failed: the target waited the whole ${hold / 1000} s for the first attempt's answer and got 200, so no attempt timed out (its attempt timeout is not shown, §6)`,
          );
        const got = await arrival(
          verify,
          'a second attempt follows the unanswered first one',
          atLeastAttempts(2, () => onboardingAt(path)),
          { timeoutMs: wh.ifControl() ? wh.timeoutMs + wh.retryWaitMs(2) : wh.retryWaitMs(1) },
        );
        verify.that('the unanswered first attempt was followed by a retry', got.length >= 2 && got[0].answeredStatus === undefined, {
          expected: 'attempt 1 unanswered (held past the timeout), then attempt 2',
          actual: attemptWords(got),
        });
        ctx.verify
          .on('6/b-same-delivery-id')
          .equal('the retry after a timeout reuses the delivery id', deliveryIdOf(got[1].headers), deliveryIdOf(got[0].headers));
      },
      { ...RETRIES, timeout: RETRIES.timeout + LIVE_SLOW_ANSWER_MS },
    );

    clauseTest(
      ['6/b-retry-every-non-2xx', '6/b-same-delivery-id'],
      'every non-2xx answer (400, 401, 404, 409, 429, 503) and a refused connection are retried, with the same delivery id',
      async (ctx) => {
        const { verify } = ctx;
        const events = wh.needEvents(ctx);
        const sim = wh.ifControl();
        const w = world();
        const { deliverTo, seen: path } = await onboardingTo('/b-every-non-2xx');
        // The first attempt of each event is answered with its own status, every later one with 200.
        const statusOf = answerFirstWith(wh, path, NON_2XX);
        // On a simulator, tenant B's URL is a port nothing listens on: a refused connection, seen in the
        // deliveries log (a live target's log is not readable, so there only the statuses are proved).
        const down = sim ? await downEndpoint() : undefined;
        const downUrl = down ? `${down.origin}/t/b-refused` : '';
        if (sim) await sim.control.tenantServerUrl(w.tenantB.id, downUrl);
        for (const _status of NON_2XX) await events.onboarding(w.tenantA.id, 'chatapp.onboarding.tier_pending', deliverTo);
        const refused = sim ? await sim.control.onboardingEvent({ tenantId: w.tenantB.id, type: 'chatapp.onboarding.tier_pending' }) : undefined;
        const got = await arrival(
          verify.on('6/b-retry-every-non-2xx'),
          'each event is attempted again after its non-2xx answer',
          eachEventAttempted(NON_2XX.length, 2, () => onboardingAt(path)),
          { timeoutMs: wh.retryWaitMs(2) },
        );
        for (const [id, status] of statusOf) {
          if (status === 200) continue;
          const attempts = got.filter((r) => deliveryIdOf(r.headers) === id);
          verifyRetried(verify, `after a ${status} answer the event is sent again with the same delivery id`, attempts, id);
        }
        if (!sim || !down || !refused) return;
        await verifyRefusedRetried(wh, verify, sim, down, downUrl, refused.deliveryId);
        await sim.control.tenantServerUrl(w.tenantB.id, null);
      },
      RETRIES,
    );

    clauseTest(
      ['6/a-no-retry', '6/missed-calls-readable'],
      'a model A event answered 4xx (429 included) is not retried; the call whose events were lost stays readable',
      async ({ verify }) => {
        const { a, seen: path } = await hookedAssistant('a-429', '/a-4xx');
        wh.rx.route(path, () => 429);
        const call = await beginCall(a.id);
        await arrival(verify.on('6/a-no-retry'), 'the first attempt reaches the receiver', (all) => all.filter((r) => r.path === path && aboutCall(r, call)));
        await verifyNoRetry(
          verify,
          wh.rx,
          'after a 429 answer the model A event is not retried',
          (all) => all.filter((r) => r.path === path && aboutCall(r, call)),
          wh.noRetryWindowMs(),
        );
        await finishCall(call);
        // §6: calls missed by a webhook remain readable through the calls API.
        verify
          .on('6/missed-calls-readable')
          .success(await world().as('tenantA').get(`/calls/${call.id}`), 200, 'the call whose events were all answered 429 is readable with GET /calls/{id}');
      },
      REACH,
    );

    clauseTest(
      '6/a-no-retry',
      "a model A event the receiver leaves unanswered past the sender's timeout is not retried",
      async (ctx) => {
        const { verify } = ctx;
        const { a, seen: path } = await hookedAssistant('a-silent', '/a-silent');
        // Silent past the target's attempt timeout: a simulator's, read from its config; a live target's is
        // not shown (§6), so past any plausible one. Only the receiver is needed: this runs live too.
        const hold = wh.ifControl() ? wh.timeoutMs + 1_500 : LIVE_SLOW_ANSWER_MS;
        let n = 0;
        wh.rx.route(path, () => (n++ === 0 ? { hang: true, holdMs: hold } : 200));
        const call = await beginCall(a.id);
        const attempts = (all: ReceivedRequest[]) => all.filter((r) => r.path === path && aboutCall(r, call));
        await arrival(verify, 'the first attempt reaches the receiver', attempts);
        // A live target that waited the whole hold got the slow 200: no timeout happened, so this proves nothing.
        if (!wh.ifControl() && (await slowAnswerTaken(wh.rx, () => attempts(wh.rx.requests), hold + wh.arrivalMs)))
          skipWith(
            ctx,
            `precondition failed: the target waited the whole ${hold / 1000} s for the answer and got 200, so no attempt timed out (its timeout is not shown, §6)`,
          );
        // Watched past the hold on a simulator (its retry would come then); live, the hold is over by now.
        const window = wh.ifControl() ? hold + wh.noRetryWindowMs() : wh.noRetryWindowMs();
        await verifyNoRetry(
          verify,
          wh.rx,
          'after an attempt the receiver left unanswered past the timeout, the model A event is not retried',
          attempts,
          window,
        );
        await finishCall(call);
      },
      { ...REACH, timeout: REACH.timeout + LIVE_SLOW_ANSWER_MS },
    );
  });

  /**
   * The retry schedule is judged by the gaps between attempts, so this test runs on its own within
   * the file (the other webhook tests, concurrent, would add their deliveries to the same moments).
   */
  describe.concurrent('model B: retry schedule', () => {
    clauseTest(
      [
        '6/b-retry-count',
        '6/b-backoff-exponential',
        '6/b-same-delivery-id',
        '6/b-dedupe',
        '6/b-same-bytes',
        '6/b-signature',
        verifyRetryCount,
        verifySameEvent,
        verifyBackoff,
      ],
      'after non-2xx answers a model B event is retried 5 times with exponential backoff, same delivery id, same event',
      async (ctx) => {
        const secret = needSecret(ctx);
        const { deliverTo, deliveryId, attempts } = await readSchedule(wh, ctx);
        verifyRetryCount(ctx.verify, attempts);
        verifySameEvent(ctx.verify, attempts);
        const headerId = deliveryIdOf(attempts[0].headers);
        if (deliveryId) {
          const source = wh.needEvents(ctx).source;
          ctx.verify
            .on('6/b-same-delivery-id')
            .inform(`the delivery id is the one the ${source} returned`, headerId === deliveryId, `header ${headerId}, ${source} ${deliveryId}`);
        }
        verifyBackoff(ctx.verify, attempts, wh.retryBaseMs);

        // Last, so that a signing fault (proved by the signature test) does not hide the retry verdicts.
        attempts.forEach((r, i) => {
          const signed = modelBSigned(r, secret);
          ctx.verify.on('6/b-signature').soft.that(`attempt ${i + 1}: the signature verifies over its raw body`, signed.ok, signed);
        });
        const sim = wh.ifControl();
        if (sim) {
          const log = (await sim.control.deliveries(world().tenantA.id)).find((d) => d.deliveryId === deliveryId);
          ctx.verify
            .on('6/b-retry-count')
            .inform(
              'the deliveries log agrees with the receiver',
              log?.attempts.length === attempts.length && log?.url === deliverTo,
              `log: ${log ? `${log.attempts.length} attempts, ${log.state}` : 'no entry'}; receiver: ${attempts.length}`,
            );
        }
      },
      RETRIES,
    );
  });
}

/** How many fresh events the schedule test may read when the runner's lateness spoilt a reading. */
const SCHEDULE_READINGS = 3;

/**
 * One failing model B event's attempts, every one answered 500: its first attempt awaited (on
 * 6/b-retry-count), then its retries followed. When the runner's own lateness spoilt the reading
 * of the waits (helpers/webhooks/verifiers.ts `backoffSpoilt`), a fresh event on a path of its own
 * is read, up to {@link SCHEDULE_READINGS} in all; the last reading is the one judged.
 */
async function readSchedule(wh: WebhookFixture, ctx: ClauseContext): Promise<{ deliverTo: string; deliveryId?: string; attempts: ReceivedRequest[] }> {
  const { world, arrival, onboardingAt, followRetries, onboardingTo } = wh;
  const events = wh.needEvents(ctx);
  for (let reading = 1; ; reading++) {
    const { deliverTo, seen: path } = await onboardingTo(reading === 1 ? '/b-retry' : `/b-retry-${reading}`);
    wh.rx.route(path, () => 500);
    const { deliveryId } = await events.onboarding(world().tenantA.id, 'chatapp.onboarding.completed', deliverTo);
    await arrival(ctx.verify.on('6/b-retry-count'), 'the first attempt arrives', () => onboardingAt(path));
    const attempts = await followRetries(path);
    if (reading === SCHEDULE_READINGS || !backoffSpoilt(attempts)) return { deliverTo, deliveryId, attempts };
  }
}

/**
 * Routes `path` so that the first attempt of each onboarding event is answered with the next status
 * of `statuses` (200 once they are used up), and every later attempt, and every other request,
 * with 200. Returns the status given to each delivery id, filled as the attempts arrive.
 */
function answerFirstWith(wh: WebhookFixture, path: string, statuses: readonly number[]): Map<string, number> {
  const statusOf = new Map<string, number>();
  wh.rx.route(path, (r) => {
    if (!isOnboarding(r)) return 200;
    const id = deliveryIdOf(r.headers) ?? '';
    if (statusOf.has(id)) return 200;
    const status = statuses[statusOf.size] ?? 200;
    statusOf.set(id, status);
    return status;
  });
  return statusOf;
}

/**
 * §6 model B retries a refused connection: the deliveries log (simulators only) shows delivery
 * `deliveryId`, sent to the down endpoint `down` at `downUrl` (tenant B), attempted again
 * (helpers/webhooks/watch.ts `verifyLoggedRetry`, a soft check).
 * Informs when something answers on that port after all (the precondition fails).
 */
async function verifyRefusedRetried(
  wh: WebhookFixture,
  verify: Verify,
  sim: ControlSteps,
  down: { port: number },
  downUrl: string,
  deliveryId: string,
): Promise<void> {
  const refusing = await isRefusing(down.port);
  if (!refusing)
    verify.on('6/b-retry-every-non-2xx').inform('the down endpoint really refuses connections (precondition)', false, 'something answers on that port');
  const requirement = 'an event whose connection is refused is attempted again (deliveries log)';
  await verifyLoggedRetry(verify.on('6/b-retry-every-non-2xx').soft, requirement, () => sim.deliveriesTo(downUrl, 'tenantB'), deliveryId, wh.retryWaitMs(2));
}
