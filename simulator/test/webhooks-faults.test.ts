/**
 * Every `webhooks.*` fault of faults.ts changes what a receiver observes: each probe runs once
 * with no fault and once with the fault on, and the two observations must differ. (The generic
 * fault probe in faults.test.ts covers the request/answer faults; these need a receiver.)
 * For the webhook faults, the no-fault run must also show the spec's
 * answer (`specAnswer`), so a probe cannot pass by observing something irrelevant. Waits poll
 * with deadlines (`pollUntil`, `idle`), never sleep.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../src/faults.ts';
import { pendingWork } from '../src/webhooks/delivery.ts';
import { emitEvent } from '../src/webhooks/emit.ts';
import { pollUntil, startReceiver, type Receiver } from './webhooks-receiver.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
let rx: Receiver;
let other: Receiver;
beforeEach(async () => {
  w = await makeWorld();
  rx = await startReceiver();
  other = await startReceiver();
});
afterEach(async () => {
  await w.app.close();
  await rx.close();
  await other.close();
});

/** Clears both receivers and the config, then switches on `faults` with short retry delays. */
async function arrange(faults: string[], base = 2): Promise<void> {
  rx.received.length = 0;
  other.received.length = 0;
  rx.respond(() => 200);
  await w.ctl('PUT', '/config', { faults, webhookRetryBaseMs: base, webhookTimeoutMs: 1000 });
  await w.ctl('PUT', `/tenants/${w.A.id}/server-url`, { url: rx.origin });
}

/** Emits one event and resolves once every delivery of tenant A has settled. */
async function deliver(model: 'A' | 'B', extra: { assistantId?: string } = {}): Promise<void> {
  const { deliveryId } = emitEvent(w.app.sim, { tenantId: w.A.id, type: 'probe', model, body: { type: 'probe', n: 1 }, ...extra });
  await pollUntil(async () => {
    const l = (await w.ctl('GET', `/deliveries?tenantId=${w.A.id}`)).body as any[];
    return l.find((d) => d.deliveryId === deliveryId)?.state !== 'pending';
  }, 'delivery settled');
}

/** Resolves once nothing is in flight or scheduled (logged deliveries and unlogged requests alike). */
const idle = () => pollUntil(() => pendingWork(w.app.sim) === 0, 'no pending webhook work');

/** Makes `https://probe.example.com` public (DNS) and sends its deliveries to `other`. */
async function probeHost(): Promise<void> {
  await w.ctl('PUT', '/config', { webhookConnectTo: { 'probe.example.com:443': other.origin } });
  await w.ctl('POST', '/dns', { hostname: 'probe.example.com', addresses: ['203.0.113.10'] });
}

/** PATCHes an assistant of tenant A; fails the test unless it answers 200. */
async function patchA(id: string, body: Record<string, unknown>): Promise<void> {
  const r = await w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body });
  expect(r.status, r.raw).toBe(200);
}

/** Starts a call of tenant A on `assistantId` (control API); returns its id. */
async function startCall(assistantId: string): Promise<string> {
  const r = await w.ctl('POST', '/calls', { tenantId: w.A.id, assistantId });
  expect(r.status, r.raw).toBe(201);
  return r.body.id as string;
}

