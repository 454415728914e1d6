/**
 * Every `webhooks.*` fault of faults.ts changes what a receiver observes: each probe runs once
 * with no fault and once with the fault on, and the two observations must differ. (The generic
 * fault probe in faults.test.ts covers the request/answer faults; these need a receiver.)
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../src/faults.ts';
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
  'webhooks.uppercase-hex': async () => {
    await deliver('B');
    return /^sha256=[0-9a-f]{64}$/.test(String(rx.received[0]!.headers['x-service-signature']));
  },
  'webhooks.new-delivery-id-on-retry': async () => {
    rx.respond((n) => (n < 2 ? 500 : 200));
    await deliver('B');
    return new Set(rx.received.map((r) => r.headers['x-service-delivery'])).size;
  },
  'webhooks.bytes-change-on-retry': async () => {
    rx.respond((n) => (n < 1 ? 500 : 200));
    await deliver('B');
    return rx.received[1]!.body.equals(rx.received[0]!.body);
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
      await arrange([name], base);
      const faulty = await probes[name]!();
      expect(faulty, name).not.toEqual(ok);
    });
  }
});
