/**
 * Webhook delivery of the simulator (§6, §2.3 rules 4-5, §1; control-api.md deliveries log,
 * webhookConnectTo, webhookRetryBaseMs, webhookTimeoutMs). A loopback receiver records what
 * arrives; retry delays are shortened through the control config; every wait polls with a deadline.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingWork } from '../src/webhooks/delivery.ts';
import { emitEvent } from '../src/webhooks/emit.ts';
import { pollUntil, startReceiver, type Receiver } from './webhooks-receiver.ts';
import { makeWorld, type World } from './world.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PUBLIC_IP = '203.0.113.10';

let w: World;
let rx: Receiver;
let other: Receiver;
beforeEach(async () => {
  w = await makeWorld();
  rx = await startReceiver();
  other = await startReceiver();
  await w.ctl('PUT', '/config', { webhookRetryBaseMs: 5, webhookTimeoutMs: 1000 });
});
afterEach(async () => {
  await w.app.close();
  await rx.close();
  await other.close();
});

const setTenantUrl = async (tenantId: string, url: string | null) => expect((await w.ctl('PUT', `/tenants/${tenantId}/server-url`, { url })).status).toBe(204);
const log = async (tenantId: string) => (await w.ctl('GET', `/deliveries?tenantId=${tenantId}`)).body as any[];
const settled = (tenantId: string, n = 1) =>
  pollUntil(async () => {
    const l = await log(tenantId);
    return l.length >= n && l.every((d) => d.state !== 'pending');
  }, `${n} settled deliveries`);
const onboarding = async (type = 'chatapp.onboarding.completed') => {
  const r = await w.ctl('POST', '/onboarding-events', { tenantId: w.A.id, type });
  expect(r.status).toBe(202);
  return r.body.deliveryId as string;
};
const verify = (secret: string, body: Buffer, header: unknown) => {
  const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const got = Buffer.from(String(header));
  return got.length === want.length && timingSafeEqual(got, want);
};
const gaps = (r: Receiver) => r.received.slice(1).map((x, i) => x.at - r.received[i]!.at);

describe('model B (§6)', () => {
  it('signs the exact bytes sent, which a re-serialisation changes, and names the delivery id', async () => {
    await setTenantUrl(w.A.id, `${rx.origin}/hooks/b`);
    const id = await onboarding('chatapp.calling.live');
    await rx.waitFor((r) => r.length === 1, 'one delivery');
    const got = rx.received[0]!;
    expect(got.path).toBe('/hooks/b');
    expect(got.headers['content-type']).toMatch(/^application\/json/);
    expect(got.headers['x-service-delivery']).toBe(id);
    expect(id).toMatch(UUID);
    expect(got.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verify(w.A.clientServerSecret, got.body, got.headers['x-service-signature'])).toBe(true);
    const parsed = JSON.parse(got.body.toString('utf8'));
    expect(parsed.type).toBe('chatapp.calling.live');
    for (const reser of [JSON.stringify(parsed), JSON.stringify(parsed, null, 2)]) {
      expect(Buffer.from(reser).equals(got.body)).toBe(false);
      expect(verify(w.A.clientServerSecret, Buffer.from(reser), got.headers['x-service-signature'])).toBe(false);
    }
    expect(verify(w.B.clientServerSecret, got.body, got.headers['x-service-signature'])).toBe(false);
    expect(got.headers['x-service-core-secret']).toBeUndefined();
    await settled(w.A.id);
    const [d] = await log(w.A.id);
    expect(d).toMatchObject({ deliveryId: id, type: 'chatapp.calling.live', model: 'B', url: `${rx.origin}/hooks/b`, state: 'delivered' });
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0].status).toBe(200);
    expect(Number.isNaN(Date.parse(d.attempts[0].at))).toBe(false);
  });

  it('retries a non-2xx 5 times with doubling delays, same id, same bytes, then fails', async () => {
    await w.ctl('PUT', '/config', { webhookRetryBaseMs: 20 });
    rx.respond(() => 500);
    await setTenantUrl(w.A.id, rx.origin);
    // This process's own lateness over the run (a 10 ms timer's worst delay): the simulator's retry
    // timers and the receiver share its event loop, so a loaded machine stretches a gap by as much.
    let lateMs = 0;
    let expected = performance.now() + 10;
    const drift = setInterval(() => {
      lateMs = Math.max(lateMs, performance.now() - expected);
      expected = performance.now() + 10;
    }, 10);
    const id = await onboarding();
    await settled(w.A.id);
    clearInterval(drift);
    expect(rx.received).toHaveLength(6);
    for (const r of rx.received) {
      expect(r.headers['x-service-delivery']).toBe(id);
      expect(r.body.equals(rx.received[0]!.body)).toBe(true);
      expect(r.headers['x-service-signature']).toBe(rx.received[0]!.headers['x-service-signature']);
    }
    const g = gaps(rx);
    // Waits before retries 1..5 are 20, 40, 80, 160, 320 ms: never shorter; longer only by
    // scheduling noise (bounded loosely, plus the lateness this process showed over the run).
    g.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(20 * 2 ** i - 2));
    g.forEach((gap, i) => expect(gap, `gap ${i + 1}, this process ran up to ${Math.round(lateMs)} ms late`).toBeLessThan(20 * 2 ** i * 1.5 + 200 + lateMs));
    const [d] = await log(w.A.id);
    expect(d.state).toBe('failed');
    expect(d.attempts.map((a: any) => a.status)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(pendingWork(w.app.sim)).toBe(0);
  });

  it('stops retrying at the first 2xx', async () => {
    rx.respond((n) => (n < 2 ? 503 : 204));
    await setTenantUrl(w.A.id, rx.origin);
    await onboarding();
    await settled(w.A.id);
    expect(rx.received).toHaveLength(3);
    const [d] = await log(w.A.id);
    expect(d.state).toBe('delivered');
    expect(d.attempts.map((a: any) => a.status)).toEqual([503, 503, 204]);
  });

  it('treats no answer within webhookTimeoutMs as a failed attempt (status null) and retries', async () => {
    await w.ctl('PUT', '/config', { webhookTimeoutMs: 150 });
    rx.respond((n) => (n === 0 ? 'hang' : 200));
    await setTenantUrl(w.A.id, rx.origin);
    await onboarding();
    await settled(w.A.id);
    const [d] = await log(w.A.id);
    expect(d.attempts.map((a: any) => a.status)).toEqual([null, 200]);
    expect(d.state).toBe('delivered');
    expect(rx.received[1]!.body.equals(rx.received[0]!.body)).toBe(true);
  });

  it('retries a refused connection, recording status null', async () => {
    const down = await startReceiver();
    await down.close();
    await setTenantUrl(w.A.id, down.origin);
    await onboarding();
    await settled(w.A.id);
    const [d] = await log(w.A.id);
    expect(d.state).toBe('failed');
    expect(d.attempts.map((a: any) => a.status)).toEqual([null, null, null, null, null, null]);
  });
});

describe('model A (§6)', () => {
  const emitA = (url?: string) =>
    emitEvent(w.app.sim, {
      tenantId: w.A.id,
      type: 'end-of-call-report',
      model: 'A',
      body: { type: 'end-of-call-report', call_id: 'c1' },
      ...(url ? { url } : {}),
    });

  it('sends the client server secret verbatim and no signature', async () => {
    await setTenantUrl(w.A.id, rx.origin);
    emitA();
    await rx.waitFor((r) => r.length === 1, 'one delivery');
    const got = rx.received[0]!;
    expect(got.headers['x-service-core-secret']).toBe(w.A.clientServerSecret);
    expect(got.headers['content-type']).toMatch(/^application\/json/);
    expect(got.headers['x-service-signature']).toBeUndefined();
    expect(JSON.parse(got.body.toString('utf8'))).toEqual({ type: 'end-of-call-report', call_id: 'c1' });
    await settled(w.A.id);
    expect((await log(w.A.id))[0]).toMatchObject({ model: 'A', state: 'delivered', type: 'end-of-call-report' });
  });

  it('makes one attempt only on a non-2xx answer and on a refused connection', async () => {
    rx.respond(() => 500);
    const down = await startReceiver();
    await down.close();
    emitA(rx.origin);
    emitA(down.origin);
    await settled(w.A.id, 2);
    const l = await log(w.A.id);
    expect(l.map((d) => d.attempts.map((a: any) => a.status))).toEqual([[500], [null]]);
    expect(l.map((d) => d.state)).toEqual(['failed', 'failed']);
    expect(rx.received).toHaveLength(1);
    expect(pendingWork(w.app.sim)).toBe(0);
  });
});

describe('routing (§6, §2.3 rules 4-5, §1)', () => {
  const dns = async (hostname: string) => expect((await w.ctl('POST', '/dns', { hostname, addresses: [PUBLIC_IP] })).status).toBe(204);

  it("uses the assistant's serverUrl through webhookConnectTo, keeping path, query and Host", async () => {
    await dns('hooks.example.com');
    await w.ctl('PUT', '/config', { webhookConnectTo: { 'hooks.example.com:443': rx.origin } });
    await setTenantUrl(w.A.id, other.origin);
    const a = await w.assistant(w.A.apiKey);
    const url = 'https://hooks.example.com/in/events?src=sim';
    expect((await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { serverUrl: url } })).status).toBe(200);
    emitEvent(w.app.sim, { tenantId: w.A.id, assistantId: a.id, type: 'assistant-request', model: 'A', body: { type: 'assistant-request' } });
    await settled(w.A.id);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.path).toBe('/in/events?src=sim');
    expect(rx.received[0]!.headers.host).toBe('hooks.example.com');
    expect(other.received).toHaveLength(0);
    expect((await log(w.A.id))[0].url).toBe(url);

    expect((await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { serverUrl: null } })).status).toBe(200);
    emitEvent(w.app.sim, { tenantId: w.A.id, assistantId: a.id, type: 'assistant-request', model: 'A', body: { type: 'assistant-request' } });
    await other.waitFor((r) => r.length === 1, 'delivery to the tenant URL');
    expect(rx.received).toHaveLength(1);
  });

  it('delivers a bare hostname to / and keeps an explicit port in the Host header', async () => {
    await dns('bare.example.com');
    await w.ctl('PUT', '/config', { webhookConnectTo: { 'bare.example.com:443': rx.origin, 'bare.example.com:8443': other.origin } });
    const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://bare.example.com' });
    emitEvent(w.app.sim, { tenantId: w.A.id, assistantId: a.id, type: 'assistant-request', model: 'A', body: { type: 'assistant-request' } });
    emitEvent(w.app.sim, {
      tenantId: w.A.id,
      type: 'assistant-request',
      model: 'A',
      body: { type: 'assistant-request' },
      url: 'https://bare.example.com:8443',
    });
    await settled(w.A.id, 2);
    expect(rx.received.map((r) => r.path)).toEqual(['/']);
    expect(other.received.map((r) => [r.path, r.headers.host])).toEqual([['/', 'bare.example.com:8443']]);
  });

  it('an explicit url (snapshotted at call start) wins over the current assistant serverUrl', async () => {
    await dns('now.example.com');
    await w.ctl('PUT', '/config', { webhookConnectTo: { 'now.example.com:443': other.origin } });
    const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://now.example.com/x' });
    emitEvent(w.app.sim, {
      tenantId: w.A.id,
      assistantId: a.id,
      type: 'end-of-call-report',
      model: 'A',
      body: { type: 'end-of-call-report' },
      url: `${rx.origin}/then`,
    });
    await settled(w.A.id);
    expect(rx.received.map((r) => r.path)).toEqual(['/then']);
    expect(other.received).toHaveLength(0);
  });

  it("ignores another tenant's assistant and logs an event with no URL as failed, unsent", async () => {
    const b = await w.assistant(w.B.apiKey, { serverUrl: null });
    await setTenantUrl(w.B.id, other.origin);
    emitEvent(w.app.sim, { tenantId: w.A.id, assistantId: b.id, type: 'assistant-request', model: 'A', body: { type: 'assistant-request' } });
    await settled(w.A.id);
    const [d] = await log(w.A.id);
    expect(d).toMatchObject({ url: null, state: 'failed', attempts: [] });
    expect(other.received).toHaveLength(0);
    expect(await log(w.B.id)).toEqual([]);
  });

  it('a hostname missing from the control DNS table and from webhookConnectTo gets no answer (no real DNS)', async () => {
    emitEvent(w.app.sim, { tenantId: w.A.id, type: 'x', model: 'A', body: { type: 'x' }, url: 'https://unlisted.invalid/' });
    await settled(w.A.id);
    expect((await log(w.A.id))[0].attempts.map((a: any) => a.status)).toEqual([null]);
  });
});

describe('control endpoints and cancellation', () => {
  it('validates onboarding events and the deliveries query', async () => {
    expect((await w.ctl('POST', '/onboarding-events', { tenantId: w.A.id, type: 'assistant-request' })).status).toBe(400);
    expect((await w.ctl('POST', '/onboarding-events', { tenantId: '00000000-0000-4000-8000-000000000000', type: 'chatapp.onboarding.failed' })).status).toBe(
      404,
    );
    expect((await w.ctl('GET', '/deliveries')).status).toBe(400);
    expect((await w.ctl('GET', `/deliveries?tenantId=${w.B.id}`)).body).toEqual([]);
  });

  it('reset cancels scheduled retries and empties the log', async () => {
    await w.ctl('PUT', '/config', { webhookRetryBaseMs: 30 });
    rx.respond(() => 500);
    await setTenantUrl(w.A.id, rx.origin);
    await onboarding();
    await rx.waitFor((r) => r.length === 1, 'first attempt');
    await pollUntil(() => pendingWork(w.app.sim) === 1, 'retry scheduled');
    expect((await w.ctl('POST', '/reset')).status).toBe(204);
    expect(pendingWork(w.app.sim)).toBe(0);
    expect(await log(w.A.id)).toEqual([]);
    // Bounded negative check: three retry delays pass with no further attempt.
    await expect(rx.waitFor((r) => r.length > 1, 'a retry after reset', 100)).rejects.toThrow(/timed out/);
  });

  it('closing the server cancels scheduled retries', async () => {
    await w.ctl('PUT', '/config', { webhookRetryBaseMs: 10_000 });
    rx.respond(() => 500);
    await setTenantUrl(w.A.id, rx.origin);
    await onboarding();
    await pollUntil(() => rx.received.length === 1 && pendingWork(w.app.sim) === 1, 'retry scheduled');
    await w.app.close();
    expect(pendingWork(w.app.sim)).toBe(0);
  });
});