/** Parsed JSON bodies of what `r` received, in arrival order. */
const bodies = (r: Receiver) => r.received.map((x) => JSON.parse(x.body.toString('utf8')) as Record<string, unknown>);
/** The first request `r` received whose body has `type`. */
const ofType = (r: Receiver, type: string) => r.received.find((x) => JSON.parse(x.body.toString('utf8')).type === type);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const sig = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const probes: Record<string, () => Promise<unknown>> = {
  'webhooks.sign-reserialised': async () => {
    await deliver('B');
    const r = rx.received[0]!;
    return r.headers['x-service-signature'] === sig(w.A.clientServerSecret, r.body);
  },
  'webhooks.wrong-secret': async () => {
    await deliver('B');
    const r = rx.received[0]!;
    return r.headers['x-service-signature'] === sig(w.A.clientServerSecret, r.body);
  },
  'webhooks.drop-sha256-prefix': async () => {
    await deliver('B');
    return String(rx.received[0]!.headers['x-service-signature']).startsWith('sha256=');
  },
  'webhooks.new-delivery-id-on-retry': async () => {
    rx.respond((n) => (n < 2 ? 500 : 200));
    await deliver('B');
    return new Set(rx.received.map((r) => r.headers['x-service-delivery'])).size;
  },
  'webhooks.retry-model-a': async () => {
    rx.respond(() => 500);
    await deliver('A');
    return rx.received.length;
  },
  'webhooks.retries-3': async () => {
    rx.respond(() => 500);
    await deliver('B');
    return rx.received.length;
  },
  'webhooks.retries-8': async () => {
    rx.respond(() => 500);
    await deliver('B');
    return rx.received.length;
  },
  'webhooks.constant-delay': async () => {
    rx.respond(() => 500);
    await deliver('B');
    const at = rx.received.map((r) => r.at);
    // Doubling from 10 ms: the last wait is 160 ms; constant: 10 ms.
    return at[5]! - at[4]! >= 150;
  },
  'webhooks.ignore-server-url': async () => {
    await w.ctl('PUT', '/config', { webhookConnectTo: { 'probe.example.com:443': other.origin } });
    await w.ctl('POST', '/dns', { hostname: 'probe.example.com', addresses: ['203.0.113.10'] });
    const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/' });
    await deliver('A', { assistantId: a.id });
    return [rx.received.length, other.received.length];
  },
  'webhooks.model-a-secret-missing': async () => {
    await deliver('A');
    return rx.received[0]!.headers['x-service-core-secret'] === w.A.clientServerSecret;
  },
  'webhooks.path-dropped': async () => {
    await probeHost();
    const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/hooks/core?x=1' });
    await deliver('A', { assistantId: a.id });
    return other.received.map((r) => r.path);
  },
  'webhooks.server-url-at-delivery': async () => {
    await probeHost();
    const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/at-start' });
    const id = await startCall(a.id);
    await patchA(a.id, { serverUrl: 'https://probe.example.com/changed' });
    expect((await w.ctl('POST', `/calls/${id}/end`, {})).status).toBe(200);
    await idle();
    return ofType(other, 'end-of-call-report')?.path;
  },
  'webhooks.null-server-url-kept': async () => {
    await probeHost();
    const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/old' });
    await patchA(a.id, { serverUrl: null });
    await startCall(a.id); // voice: routed by the call's snapshot
    await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'sms', customerIdentifier: '+15550100' });
    await idle();
    return [rx.received.length, other.received.length];
  },
  'webhooks.test-request-on-patch': async () => {
    await probeHost();
    const a = await w.assistant(w.A.apiKey);
    await patchA(a.id, { serverUrl: 'https://probe.example.com/new' });
    await idle();
    return other.received.length;
  },
  'webhooks.no-retry-on-timeout': async () => {
    await w.ctl('PUT', '/config', { webhookTimeoutMs: 100 });
    rx.respond((n) => (n === 0 ? 'hang' : 200));
    await deliver('B');
    return rx.received.length;
  },
  'webhooks.retry-5xx-only': async () => {
    rx.respond((n) => (n === 0 ? 404 : 200));
    await deliver('B');
    return rx.received.length;
  },
  'webhooks.no-retry-on-refused': async () => {
    await w.ctl('PUT', `/tenants/${w.A.id}/server-url`, { url: 'http://127.0.0.1:1/refused' });
    const { deliveryId } = emitEvent(w.app.sim, { tenantId: w.A.id, type: 'probe', model: 'B', body: { type: 'probe', n: 1 } });
    await pollUntil(async () => {
      const l = (await w.ctl('GET', `/deliveries?tenantId=${w.A.id}`)).body as any[];
      return l.find((d) => d.deliveryId === deliveryId)?.state !== 'pending';
    }, 'delivery settled');
    const l = (await w.ctl('GET', `/deliveries?tenantId=${w.A.id}`)).body as any[];
    return l.find((d) => d.deliveryId === deliveryId)?.attempts.length;
  },
  'webhooks.model-a-retries-429': async () => {
    rx.respond(() => 429);
    await deliver('A');
    await idle();
    return rx.received.length;
  },
  'webhooks.shared-delivery-id': async () => {
    await deliver('B');
    await deliver('B');
    await idle(); // deliver() may find the earlier record under a shared id
    return new Set(rx.received.map((r) => r.headers['x-service-delivery'])).size;
  },
  'webhooks.delivery-id-not-uuid': async () => {
    await deliver('B');
    return UUID.test(String(rx.received[0]!.headers['x-service-delivery']));
  },
  'webhooks.supervisor-answered-string': async () => {
    const a = await w.assistant(w.A.apiKey);
    const id = await startCall(a.id);
    await w.ctl('POST', `/calls/${id}/end`, { supervisorAnswered: true });
    await idle();
    const report = bodies(rx).find((b) => b.type === 'end-of-call-report');
    return typeof report?.supervisor_answered;
  },
  'webhooks.no-call-id': async () => {
    const a = await w.assistant(w.A.apiKey);
    await startCall(a.id);
    await idle();
    return bodies(rx).map((b) => 'call_id' in b);
  },
  'webhooks.no-customer-identifier': async () => {
    const a = await w.assistant(w.A.apiKey);
    const r = await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'web', customerIdentifier: 'visitor-1' });
    await w.ctl('POST', `/conversations/${r.body.id}/end`);
    await idle();
    return bodies(rx).map((b) => b.customer_identifier);
  },
  'webhooks.report-without-type': async () => {
    const a = await w.assistant(w.A.apiKey);
    const id = await startCall(a.id);
    await w.ctl('POST', `/calls/${id}/end`, {});
    await idle();
    return bodies(rx).map((b) => b.type ?? null);
  },
  'webhooks.sign-with-host': async () => {
    await deliver('B');
    const r = rx.received[0]!;
    return r.headers['x-service-signature'] === sig(w.A.clientServerSecret, r.body);
  },
  'webhooks.onboarding-failed-dropped': async () => {
    expect((await w.ctl('POST', '/onboarding-events', { tenantId: w.A.id, type: 'chatapp.onboarding.failed' })).status).toBe(202);
    await idle();
    return bodies(rx).map((b) => b.type);
  },
  'webhooks.no-conversation-report-chatapp': async () => {
    const a = await w.assistant(w.A.apiKey);
    const r = await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'chatapp', customerIdentifier: 'visitor-2' });
    await w.ctl('POST', `/conversations/${r.body.id}/end`);
    await idle();
    return bodies(rx).map((b) => b.type);
  },
  'webhooks.text-plain': async () => {
    await deliver('B');
    return rx.received[0]!.headers['content-type'];
  },
  'webhooks.empty-2xx-drops-call': async () => {
    const a = await w.assistant(w.A.apiKey);
    const id = await startCall(a.id); // the receiver answers 200 with an empty body
    await idle();
    const live = (await w.req('GET', '/calls/live', { key: w.A.apiKey })).body.data.map((c: { id: string }) => c.id).includes(id);
    expect((await w.ctl('POST', `/calls/${id}/end`, {})).status).toBe(200); // also for a dropped call
    await idle();
    return [live, bodies(rx).map((b) => b.type)];
  },
  'webhooks.tool-event-model-b': async () => {
    const tool = await w.req('POST', '/tools', {
      key: w.A.apiKey,
      body: { name: 'lookup', instruction: { title: 'Lookup', description: 'Looks up a booking', steps: [] } },
    });
    expect(tool.status, tool.raw).toBe(201);
    const a = await w.assistant(w.A.apiKey);
    const id = await startCall(a.id);
    expect((await w.ctl('POST', '/tool-invocations', { callId: id, toolId: tool.body.data.id })).status).toBe(202);
    await idle();
    const h = ofType(rx, 'tool-invocation')!.headers;
    return [h['x-service-core-secret'] === w.A.clientServerSecret, 'x-service-signature' in h];
  },
};

