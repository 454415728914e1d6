/**
 * §6 model B, the HMAC signature: onboarding events are signed over the raw bytes with the client
 * server secret (a re-serialised body no longer verifies), carry a UUID delivery id each, and the
 * signature verifies whatever host name the delivery came through (a tunnel).
 *
 * How these tests reach a receiver, make events happen and stay isolated on each target:
 * suites/webhooks/fixture.ts.
 */
import { describe } from 'vitest';
import { clauseTest, type Verify } from '../../helpers/checks/clause';
import { modelBSigned, verifyPostJson, verifySignedOverRawBytes, verifyTypeField } from '../../helpers/webhooks/verifiers';
import { jsonOf, type ReceivedRequest } from '../../helpers/webhooks/receiver';
import { deliveryIdOf, getHeader, HEADER_SIGNATURE, UUID_PATTERN } from '../../helpers/webhooks/verify';
import { type WebhookFixture, REACH, typeOf } from './fixture';

/** Registers this concern's tests on the webhook file's fixture (suites/webhooks.test.ts: one receiver per run). */
export function modelBTests(wh: WebhookFixture): void {
  const { world, arrival, hook, onboardingAt, onboardingTo, needSecret } = wh;

  /** The onboarding event types of §6, all delivered under model B. */
  const ONBOARDING_TYPES = ['chatapp.onboarding.tier_pending', 'chatapp.onboarding.completed', 'chatapp.onboarding.failed', 'chatapp.calling.live'];

  describe.concurrent('model B: HMAC signature', () => {
    clauseTest(
      [
        '6/b-signature',
        '6/b-delivery-id-uuid',
        '6/b-raw-bytes',
        '6/onboarding-events',
        '6/events-post-json',
        '6/type-field',
        '6/delivery-model-per-event',
        '6/b-dedupe',
        verifyPostJson,
        verifyTypeField,
        verifySignedOverRawBytes,
      ],
      'onboarding events are signed over the raw bytes with the client server secret and carry a UUID delivery id',
      async (ctx) => {
        const secret = needSecret(ctx);
        const events = wh.needEvents(ctx);
        const { deliverTo, seen: path } = await onboardingTo('/b-signed');
        for (const type of ONBOARDING_TYPES) await events.onboarding(world().tenantA.id, type, deliverTo);
        const got = await arrival(ctx.verify.on('6/onboarding-events'), 'all four onboarding events arrive', () => {
          const mine = onboardingAt(path);
          return ONBOARDING_TYPES.every((t) => mine.some((r) => typeOf(r) === t)) && mine;
        });
        const ids = new Set<string>();
        for (const type of ONBOARDING_TYPES) {
          // The arrival wait ended only once every type came (it throws otherwise).
          const r = got.find((x) => typeOf(x) === type);
          if (!r) continue;
          const id = verifySignedOnboarding(ctx.verify, r, secret, type);
          if (id) ids.add(id);
        }
        ctx.verify
          .on('6/b-dedupe')
          .soft.equal('distinct events carry distinct delivery ids (otherwise deduplication would drop events)', ids.size, ONBOARDING_TYPES.length);
      },
      REACH,
    );

    clauseTest(
      '6/b-host-independent',
      'the signature verifies when the delivery reaches the receiver through another host name (a tunnel)',
      async (ctx) => {
        needSecret(ctx);
        const events = wh.needEvents(ctx);
        // A simulator routes this file's tunnel host name to the receiver; a live target reaches it through the operator's real tunnel.
        let deliverTo: string;
        let path: string;
        const sim = wh.ifControl();
        if (sim) {
          path = '/t/b-tunnel';
          deliverTo = `https://${wh.hosts.tunnel}${path}`;
          await sim.routeHosts();
          await sim.control.tenantServerUrl(world().tenantA.id, deliverTo);
        } else ({ url: deliverTo, seen: path } = hook('/b-tunnel'));
        await events.onboarding(world().tenantA.id, 'chatapp.calling.live', deliverTo);
        const [r] = await arrival(ctx.verify, 'the event arrives through the tunnel host', () => onboardingAt(path));
        const signed = modelBSigned(r, wh.secret());
        ctx.verify.that('the signature verifies on a receiver whose own address differs from the URL the sender used', signed.ok, signed);
      },
      REACH,
    );
  });
}

/**
 * §6 model B, one onboarding event `r` of type `type`: a JSON POST with its `type` field and the
 * onboarding schema; X-Service-Signature the HMAC-SHA256 of the raw body keyed by `secret` (lower-case
 * hex informational), X-Service-Delivery a UUID, and a re-serialised body no longer verifying.
 * Returns the delivery id, when the event carried one.
 */
function verifySignedOnboarding(verify: Verify, r: ReceivedRequest, secret: string, type: string): string | undefined {
  verifyPostJson(verify, r, type);
  verifyTypeField(verify, r, type);
  verify.on('6/onboarding-events').soft.schema(`${type} body`, 'events/chatapp-onboarding', jsonOf(r));
  const sig = getHeader(r.headers, HEADER_SIGNATURE);
  const signed = modelBSigned(r, secret);
  verify
    .on(['6/b-signature', '6/delivery-model-per-event'])
    .soft.that(`${type} (model B): X-Service-Signature is sha256=<hex> HMAC-SHA256 of the raw body keyed by the client server secret`, signed.ok, signed);
  const upper = !!sig && /[A-F]/.test(sig.slice(7));
  verify
    .on('6/b-signature')
    .inform(
      `${type}: the hex digest is lower case`,
      !upper,
      upper
        ? 'upper-case hex digits: accepted (hex case carries no meaning), but receivers comparing strings literally would refuse them'
        : 'lower-case hex digits',
    );
  const id = deliveryIdOf(r.headers);
  verify
    .on('6/b-delivery-id-uuid')
    .soft.that(`${type}: X-Service-Delivery is a UUID`, !!id && UUID_PATTERN.test(id), { expected: 'a UUID', actual: id ?? '(absent)' });
  // Re-serialising or reformatting the body must invalidate the signature (rule 2).
  verifySignedOverRawBytes(verify, r, secret, type);
  return id;
}
