/**
 * The suite's webhook receiver (helpers/webhooks/receiver.ts) and the guide's example receiver
 * (tools/example-receiver.ts, shown in docs/webhooks.md): raw bytes kept, answers chosen
 * per path, event-driven waits with deadlines, down endpoints refusing, and the integrator pattern
 * (verify before parse, dedupe on the delivery id, empty 2xx) working end to end. §6.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request } from 'undici';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { WebhookReceiver, WaitTimeoutError, downEndpoint, isRefusing, jsonOf, describeRequest } from '../../helpers/webhooks/receiver';
import { createWebhookServer, type VerifiedEvent } from '../../tools/example-receiver';
import { signModelB } from '../../helpers/webhooks/verify';

describe('WebhookReceiver', () => {
  let rx: WebhookReceiver;
  beforeAll(async () => {
    rx = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await rx.close();
  });

  test('keeps the raw bytes, headers, method and path; answers per path from a queue', async () => {
    rx.route('/q', WebhookReceiver.queue([500, 503], 204));
    const raw = Buffer.from('{ "type" :"x",\n "n": 1.50 }', 'utf8');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(rx.url('/q?try=' + i), {
        method: 'POST',
        body: raw,
        headers: { 'content-type': 'application/json', 'X-Service-Delivery': 'd-1' },
      });
      await res.body.text();
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([500, 503, 204, 204]);
    const got = rx.at('/q');
    expect(got).toHaveLength(4);
    expect(got[0].body.equals(raw)).toBe(true);
    expect(got[0].method).toBe('POST');
    expect(got[0].path).toBe('/q?try=0');
    expect(got[0].headers['x-service-delivery']).toBe('d-1');
    expect(got[0].rawHeaders).toContain('X-Service-Delivery');
    expect(got.map((r) => r.answeredStatus)).toEqual([500, 503, 204, 204]);
    expect(got[1].arrivedAtMs).toBeGreaterThan(got[0].arrivedAtMs);
    expect(jsonOf(got[0])).toEqual({ type: 'x', n: 1.5 });
    expect(describeRequest(got[0])).toContain('/q?try=0 -> 500');
  });

  test('answers a JSON body when asked', async () => {
    rx.route('/json', () => ({ status: 200, body: { overrides: { voice: 'v' } } }));
    const res = await request(rx.url('/json'), { method: 'POST', body: '{}' });
    expect(res.headers['content-type']).toBe('application/json');
    expect(await res.body.json()).toEqual({ overrides: { voice: 'v' } });
  });

  test('waitFor resolves on arrival and times out with what arrived', async () => {
    const waiting = rx.waitFor((all) => all.some((r) => r.path === '/late'), 2_000, 'a request at /late');
    setTimeout(() => void request(rx.url('/late'), { method: 'POST', body: 'x' }).then((r) => r.body.text()), 20);
    const seen = await waiting;
    expect(seen.some((r) => r.path === '/late')).toBe(true);
    await expect(rx.waitFor(() => false, 50, 'nothing')).rejects.toBeInstanceOf(WaitTimeoutError);
  });

  test('holdsOff reports a violation as soon as it happens, or none after the window', async () => {
    const quiet = await rx.holdsOff((all) => all.some((r) => r.path === '/never'), 60);
    expect(quiet.violated).toBe(false);
    const p = rx.holdsOff((all) => all.some((r) => r.path === '/soon'), 5_000);
    await request(rx.url('/soon'), { method: 'POST', body: 'x' }).then((r) => r.body.text());
    const started = performance.now();
    expect((await p).violated).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("'hang' holds the request past a client's timeout", async () => {
    rx.route('/hang', () => ({ hang: true, holdMs: 2_000 }));
    await expect(request(rx.url('/hang'), { method: 'POST', body: 'x', headersTimeout: 100 })).rejects.toThrow();
    expect(rx.at('/hang')[0].answeredStatus).toBeUndefined();
  });

  test('a down endpoint refuses connections', async () => {
    const down = await downEndpoint();
    expect(await isRefusing(down.port)).toBe(true);
    expect(await isRefusing(rx.port)).toBe(false);
    await expect(request(down.origin + '/x', { method: 'POST', body: 'x' })).rejects.toThrow();
  });
});

describe('the guide example receiver (docs/webhooks.md)', () => {
  const secret = 'css_guide_example_4d1f9b2a7c';
  const events: VerifiedEvent[] = [];
  let origin: string;
  let server: ReturnType<typeof createWebhookServer>;
  beforeAll(async () => {
    server = createWebhookServer({
      clientServerSecret: secret,
      onEvent: (e) => void events.push(e),
      assistantRequest: () => ({ overrides: { model: { settings: { temperature: 0.2 } } } }),
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const post = async (body: string | Buffer, headers: Record<string, string>) => {
    const res = await request(origin + '/hooks', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: res.statusCode, text: await res.body.text() };
  };
  const settle = () => new Promise((r) => setImmediate(r));

  test('model A: the right secret is accepted with an empty 2xx; a wrong one refused', async () => {
    expect(await post('{"type":"end-of-call-report","call_id":"c1"}', { 'x-service-core-secret': secret })).toEqual({ status: 200, text: '' });
    expect((await post('{"type":"end-of-call-report"}', { 'x-service-core-secret': 'nope-nope' })).status).toBe(401);
    expect((await post('{"type":"end-of-call-report"}', {})).status).toBe(401);
  });

  test('model A assistant-request gets the overrides', async () => {
    const res = await post('{"type":"assistant-request","call_id":"c2"}', { 'x-service-core-secret': secret });
    expect(JSON.parse(res.text)).toEqual({ overrides: { model: { settings: { temperature: 0.2 } } } });
  });

  test('model B: verified on raw bytes, re-serialised refused, retries processed once', async () => {
    const raw = Buffer.from('{\n  "type": "chatapp.onboarding.completed"\n}', 'utf8');
    const id = randomUUID();
    const headers = { 'x-service-signature': signModelB(raw, secret), 'x-service-delivery': id };
    const before = events.length;
    for (let i = 0; i < 3; i++) expect((await post(raw, headers)).status).toBe(200);
    const reserialised = JSON.stringify(JSON.parse(raw.toString('utf8')));
    expect((await post(reserialised, headers)).status).toBe(401);
    await settle();
    const mine = events.slice(before).filter((e) => e.deliveryId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0].body.type).toBe('chatapp.onboarding.completed');
  });
});
