/** §2.9, §4.3, §4.4: SMS reasons and SMS sending. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { number } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

const NINE = ['id', 'name', 'reason', 'message', 'assistantId', 'content', 'properties', 'createdAt', 'updatedAt'];

describe('SMS reasons', () => {
  it('every request field optional; all nine fields answered', async () => {
    const empty = await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: {} });
    expect(empty.status).toBe(201);
    expect(Object.keys(empty.body.data).sort()).toEqual([...NINE].sort());
    const a = await w.assistant(w.A.apiKey);
    const full = await w.req('POST', '/sms-reasons', {
      key: w.A.apiKey,
      body: { name: 'n', reason: 'r', message: 'm', assistantId: a.id, content: 'c', properties: { k: [1] } },
    });
    expect(full.body.data).toMatchObject({ name: 'n', reason: 'r', message: 'm', assistantId: a.id, content: 'c', properties: { k: [1] } });
    expect((await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: { name: 5 } })).status).toBe(400);
    const b = await w.assistant(w.B.apiKey);
    expect((await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: { assistantId: b.id } })).status).toBe(404);
  });
});

describe('POST /sms', () => {
  const send = (body: unknown) => w.req('POST', '/sms', { key: w.A.apiKey, body });

  it('1 to 1600 characters; messageSid on success', async () => {
    await number(w, w.A, '+14155551111');
    const base = { fromNumber: '+14155551111', toNumber: '+14155552222' };
    const okr = await send({ ...base, message: 'x'.repeat(1600) });
    expect(okr.status).toBe(201);
    expect(okr.body.data.messageSid).toMatch(/^SM/);
    expect((await send({ ...base, message: '😀'.repeat(1600) })).status).toBe(201);
    for (const message of ['', 'x'.repeat(1601), undefined, 7]) {
      const r = await send({ ...base, message });
      expect(r.status).toBe(400);
      expect(r.body.error.details).toEqual([expect.objectContaining({ field: 'message' })]);
    }
    const all = await send({});
    expect(all.body.error.details.map((d: any) => d.field).sort()).toEqual(['fromNumber', 'message', 'toNumber']);
  });

  it('a number without SMS enabled is a validation error of the caller (reading)', async () => {
    await number(w, w.A, '+14155553333', { smsEnabled: false });
    const r = await send({ fromNumber: '+14155553333', toNumber: '+14155552222', message: 'hi' });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([expect.objectContaining({ field: 'fromNumber' })]);
  });
});
