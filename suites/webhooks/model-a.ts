/**
 * §6 model A, the shared-secret header: voice, tool and messaging events carry the client server
 * secret verbatim and the fields §6 names (call_id, the end-of-call report's fields,
 * conversation_id, channel, customer_identifier); a non-2xx answer or a down endpoint loses the
 * event (one attempt, no retry) while the call stays readable; an empty or overriding answer to
 * assistant-request lets the call proceed.
 *
 * How these tests reach a receiver, make events happen and stay isolated on each target:
 * suites/webhooks/fixture.ts.
 */
import { describe } from 'vitest';
import { clauseTest, skipWith, type Verify } from '../../helpers/checks/clause';
import { verifyLoggedOnce, verifyModelADelivery, verifyModelASecret, verifyTypeField } from '../../helpers/webhooks/verifiers';
import { verifyNoRetry } from '../../helpers/webhooks/watch';
import { downEndpoint, isRefusing, jsonOf, type ReceivedRequest } from '../../helpers/webhooks/receiver';
import { type ControlSteps, type WebhookFixture, NEEDS, REACH, aboutCall, typeOf, testNumber } from './fixture';
import { toolFixture } from '../../helpers/world/fixtures';

/** The suite's tool a call's assistant invokes (§4.5 tool instruction: title, description, steps). */
const TOOL_INSTRUCTION = {
  title: 'Order lookup',
  description: 'Look up an order by its number.',
  steps: [{ title: 'Ask', description: 'Ask for the order number.' }],
};

