/** §1, §4.5 calls and conversations; control calls with the per-call configuration snapshot and events. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { store } from '../src/state.ts';
import { liveCall } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

describe('calls', () => {
  it('a call reads live, then ended with summary, analysis and recording link', async () => {
    const a = await w.assistant(w.A.apiKey, { recordingEnabled: true, endOfCallMessage: 'Bye now.' });
    const c = await liveCall(w, w.A, a.id, { customerNumber: '+14155550123' });
    expect(c.callId).not.toBe(c.id);
    let r = await w.req('GET', `/calls/${c.id}`, { key: w.A.apiKey });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: c.id, callId: c.callId, status: 'live', summary: null, recordingUrl: null, customerNumber: '+14155550123' });
    expect(r.body.data.transcript.length).toBeGreaterThan(0);
    const live = await w.req('GET', '/calls/live', { key: w.A.apiKey });
    expect(live.body.data).toEqual([expect.objectContaining({ id: c.id, callId: c.callId })]);
    expect((await w.ctl('POST', `/calls/${c.id}/end`, { supervisorAnswered: true })).status).toBe(200);
    r = await w.req('GET', `/calls/${c.id}`, { key: w.A.apiKey });
    expect(r.body.data.status).toBe('ended');
    expect(typeof r.body.data.summary).toBe('string');
    expect(r.body.data.analysis).toBeTypeOf('object');
    expect(r.body.data.recordingUrl).toMatch(/^https:\/\//);
    expect(r.body.data.transcript.at(-1).text).toBe('Bye now.');
    expect((await w.req('GET', '/calls/live', { key: w.A.apiKey })).body.data).toEqual([]);
    expect((await w.req('GET', '/calls', { key: w.A.apiKey })).body.data.map((x: any) => x.id)).toEqual([c.id]);
  });

  it('the support callId is never accepted in a path', async () => {
    const c = await liveCall(w, w.A);
    const unknown = await w.req('GET', `/calls/0d9c3a5e-1111-4222-8333-444455556666`, { key: w.A.apiKey });
    const viaCallId = await w.req('GET', `/calls/${c.callId}`, { key: w.A.apiKey });
    expect(viaCallId.status).toBe(404);
    expect(viaCallId.body.error).toEqual(unknown.body.error);
    expect((await w.req('POST', `/calls/${c.callId}/end`, { key: w.A.apiKey })).raw).toBe('{"error":"not_found"}');
  });

  it('conversations are read through /conversations only', async () => {
    const a = await w.assistant(w.A.apiKey);
    const conv = await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'sms', customerIdentifier: '+14155550000' });
    expect(conv.status).toBe(201);
    const list = await w.req('GET', '/conversations', { key: w.A.apiKey });
    expect(list.body.data).toEqual([expect.objectContaining({ id: conv.body.id, channel: 'sms', customerIdentifier: '+14155550000', status: 'active' })]);
    expect((await w.req('GET', '/calls', { key: w.A.apiKey })).body.data).toEqual([]);
    expect((await w.req('GET', `/calls/${conv.body.id}`, { key: w.A.apiKey })).status).toBe(404);
    expect((await w.ctl('POST', `/conversations/${conv.body.id}/end`)).status).toBe(200);
    expect((await w.req('GET', '/conversations', { key: w.A.apiKey })).body.data[0].status).toBe('ended');
  });

  it('a call keeps the configuration it began with (§1): snapshot and event routing', async () => {
    await w.ctl('POST', '/dns', { hostname: 'hooks.example.com', addresses: ['93.184.216.34'] });
    const a = await w.assistant(w.A.apiKey, { serverUrl: 'https://hooks.example.com/first', firstMessage: 'Hi from v1' });
    const c = await liveCall(w, w.A, a.id);
    await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { serverUrl: 'https://hooks.example.com/second', firstMessage: 'v2' } });
    const rec = store.calls(w.app.sim).get(c.id)!;
    expect(rec.serverUrl).toBe('https://hooks.example.com/first');
    expect(rec.config.firstMessage).toBe('Hi from v1');
    await w.ctl('POST', `/calls/${c.id}/end`, {});
    const d = (await w.ctl('GET', `/deliveries?tenantId=${w.A.id}`)).body;
    expect(d.map((x: any) => [x.type, x.model, x.url])).toEqual([
      ['assistant-request', 'A', 'https://hooks.example.com/first'],
      ['end-of-call-report', 'A', 'https://hooks.example.com/first'],
    ]);
  });

  it('control errors are plain JSON', async () => {
    const a = await w.assistant(w.A.apiKey);
    expect((await w.ctl('POST', '/calls', { tenantId: w.B.id, assistantId: a.id })).status).toBe(404);
    expect((await w.ctl('POST', '/calls', { tenantId: w.A.id })).status).toBe(400);
    expect((await w.ctl('POST', '/calls/nope/end', {})).status).toBe(404);
    const c = await liveCall(w, w.A, a.id);
    expect((await w.ctl('POST', `/calls/${c.id}/agent-absent`, { absent: 'yes' })).status).toBe(400);
    expect((await w.ctl('POST', '/tool-invocations', { callId: c.id, toolId: '0d9c3a5e-1111-4222-8333-444455556666' })).status).toBe(404);
  });
});
