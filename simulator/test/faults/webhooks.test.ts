/**
 * Probes of the §6 event faults (simulator/src/faults/webhooks.ts). Each probe runs with two loopback
 * receivers: `rx`, the tenant-level URL of tenant A, and `other`, reached as
 * `https://probe.example.com` for assistant serverUrls. Where the observation is stable, the
 * no-fault run must show the spec's answer (`spec`), so a probe cannot pass by observing something
 * irrelevant. Waits poll with deadlines (`pollUntil`, `idle`), never sleep.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { WEBHOOK_FAULTS } from '../../src/faults/webhooks.ts';
import { pendingWork } from '../../src/webhooks/delivery.ts';
import { emitEvent } from '../../src/webhooks/emit.ts';
import { pollUntil, startReceiver, type Receiver } from '../webhooks-receiver.ts';
import type { World } from '../world.ts';
import { probeArea, type Probe } from './probe.ts';

/** A probe's world with its receivers and the moves the probes share. */
interface Rig {
  w: World;
  /** The tenant-level URL of tenant A (answers 200 unless told otherwise). */
  rx: Receiver;
  /** Where `https://probe.example.com` is delivered, once {@link Rig.probeHost} made it public. */
  other: Receiver;
  /** Emits one event of tenant A and resolves once its delivery settled. */
  deliver(model: 'A' | 'B', extra?: { assistantId?: string }): Promise<void>;
  /** Resolves once nothing is in flight or scheduled (logged deliveries and unlogged requests alike). */
  idle(): Promise<void>;
  /** Makes `https://probe.example.com` public (DNS) and sends its deliveries to `other`. */
  probeHost(): Promise<void>;
  /** PATCHes an assistant of tenant A; fails the probe unless it answers 200. */
  patchA(id: string, body: Record<string, unknown>): Promise<void>;
  /** Starts a call of tenant A on `assistantId` (control API); returns its id. */
  startCall(assistantId: string): Promise<string>;
}

/**
 * A probe that runs `observe` with two receivers, tenant A's URL on `rx`, retries `baseMs` apart
 * (doubling) and a 1 s attempt timeout; the receivers close afterwards.
 */
function rig(observe: (r: Rig) => Promise<unknown>, baseMs = 2): Probe {
  return async (w) => {
    const rx = await startReceiver();
    const other = await startReceiver();
    try {
      await w.ctl('PUT', '/config', { webhookRetryBaseMs: baseMs, webhookTimeoutMs: 1000 });
      await w.ctl('PUT', `/tenants/${w.A.id}/server-url`, { url: rx.origin });
      return await observe({
        w,
        rx,
        other,
        async deliver(model, extra = {}) {
          const { deliveryId } = emitEvent(w.app.sim, { tenantId: w.A.id, type: 'probe', model, body: { type: 'probe', n: 1 }, ...extra });
          await pollUntil(async () => {
            const l = (await w.ctl('GET', `/deliveries?tenantId=${w.A.id}`)).body as { deliveryId: string; state: string }[];
            return l.find((d) => d.deliveryId === deliveryId)?.state !== 'pending';
          }, 'delivery settled');
        },
        idle: () => pollUntil(() => pendingWork(w.app.sim) === 0, 'no pending webhook work'),
        async probeHost() {
          await w.ctl('PUT', '/config', { webhookConnectTo: { 'probe.example.com:443': other.origin } });
          await w.ctl('POST', '/dns', { hostname: 'probe.example.com', addresses: ['203.0.113.10'] });
        },
        async patchA(id, body) {
          const r = await w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body });
          expect(r.status, r.raw).toBe(200);
        },
        async startCall(assistantId) {
          const r = await w.ctl('POST', '/calls', { tenantId: w.A.id, assistantId });
          expect(r.status, r.raw).toBe(201);
          return r.body.id as string;
        },
      });
    } finally {
      await rx.close();
      await other.close();
    }
  };
}

