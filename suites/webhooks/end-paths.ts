/**
 * §6 (and §1): "end-of-call-report — a voice call ends". Every path that ends a connected call
 * reaches the same event: the caller hanging up (the event source's end: the control API on a
 * simulator, the operator's trigger on a live tenant) and a supervisor's `POST /calls/{id}/end`
 * (§4.5). A server that emits the report from its hang-up path only would pass every test that
 * ends calls one way. Likewise "each finished thread delivers an end-of-conversation report" (§1)
 * for every channel: web chat, SMS and the messaging app.
 *
 * Every call and conversation here is one the suite started through its event source, and
 * `POST /calls/{id}/end` is sent only on such a call (docs/event-trigger.md, "Safety"); on a live
 * tenant the trigger is then still asked to end it, which it does quietly. Deliveries reach the
 * file's receiver through a fixture assistant's serverUrl (§6: messaging events too), so these
 * tests live in the webhook file: on a live tenant the public URL forwards to one port. They run
 * one after the other, after the file's concurrent blocks: the retry schedule test, which judges
 * timing, runs in those, and these add no work to its window.
 *
 * How these tests reach a receiver, make events happen and stay isolated on each target:
 * suites/webhooks/fixture.ts.
 */
import { describe } from 'vitest';
import { clauseTest, type Verify } from '../../helpers/checks/clause';
import { jsonOf, type ReceivedRequest } from '../../helpers/webhooks/receiver';
import type { StartedCall } from '../../helpers/target/events';
import { type WebhookFixture, REACH, aboutCall, typeOf } from './fixture';

/** Registers this concern's tests on the webhook file's fixture (suites/webhooks.test.ts: one receiver per run). */
export function endPathTests(wh: WebhookFixture): void {
  const { world, arrival, beginCall, finishCall, hookedAssistant } = wh;

  /** The ways a connected call ends: each must reach the end-of-call report. */
  const PATHS: { name: string; slug: string; end: (call: StartedCall, verify: Verify) => Promise<void> }[] = [
    {
      name: 'the caller hangs up',
      slug: 'hang-up',
      end: async (call) => {
        await finishCall(call, false);
      },
    },
    {
      name: 'a supervisor ends it with POST /calls/{id}/end',
      slug: 'end-route',
      end: async (call, verify) => {
        const res = await world().as('tenantA').post(`/calls/${call.id}/end`, { actorLabel: 'conformance supervisor' }, { retry: false });
        verify.success(res, undefined, 'POST /calls/{id}/end on a live call the suite started answers 2xx');
        // The event source is still told, so the call is known ended on its side (a trigger answers quietly).
        await finishCall(call, false).catch(() => undefined);
      },
    },
  ];

  describe('§6 end-of-call-report: every way a call ends', () => {
    for (const p of PATHS) {
      clauseTest(
        '6/end-of-call-every-end',
        `a connected call gets its end-of-call report when ${p.name}`,
        async ({ verify }) => {
          const { a, seen } = await hookedAssistant(`end-path-${p.slug}`, `/end-path-${p.slug}`);
          const call = await beginCall(a.id);
          await p.end(call, verify);
          await arrival(
            verify,
            `the end-of-call report arrives when ${p.name}`,
            (all) => all.filter((r) => r.path === seen && aboutCall(r, call) && typeOf(r) === 'end-of-call-report'),
            { expected: `an end-of-call-report with call_id ${call.id} at ${seen}` },
          );
        },
        REACH,
      );
    }
  });

  describe('§1 / §6 end-of-conversation-report: each finished thread, every channel', () => {
    for (const channel of ['web', 'sms', 'chatapp'] as const) {
      clauseTest(
        '6/end-of-conversation-every-channel',
        `a finished ${channel} thread delivers its end-of-conversation report`,
        async (ctx) => {
          const { verify } = ctx;
          const events = wh.needEvents(ctx);
          const { a, seen } = await hookedAssistant(`end-path-${channel}`, `/end-path-${channel}`);
          const tenantId = world().tenantA.id;
          const conv = await events.startConversation(tenantId, a.id, channel);
          await events.endConversation(tenantId, conv.id);
          const report = (r: ReceivedRequest) => r.path === seen && jsonOf(r)?.conversation_id === conv.id && typeOf(r) === 'end-of-conversation-report';
          await arrival(verify, `the end-of-conversation report of the ${channel} thread arrives`, (all) => all.filter(report), {
            expected: `an end-of-conversation-report with conversation_id ${conv.id} at ${seen}`,
          });
        },
        REACH,
      );
    }
  });
}