/** Registers this concern's tests on the webhook file's fixture (suites/webhooks.test.ts: one receiver per run). */
export function modelATests(wh: WebhookFixture): void {
  const { world, arrival, hook, beginCall, finishCall, hookedAssistant, needSecret, assistant } = wh;

  describe.concurrent('model A: shared-secret header', () => {
    clauseTest(
      ['6/a-secret-header', '6/events-post-json', '6/type-field', '6/voice-call-id', '6/a-end-of-call-fields', '2.3/path-kept', verifyModelADelivery],
      'voice events carry the client server secret verbatim, call_id, and the end-of-call report its fields',
      async (ctx) => {
        needSecret(ctx);
        const { a, seen: path } = await hookedAssistant('a-voice', '/a-voice');
        for (const supervisorAnswered of [true, false]) {
          const call = await beginCall(a.id);
          const [req] = await arrival(
            ctx.verify.on(['6/voice-call-id', '2.3/path-kept']),
            `assistant-request of call ${call.id} reaches the assistant's serverUrl, path kept`,
            (all) => all.filter((r) => r.path === path && aboutCall(r, call)),
            {
              expected: `a POST to ${path}`,
              wrong: (all) => {
                const elsewhere = all.find((r) => r.path !== path && aboutCall(r, call));
                return elsewhere && `delivered to ${elsewhere.path}`;
              },
            },
          );
          verifyVoiceAssistantRequest(ctx.verify, req, wh.secret(), call.id);
          const answered = await finishCall(call, supervisorAnswered);
          const [eoc] = await arrival(
            ctx.verify.on('6/a-end-of-call-fields'),
            `the end-of-call report of call ${call.id} reaches the assistant's serverUrl`,
            (all) => all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > req.seq),
          );
          verifyVoiceEndOfCall(ctx.verify, eoc, wh.secret(), { answered, customerNumber: call.customerNumber });
        }
      },
      REACH,
    );

    clauseTest(
      ['6/a-no-retry', '6/missed-calls-readable'],
      'a non-2xx answer or a down endpoint loses a model A event: exactly one attempt, no retry',
      async (ctx) => {
        const { verify } = ctx;
        const { control, tenantUrl, startCall, deliveriesTo } = wh.withControl(ctx);
        const w = world();
        // Tenant A answers 500; tenant B's URL is a port nothing listens on. Both run at once.
        const path = '/t/a-500';
        const urlA = await tenantUrl(path);
        wh.rx.route(path, () => 500);
        const down = await downEndpoint();
        const urlB = `${down.origin}/t/a-down`;
        await control.tenantServerUrl(w.tenantB.id, urlB);
        const [aA, aB] = await Promise.all([assistant('a-500'), assistant('a-down', {}, 'tenantB')]);
        const [callA, callB] = await Promise.all([startCall(aA.id, testNumber()), startCall(aB.id, testNumber(), 'tenantB')]);
        await arrival(verify.on('6/a-no-retry'), 'the first attempt reaches the receiver', (all) => all.filter((r) => r.path === path && aboutCall(r, callA)));
        const refusing = await isRefusing(down.port);
        verify
          .on('6/a-no-retry')
          .inform(
            'the down endpoint really refuses connections (precondition)',
            refusing,
            refusing ? 'connection refused' : 'something answers on that port: the "down endpoint" half proves less',
          );

        await verifyLostOnce(wh, verify, deliveriesTo, { path, callA, urlA, urlB });

        // §6: calls missed by a webhook remain readable through the calls API.
        await control.endCall(callB.id, { supervisorAnswered: false });
        const read = await w.as('tenantB').get(`/calls/${callB.id}`);
        verify.on('6/missed-calls-readable').success(read, 200, 'the call whose events were lost is readable with GET /calls/{id}');
        await control.endCall(callA.id, {});
      },
      NEEDS,
    );

    clauseTest(
      '6/a-empty-2xx',
      'an empty 2xx answer to assistant-request is safe: the call proceeds to its end-of-call report',
      async ({ verify }) => {
        const { a, seen: path } = await hookedAssistant('a-empty', '/a-empty');
        wh.rx.route(path, (_r, n) => (n === 0 ? 204 : 200));
        const call = await beginCall(a.id);
        const [req] = await arrival(verify, 'assistant-request arrives', (all) => all.filter((r) => r.path === path && aboutCall(r, call)));
        const live = await world().as('tenantA').get('/calls/live');
        verify.success(live, 200, 'GET /calls/live answers');
        verify.contains('the call is live after an empty 2xx to its assistant-request', JSON.stringify(live.json?.data ?? null), call.id, live, { text: true });
        await finishCall(call);
        await arrival(verify, 'the call reaches its end-of-call report', (all) => all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > req.seq));
      },
      REACH,
    );

    clauseTest(
      '6/a-overrides-accepted',
      'an assistant-request answered with per-call overrides is accepted and the call proceeds',
      async ({ verify }) => {
        const { a, seen: path } = await hookedAssistant('a-overrides', '/a-overrides');
        // Keys §6 names; values are not shown, so harmless ones are chosen.
        wh.rx.route(path, (_r, n) =>
          n === 0 ? { status: 200, body: { overrides: { maxSessionDuration: 600, model: { settings: { temperature: 0.2 } } } } } : 200,
        );
        const call = await beginCall(a.id);
        const [req] = await arrival(verify, 'assistant-request arrives', (all) => all.filter((r) => r.path === path && aboutCall(r, call)));
        const sim = wh.ifControl();
        if (sim) {
          const log = (await sim.control.deliveries(world().tenantA.id)).filter((d) => d.url === hook('/a-overrides').url);
          const first = log.find((d) => d.attempts.length > 0);
          verify.inform('the deliveries log marks the answered assistant-request delivered', first?.state === 'delivered', `state ${first?.state}`);
        }
        const live = await world().as('tenantA').get('/calls/live');
        verify.contains('the call is live after overrides were answered', live.status === 200 ? JSON.stringify(live.json?.data ?? null) : '', call.id, live, {
          text: true,
        });
        await finishCall(call);
        await arrival(verify, 'the call reaches its end-of-call report', (all) => all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > req.seq));
      },
      REACH,
    );

    clauseTest(
      ['6/tool-invocation-event', '6/voice-call-id', verifyModelADelivery],
      "a tool invocation in a call delivers a model A event carrying the call's call_id",
      async (ctx) => {
        needSecret(ctx);
        // On a live tenant the trigger makes the assistant invoke the tool (docs/event-trigger.md `tool-invocation`).
        const events = wh.needEvents(ctx);
        const w = world();
        // The POST /tools request body is not shown (§4.5): named fields only; live, a fixture found by name or made once.
        const tool = await toolFixture(w, w.as('tenantA'), 'webhooks-tool', { instruction: TOOL_INSTRUCTION, textInstructions: null }).catch((e: Error) =>
          skipWith(ctx, `fixture: no tool could be made (${e.message.slice(0, 160)}); the POST /tools request body is not shown (§4.5)`),
        );
        const { a, seen: path } = await hookedAssistant('a-tool', '/a-tool');
        const linked = await w.as('tenantA').patch(`/assistants/${a.id}`, { toolIds: [tool.id] });
        if (linked.status !== 200) throw new Error(`precondition: PATCH /assistants/{id} toolIds answered ${linked.status} ${linked.text.slice(0, 200)}`);
        const call = await beginCall(a.id);
        const [start] = await arrival(ctx.verify.on('6/voice-call-id'), 'assistant-request arrives', (all) =>
          all.filter((r) => r.path === path && aboutCall(r, call)),
        );
        await events.toolInvocation(w.tenantA.id, call, tool.id);
        const [ev] = await arrival(ctx.verify.on('6/tool-invocation-event'), 'the tool invocation event arrives for the call', (all) =>
          all.filter((r) => r.path === path && aboutCall(r, call) && r.seq > start.seq),
        );
        verifyModelADelivery(ctx.verify, ev, wh.secret(), 'tool invocation');
        ctx.verify.schema('the tool invocation carries type and call_id', 'events/tool-invocation', jsonOf(ev));
        ctx.verify
          .on('6/tool-invocation-event')
          .inform('the event names the tool', JSON.stringify(jsonOf(ev)).includes(tool.id), `type ${JSON.stringify(typeOf(ev))}`);
        await finishCall(call);
      },
      REACH,
    );

    clauseTest(
      ['6/messaging-fields', '6/a-secret-header', '6/type-field', verifyModelADelivery],
      'messaging events carry conversation_id, channel and customer_identifier, under model A',
      async (ctx) => {
        needSecret(ctx);
        const events = wh.needEvents(ctx);
        const { a, seen: path } = await hookedAssistant('a-messaging', '/a-messaging');
        for (const channel of ['web', 'sms'] as const) {
          const conv = await events.startConversation(world().tenantA.id, a.id, channel);
          const customerIdentifier = conv.customerIdentifier;
          const about = (r: ReceivedRequest) => jsonOf(r)?.conversation_id === conv.id;
          const [start] = await arrival(
            ctx.verify.on('6/messaging-fields'),
            `the ${channel} conversation's assistant-request arrives carrying its conversation_id`,
            (all) => all.filter((r) => r.path === path && about(r)),
          );
          verifyMessagingStart(ctx.verify, start, wh.secret(), channel, customerIdentifier);
          await events.endConversation(world().tenantA.id, conv.id);
          const [end] = await arrival(ctx.verify.on('6/messaging-fields'), `the ${channel} conversation's end-of-conversation report arrives`, (all) =>
            all.filter((r) => r.path === path && about(r) && r.seq > start.seq),
          );
          verifyModelASecret(ctx.verify, end, wh.secret(), `${channel} end-of-conversation-report`);
          verifyTypeField(ctx.verify, end, `${channel} end-of-conversation-report`);
          ctx.verify
            .on('6/messaging-fields')
            .schema(`${channel} end-of-conversation-report carries the messaging fields`, 'events/end-of-conversation-report', jsonOf(end));
        }
      },
      REACH,
    );
  });
}

