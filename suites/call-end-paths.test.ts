/**
 * §6 (and §1): "end-of-call-report — a voice call ends". Every path that ends a connected call
 * reaches the same event: the caller hanging up (the control API's end, standing for the
 * telephony side) and a supervisor's `POST /calls/{id}/end` (§4.5). A server that emits the
 * report from its hang-up path only would pass every test that ends calls one way. Likewise
 * "each finished thread delivers an end-of-conversation report" (§1) for every channel: web
 * chat, SMS and the messaging app.
 *
 * Calls can only be started through a control API, and no call may be ended on a live tenant, so
 * the tests need `control` and `destructive`. Deliveries are observed by a loopback receiver
 * (helpers/webhooks/receiver.ts) set as this file's tenant-level server URL, and judged by
 * helpers/webhooks/checks.ts; waits have deadlines.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { useWorld } from '../helpers/world';
import { clauseTest, type Verify } from '../helpers/clause';
import { assistantFixture } from '../helpers/fixtures';
import { hasCapability } from '../helpers/target';
import { WebhookReceiver, jsonOf, type ReceivedRequest } from '../helpers/webhooks/receiver';
import { verifyArrival } from '../helpers/webhooks/checks';

const world = useWorld();
/** How long an expected delivery may take to arrive, ms (generous: shared CPUs). */
const ARRIVAL_MS = 4_000;
const PATH = '/call-end-paths';

let rx: WebhookReceiver | undefined;
let assistant: { id: string };

beforeAll(async () => {
  if (!hasCapability('control')) return;
  const w = world();
  assistant = await assistantFixture(w, w.as('tenantA'), 'call-end-paths');
  rx = await WebhookReceiver.start();
  await w.control!.tenantServerUrl(w.tenantA.id, rx.url(PATH));
  w.cleanup.add('tenant-level server URL of A', () => w.control!.tenantServerUrl(w.tenantA.id, null));
});

afterAll(async () => {
  await rx?.close();
});

/** The ways a connected call ends: each must reach the end-of-call report. */
const PATHS: { name: string; end: (callId: string, verify: Verify) => Promise<void> }[] = [
  {
    name: 'the caller hangs up (control API end)',
    end: async (id) => {
      await world().control!.endCall(id, {});
    },
  },
  {
    name: 'a supervisor ends it with POST /calls/{id}/end',
    end: async (id, verify) => {
      const res = await world().as('tenantA').post(`/calls/${id}/end`, { actorLabel: 'conformance supervisor' }, { retry: false });
      verify.success(res, undefined, 'POST /calls/{id}/end on a live call answers 2xx');
    },
  },
];

describe('§6 end-of-call-report: every way a call ends', () => {
  for (const p of PATHS) {
    clauseTest(
      '6/end-of-call-every-end',
      `a connected call gets its end-of-call report when ${p.name}`,
      async ({ verify }) => {
        const w = world();
        const call = await w.control!.startCall({ tenantId: w.tenantA.id, assistantId: assistant.id });
        w.cleanup.add(`end call ${call.id}`, () => w.control!.endCall(call.id).catch(() => undefined));
        const about = (b: any) => !!b && (b.call_id === call.id || b.call_id === call.callId);
        await p.end(call.id, verify);
        await verifyArrival(
          verify,
          rx!,
          `the end-of-call report arrives when ${p.name}`,
          (all) => all.filter((r) => r.path === PATH && about(jsonOf(r)) && jsonOf(r).type === 'end-of-call-report'),
          {
            timeoutMs: ARRIVAL_MS,
            expected: `an end-of-call-report with call_id ${call.id} within ${ARRIVAL_MS} ms`,
          },
        );
      },
      { requires: ['control', 'destructive'] },
    );
  }
});

describe('§1 / §6 end-of-conversation-report: each finished thread, every channel', () => {
  for (const channel of ['web', 'sms', 'chatapp'] as const) {
    clauseTest(
      '6/end-of-conversation-every-channel',
      `a finished ${channel} thread delivers its end-of-conversation report`,
      async ({ verify }) => {
        const w = world();
        const conv = await w.control!.conversation({
          tenantId: w.tenantA.id,
          assistantId: assistant.id,
          channel,
          customerIdentifier: channel === 'web' ? 'visitor-end-paths' : '+15550100999',
        });
        await w.control!.endConversation(conv.id);
        const report = (r: ReceivedRequest) => r.path === PATH && jsonOf(r)?.conversation_id === conv.id && jsonOf(r)?.type === 'end-of-conversation-report';
        await verifyArrival(verify, rx!, `the end-of-conversation report of the ${channel} thread arrives`, (all) => all.filter(report), {
          timeoutMs: ARRIVAL_MS,
          expected: `an end-of-conversation-report with conversation_id ${conv.id} within ${ARRIVAL_MS} ms`,
        });
      },
      { requires: ['control'] },
    );
  }
});