/** Parsed JSON bodies of what `r` received, in arrival order. */
const bodies = (r: Receiver) => r.received.map((x) => JSON.parse(x.body.toString('utf8')) as Record<string, unknown>);
/** The first request `r` received whose body has `type`. */
const ofType = (r: Receiver, type: string) => r.received.find((x) => JSON.parse(x.body.toString('utf8')).type === type);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The §6 Model B signature of `body` under `secret`. */
const sig = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

probeArea('webhooks', WEBHOOK_FAULTS, {
  'webhooks.sign-reserialised': rig(async ({ w, rx, deliver }) => {
    await deliver('B');
    const r = rx.received[0]!;
    return r.headers['x-service-signature'] === sig(w.A.clientServerSecret, r.body);
  }),
  'webhooks.wrong-secret': rig(async ({ w, rx, deliver }) => {
    await deliver('B');
    const r = rx.received[0]!;
    return r.headers['x-service-signature'] === sig(w.A.clientServerSecret, r.body);
  }),
  'webhooks.drop-sha256-prefix': rig(async ({ rx, deliver }) => {
    await deliver('B');
    return String(rx.received[0]!.headers['x-service-signature']).startsWith('sha256=');
  }),
  'webhooks.new-delivery-id-on-retry': rig(async ({ rx, deliver }) => {
    rx.respond((n) => (n < 2 ? 500 : 200));
    await deliver('B');
    return new Set(rx.received.map((r) => r.headers['x-service-delivery'])).size;
  }),
  'webhooks.retry-model-a': rig(async ({ rx, deliver }) => {
    rx.respond(() => 500);
    await deliver('A');
    return rx.received.length;
  }),
  'webhooks.retries-3': rig(async ({ rx, deliver }) => {
    rx.respond(() => 500);
    await deliver('B');
    return rx.received.length;
  }),
  'webhooks.retries-8': rig(async ({ rx, deliver }) => {
    rx.respond(() => 500);
    await deliver('B');
    return rx.received.length;
  }),
  'webhooks.constant-delay': rig(async ({ rx, deliver }) => {
    rx.respond(() => 500);
    await deliver('B');
    const at = rx.received.map((r) => r.at);
    // Doubling from 10 ms: the last wait is 160 ms; constant: 10 ms.
    return at[5]! - at[4]! >= 150;
  }, 10),
  'webhooks.ignore-server-url': rig(async ({ w, rx, other, deliver }) => {
    await w.ctl('PUT', '/config', { webhookConnectTo: { 'probe.example.com:443': other.origin } });
    await w.ctl('POST', '/dns', { hostname: 'probe.example.com', addresses: ['203.0.113.10'] });
    const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/' });
    await deliver('A', { assistantId: a.id });
    return [rx.received.length, other.received.length];
  }),
  'webhooks.model-a-secret-missing': rig(async ({ w, rx, deliver }) => {
    await deliver('A');
    return rx.received[0]!.headers['x-service-core-secret'] === w.A.clientServerSecret;
  }),
  'webhooks.path-dropped': {
    // §2.3 rule 5: the path is kept
    spec: ['/hooks/core?x=1'],
    probe: rig(async ({ w, other, deliver, probeHost }) => {
      await probeHost();
      const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/hooks/core?x=1' });
      await deliver('A', { assistantId: a.id });
      return other.received.map((r) => r.path);
    }),
  },
  'webhooks.server-url-at-delivery': {
    // §1: the call keeps its start configuration
    spec: '/at-start',
    probe: rig(async ({ w, other, idle, probeHost, patchA, startCall }) => {
      await probeHost();
      const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/at-start' });
      const id = await startCall(a.id);
      await patchA(a.id, { serverUrl: 'https://probe.example.com/changed' });
      expect((await w.ctl('POST', `/calls/${id}/end`, {})).status).toBe(200);
      await idle();
      return ofType(other, 'end-of-call-report')?.path;
    }),
  },
  'webhooks.tenant-url-frozen-at-clear': {
    // §2.3 rule 4, §6: serverUrl cleared while the tenant-level URL is `rx`, which then moves to `other`: the call's events follow it.
    spec: [0, 2],
    probe: rig(async ({ w, rx, other, idle, probeHost, patchA, startCall }) => {
      await probeHost();
      const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/old' });
      await patchA(a.id, { serverUrl: null });
      await w.ctl('PUT', `/tenants/${w.A.id}/server-url`, { url: other.origin });
      const call = await startCall(a.id);
      await w.ctl('POST', `/calls/${call}/end`, {});
      await idle();
      return [rx.received.length, other.received.length];
    }),
  },
  'webhooks.null-server-url-kept': {
    // §2.3 rule 4: null → tenant URL (voice and messaging)
    spec: [2, 0],
    probe: rig(async ({ w, rx, other, idle, probeHost, patchA, startCall }) => {
      await probeHost();
      const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://probe.example.com/old' });
      await patchA(a.id, { serverUrl: null });
      await startCall(a.id); // voice: routed by the call's snapshot
      await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'sms', customerIdentifier: '+15550100' });
      await idle();
      return [rx.received.length, other.received.length];
    }),
  },
  'webhooks.test-request-on-patch': {
    // §2.3 rule 3: no test request
    spec: 0,
    probe: rig(async ({ w, other, idle, probeHost, patchA }) => {
      await probeHost();
      const a = await w.assistant(w.A.apiKey);
      await patchA(a.id, { serverUrl: 'https://probe.example.com/new' });
      await idle();
      return other.received.length;
    }),
  },
  'webhooks.no-retry-on-timeout': {
    // §6 B3: a timeout is retried
    spec: 2,
    probe: rig(async ({ w, rx, deliver }) => {
      await w.ctl('PUT', '/config', { webhookTimeoutMs: 100 });
      rx.respond((n) => (n === 0 ? 'hang' : 200));
      await deliver('B');
      return rx.received.length;
    }),
  },
  'webhooks.retry-5xx-only': {
    // §6 B3: a 4xx is a non-2xx, retried
    spec: 2,
    probe: rig(async ({ rx, deliver }) => {
      rx.respond((n) => (n === 0 ? 404 : 200));
      await deliver('B');
      return rx.received.length;
    }),
  },
  'webhooks.no-retry-on-refused': {
    // §6 B3: no answer at all is retried (1 + 5)
    spec: 6,
    probe: rig(async ({ w }) => {
      await w.ctl('PUT', `/tenants/${w.A.id}/server-url`, { url: 'http://127.0.0.1:1/refused' });
      const { deliveryId } = emitEvent(w.app.sim, { tenantId: w.A.id, type: 'probe', model: 'B', body: { type: 'probe', n: 1 } });
      await pollUntil(async () => {
        const l = (await w.ctl('GET', `/deliveries?tenantId=${w.A.id}`)).body as { deliveryId: string; state: string }[];
        return l.find((d) => d.deliveryId === deliveryId)?.state !== 'pending';
      }, 'delivery settled');
      const l = (await w.ctl('GET', `/deliveries?tenantId=${w.A.id}`)).body as { deliveryId: string; attempts: unknown[] }[];
      return l.find((d) => d.deliveryId === deliveryId)?.attempts.length;
    }),
  },
  'webhooks.model-a-retries-429': {
    // §6 A3: no retries
    spec: 1,
    probe: rig(async ({ rx, deliver, idle }) => {
      rx.respond(() => 429);
      await deliver('A');
      await idle();
      return rx.received.length;
    }),
  },
  'webhooks.shared-delivery-id': {
    // §6 B3: one id per event
    spec: 2,
    probe: rig(async ({ rx, deliver, idle }) => {
      await deliver('B');
      await deliver('B');
      await idle(); // deliver() may find the earlier record under a shared id
      return new Set(rx.received.map((r) => r.headers['x-service-delivery'])).size;
    }),
  },
  'webhooks.delivery-id-not-uuid': {
    // §6 B1: <uuid>
    spec: true,
    probe: rig(async ({ rx, deliver }) => {
      await deliver('B');
      return UUID.test(String(rx.received[0]!.headers['x-service-delivery']));
    }),
  },
  'webhooks.supervisor-answered-string': {
    // §6 A6
    spec: 'boolean',
    probe: rig(async ({ w, rx, idle, startCall }) => {
      const a = await w.assistant(w.A.apiKey);
      const id = await startCall(a.id);
      await w.ctl('POST', `/calls/${id}/end`, { supervisorAnswered: true });
      await idle();
      const report = bodies(rx).find((b) => b.type === 'end-of-call-report');
      return typeof report?.supervisor_answered;
    }),
  },
  'webhooks.no-call-id': {
    // §6: voice events carry call_id
    spec: [true],
    probe: rig(async ({ w, rx, idle, startCall }) => {
      const a = await w.assistant(w.A.apiKey);
      await startCall(a.id);
      await idle();
      return bodies(rx).map((b) => 'call_id' in b);
    }),
  },
  'webhooks.no-customer-identifier': {
    // §6: messaging events carry it
    spec: ['visitor-1', 'visitor-1'],
    probe: rig(async ({ w, rx, idle }) => {
      const a = await w.assistant(w.A.apiKey);
      const r = await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'web', customerIdentifier: 'visitor-1' });
      await w.ctl('POST', `/conversations/${r.body.id}/end`);
      await idle();
      return bodies(rx).map((b) => b.customer_identifier);
    }),
  },
  'webhooks.report-without-type': {
    // §6: every body carries type
    spec: ['assistant-request', 'end-of-call-report'],
    probe: rig(async ({ w, rx, idle, startCall }) => {
      const a = await w.assistant(w.A.apiKey);
      const id = await startCall(a.id);
      await w.ctl('POST', `/calls/${id}/end`, {});
      await idle();
      return bodies(rx).map((b) => b.type ?? null);
    }),
  },
  'webhooks.sign-with-host': {
    // §6 B1, B4: HMAC of the raw body alone
    spec: true,
    probe: rig(async ({ w, rx, deliver }) => {
      await deliver('B');
      const r = rx.received[0]!;
      return r.headers['x-service-signature'] === sig(w.A.clientServerSecret, r.body);
    }),
  },
  'webhooks.onboarding-failed-dropped': {
    // §6 table: delivered (model B)
    spec: ['chatapp.onboarding.failed'],
    probe: rig(async ({ w, rx, idle }) => {
      expect((await w.ctl('POST', '/onboarding-events', { tenantId: w.A.id, type: 'chatapp.onboarding.failed' })).status).toBe(202);
      await idle();
      return bodies(rx).map((b) => b.type);
    }),
  },
  'webhooks.no-conversation-report-chatapp': {
    // §1: each finished thread
    spec: ['assistant-request', 'end-of-conversation-report'],
    probe: rig(async ({ w, rx, idle }) => {
      const a = await w.assistant(w.A.apiKey);
      const r = await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'chatapp', customerIdentifier: 'visitor-2' });
      await w.ctl('POST', `/conversations/${r.body.id}/end`);
      await idle();
      return bodies(rx).map((b) => b.type);
    }),
  },
  'webhooks.text-plain': {
    // §6: JSON bodies
    spec: 'application/json',
    probe: rig(async ({ rx, deliver }) => {
      await deliver('B');
      return rx.received[0]!.headers['content-type'];
    }),
  },
  'webhooks.empty-2xx-drops-call': {
    // §6 A4
    spec: [true, ['assistant-request', 'end-of-call-report']],
    probe: rig(async ({ w, rx, idle, startCall }) => {
      const a = await w.assistant(w.A.apiKey);
      const id = await startCall(a.id); // the receiver answers 200 with an empty body
      await idle();
      const live = (await w.req('GET', '/calls/live', { key: w.A.apiKey })).body.data.map((c: { id: string }) => c.id).includes(id);
      expect((await w.ctl('POST', `/calls/${id}/end`, {})).status).toBe(200); // also for a dropped call
      await idle();
      return [live, bodies(rx).map((b) => b.type)];
    }),
  },
  'webhooks.tool-event-model-b': {
    // §6 table: tool invocation is model A
    spec: [true, false],
    probe: rig(async ({ w, rx, idle, startCall }) => {
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
    }),
  },
});