/**
 * §6 model A, a voice call's assistant-request: a JSON POST with the client server secret, the
 * assistant-request schema, `type` "assistant-request", and `call_id` the call's id (informational).
 */
function verifyVoiceAssistantRequest(verify: Verify, req: ReceivedRequest, secret: string, callId: string): void {
  verifyModelADelivery(verify, req, secret, 'assistant-request');
  verify.on('6/voice-call-id').schema('assistant-request carries call_id', 'events/assistant-request', jsonOf(req));
  verify
    .on('6/type-field')
    .inform('assistant-request carries type "assistant-request"', typeOf(req) === 'assistant-request', `type ${JSON.stringify(typeOf(req))}`);
  verify
    .on('6/voice-call-id')
    .inform(
      'call_id is the call id (not the support correlation callId)',
      jsonOf(req).call_id === callId,
      `call_id ${JSON.stringify(jsonOf(req).call_id)}; call id ${callId}`,
    );
}

/**
 * §6 model A, a voice call's end-of-call report: a JSON POST with the client server secret and the
 * end-of-call-report schema; `supervisor_answered` and `customer_number` match the call where the
 * event source says what they were (informational).
 */
function verifyVoiceEndOfCall(verify: Verify, eoc: ReceivedRequest, secret: string, call: { answered?: boolean; customerNumber?: string }): void {
  const body = verifyModelADelivery(verify, eoc, secret, 'end-of-call-report');
  verify
    .on(['6/a-end-of-call-fields', '6/voice-call-id'])
    .schema('end-of-call-report carries call_id, customer_number and a boolean supervisor_answered', 'events/end-of-call-report', body);
  if (call.answered !== undefined)
    verify
      .on('6/a-end-of-call-fields')
      .inform(
        `supervisor_answered reflects the call (${call.answered})`,
        body?.supervisor_answered === call.answered,
        `supervisor_answered ${JSON.stringify(body?.supervisor_answered)}`,
      );
  if (call.customerNumber)
    verify
      .on('6/a-end-of-call-fields')
      .inform(
        'customer_number is the caller number',
        body?.customer_number === call.customerNumber,
        `customer_number ${JSON.stringify(body?.customer_number)}`,
      );
}

