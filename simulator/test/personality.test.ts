import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from './world.ts';
import { maxRetries } from '../src/webhooks/delivery.ts';
import { randomUUID } from 'node:crypto';

let w: World;
afterEach(async () => w?.app.close());

/** Creates an assistant whatever 2xx the personality answers. */
async function assistant(key: string, body: Record<string, unknown> = {}): Promise<any> {
  const r = await w.req('POST', '/assistants', { key, body: { name: 'p', ...body } });
  expect(r.status >= 200 && r.status < 300, r.raw).toBe(true);
  return r;
}

describe('alt personality: a different reasonable choice wherever the spec leaves one', () => {
  it('is chosen at build time, by the control config, and survives a reset', async () => {
    w = await makeWorld({ personality: 'alt' });
    expect((await w.ctl('PUT', '/config', {})).body.personality).toBe('alt');
    await w.ctl('POST', '/reset');
    expect((await w.ctl('PUT', '/config', {})).body.personality).toBe('alt');
    expect((await w.ctl('PUT', '/config', { personality: 'other' })).status).toBe(400);
  });

  it('swaps 200 and 201 on creates (§4: no status stated)', async () => {
    w = await makeWorld();
    expect((await assistant(w.A.apiKey)).status).toBe(201);
    await w.ctl('PUT', '/config', { personality: 'alt' });
    expect((await assistant(w.A.apiKey)).status).toBe(200);
  });

  it('adds an undocumented field changed by every write and one changed by every read (§9.4)', async () => {
    w = await makeWorld({ personality: 'alt' });
    const id = (await assistant(w.A.apiKey)).body.data.id;
    const r1 = await w.req('GET', `/assistants/${id}`, { key: w.A.apiKey });
    const r2 = await w.req('GET', `/assistants/${id}`, { key: w.A.apiKey });
    expect(r1.body.data.revision).toBe(r2.body.data.revision);
    expect(r1.body.data.servedAt).not.toBe(r2.body.data.servedAt);
    await w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body: { firstMessage: 'x' } });
    const r3 = await w.req('GET', `/assistants/${id}`, { key: w.A.apiKey });
    expect(r3.body.data.revision).toBe(r1.body.data.revision + 1);
  });

  it('orders keys and the assistant list otherwise, wraps lists with extra keys, and writes timestamps in other §2.2 forms', async () => {
    w = await makeWorld();
    const a = (await assistant(w.A.apiKey)).body.data.id;
    const b = (await assistant(w.A.apiKey)).body.data.id;
    const before = (await w.req('GET', '/assistants', { key: w.A.apiKey })).body.data;
    const one = (await w.req('GET', `/assistants/${a}`, { key: w.A.apiKey })).body.data;
    await w.ctl('PUT', '/config', { personality: 'alt' });
    const after = (await w.req('GET', '/assistants', { key: w.A.apiKey })).body.data;
    expect(after.assistants.map((x: any) => x.id)).toEqual([...before.assistants.map((x: any) => x.id)].reverse());
    expect(after).toMatchObject({ total: 2, nextCursor: null });
    expect(before.total).toBeUndefined();
    const alt = (await w.req('GET', `/assistants/${a}`, { key: w.A.apiKey })).body.data;
    expect(Object.keys(alt)[0]).not.toBe(Object.keys(one)[0]);
    expect(alt.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(typeof alt.updatedAt).toBe('number');
    expect(typeof one.createdAt).toBe('string');
    expect([a, b]).toContain(alt.id);
  });

  it('names unstated parts otherwise: test-run outcome under `result`, live rows carry the call id under `callUuid`', async () => {
    w = await makeWorld({ personality: 'alt' });
    const id = (await assistant(w.A.apiKey)).body.data.id;
    const call = (await w.ctl('POST', '/calls', { tenantId: w.A.id, assistantId: id, customerNumber: '+15555550123' })).body;
    const live = (await w.req('GET', '/calls/live', { key: w.A.apiKey })).body.data;
    const rows = (Array.isArray(live) ? live : Object.values(live).find(Array.isArray)) as any[];
    expect(rows.some((r: any) => r.callUuid === call.id && r.id === undefined)).toBe(true);
  });

  it('validates before the lookup, words error messages otherwise (keeping the stated one), and adds headers', async () => {
    w = await makeWorld();
    const unknown = randomUUID();
    const bad = { idleTimeoutSeconds: 999 };
    const d = await w.req('PATCH', `/assistants/${unknown}`, { key: w.A.apiKey, body: bad });
    expect(d.status).toBe(404);
    expect(String(d.headers['content-type'])).toContain('charset');
    await w.ctl('PUT', '/config', { personality: 'alt' });
    const a = await w.req('PATCH', `/assistants/${unknown}`, { key: w.A.apiKey, body: bad });
    expect(a.status).toBe(400);
    expect(a.body.error.code).toBe('VALIDATION_ERROR');
    expect(a.body.error.message).not.toBe(d.body.error.message);
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.headers['x-request-id']).toBeDefined();
    const nf = await w.req('PATCH', `/assistants/${unknown}`, { key: w.A.apiKey, body: {} });
    expect(nf.status).toBe(404);
  });

  it('reads "retried up to 5 times" as 5 attempts in all where the default makes 6', async () => {
    w = await makeWorld();
    expect(maxRetries(w.app.sim, 'B')).toBe(5);
    await w.ctl('PUT', '/config', { personality: 'alt' });
    expect(maxRetries(w.app.sim, 'B')).toBe(4);
    expect(maxRetries(w.app.sim, 'A')).toBe(0);
  });
});