/** What the spec-conforming simulator shows for the issue-5 probes (the no-fault run must show it). */
const specAnswer: Record<string, unknown> = {
  'webhooks.path-dropped': ['/hooks/core?x=1'], // §2.3 rule 5: the path is kept
  'webhooks.server-url-at-delivery': '/at-start', // §1: the call keeps its start configuration
  'webhooks.null-server-url-kept': [2, 0], // §2.3 rule 4: null → tenant URL (voice and messaging)
  'webhooks.test-request-on-patch': 0, // §2.3 rule 3: no test request
  'webhooks.no-retry-on-timeout': 2, // §6 B3: a timeout is retried
  'webhooks.retry-5xx-only': 2, // §6 B3: a 4xx is a non-2xx, retried
  'webhooks.no-retry-on-refused': 6, // §6 B3: no answer at all is retried (1 + 5)
  'webhooks.model-a-retries-429': 1, // §6 A3: no retries
  'webhooks.shared-delivery-id': 2, // §6 B3: one id per event
  'webhooks.delivery-id-not-uuid': true, // §6 B1: <uuid>
  'webhooks.supervisor-answered-string': 'boolean', // §6 A6
  'webhooks.no-call-id': [true], // §6: voice events carry call_id
  'webhooks.no-customer-identifier': ['visitor-1', 'visitor-1'], // §6: messaging events carry it
  'webhooks.text-plain': 'application/json', // §6: JSON bodies
  'webhooks.report-without-type': ['assistant-request', 'end-of-call-report'], // §6: every body carries type
  'webhooks.no-conversation-report-chatapp': ['assistant-request', 'end-of-conversation-report'], // §1: each finished thread
  'webhooks.sign-with-host': true, // §6 B1, B4: HMAC of the raw body alone
  'webhooks.onboarding-failed-dropped': ['chatapp.onboarding.failed'], // §6 table: delivered (model B)
  'webhooks.empty-2xx-drops-call': [true, ['assistant-request', 'end-of-call-report']], // §6 A4
  'webhooks.tool-event-model-b': [true, false], // §6 table: tool invocation is model A
};

describe('webhook faults', () => {
  const names = FAULTS.map((f) => f.name).filter((n) => n.startsWith('webhooks.'));

  it('every webhooks.* fault has a probe here', () => {
    expect(names.filter((n) => !(n in probes))).toEqual([]);
    expect(Object.keys(probes).filter((n) => !names.includes(n))).toEqual([]);
  });

  for (const name of Object.keys(probes)) {
    it(`${name} changes what the receiver observes`, async () => {
      const base = name === 'webhooks.constant-delay' ? 10 : 2;
      await arrange([], base);
      const ok = await probes[name]!();
      if (name in specAnswer) expect(ok, `${name} off`).toEqual(specAnswer[name]);
      await arrange([name], base);
      const faulty = await probes[name]!();
      expect(faulty, name).not.toEqual(ok);
    });
  }
});