/**
 * §6 model A loses an event it could not deliver: after the 500 answer at `path` (tenant A's call
 * `callA`) nothing more arrives for longer than a whole model B retry schedule, and the deliveries
 * log shows one attempt at `urlA` and one at the down endpoint `urlB` (tenant B), each failed
 * (informational). Soft checks under `6/a-no-retry`.
 */
async function verifyLostOnce(
  wh: WebhookFixture,
  verify: Verify,
  deliveriesTo: ControlSteps['deliveriesTo'],
  { path, callA, urlA, urlB }: { path: string; callA: { id: string }; urlA: string; urlB: string },
): Promise<void> {
  // Nothing more may arrive for longer than a whole model B retry schedule would take.
  const noRetry = verify.on('6/a-no-retry').soft;
  await verifyNoRetry(
    noRetry,
    wh.rx,
    'after a 500 answer the model A event is not retried',
    (all) => all.filter((r) => r.path === path && aboutCall(r, callA)),
    wh.noRetryWindowMs(),
  );
  const logA = await deliveriesTo(urlA);
  const logB = await deliveriesTo(urlB, 'tenantB');
  verifyLoggedOnce(verify, 'the deliveries log shows one attempt for the 500-answered event', logA, 'the failing URL');
  verifyLoggedOnce(verify, 'the deliveries log shows one attempt for the event sent to a down endpoint', logB, 'the down URL');
  verify.on('6/a-no-retry').inform(
    'the lost deliveries are logged as failed',
    [...logA, ...logB].every((d) => d.state === 'failed'),
    [...logA, ...logB].map((d) => d.state).join(', '),
  );
}

/**
 * §6 model A, a conversation's assistant-request on `channel`: the delivery under model A, the
 * messaging schema (conversation_id, channel, customer_identifier), and, informational, the
 * customer_identifier the conversation started with (when the event source gave one) and the channel named.
 */
function verifyMessagingStart(verify: Verify, start: ReceivedRequest, secret: string, channel: 'web' | 'sms', customerIdentifier: string | undefined): void {
  verifyModelADelivery(verify, start, secret, `${channel} assistant-request`);
  verify
    .on('6/messaging-fields')
    .schema(`${channel} assistant-request carries conversation_id, channel, customer_identifier`, 'events/assistant-request.messaging', jsonOf(start));
  if (customerIdentifier)
    verify
      .on('6/messaging-fields')
      .inform(
        `customer_identifier is the one the conversation started with (${channel})`,
        jsonOf(start)?.customer_identifier === customerIdentifier,
        `customer_identifier ${JSON.stringify(jsonOf(start)?.customer_identifier)}`,
      );
  verify
    .on('6/messaging-fields')
    .inform(
      `channel names the ${channel} channel`,
      String(jsonOf(start)?.channel).toLowerCase().includes(channel),
      `channel ${JSON.stringify(jsonOf(start)?.channel)}`,
    );
}
