/**
 * §5.7, §7 exception 2: for every surface route with an id, an unknown id, another tenant's id
 * (and, for calls, a deleted one) answer identically; writes on another tenant's resources take
 * no effect; lists stay within the tenant.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { comparable, endedCall, INSTRUCTION, liveCall, number, TEXT_INSTRUCTION, tool } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(async () => w.app.close());

const UNKNOWN = '0d9c3a5e-1111-4222-8333-444455556666';

describe('unknown, foreign and deleted ids answer alike', () => {
  it('every id route', async () => {
    const mineA = await w.assistant(w.A.apiKey);
    const bAssistant = await w.assistant(w.B.apiKey);
    const bCall = await liveCall(w, w.B, bAssistant.id);
    const bEnded = await endedCall(w, w.B, bAssistant.id);
    const deleted = await liveCall(w, w.A, mineA.id);
    expect((await w.ctl('DELETE', `/calls/${deleted.id}`)).status).toBe(204);
    const bTool = await tool(w, w.B);
    const bPrompt = (await w.req('POST', '/prompts', { key: w.B.apiKey, body: { type: 'chat', content: 'x' } })).body.data;
    const bSuite = (await w.req('POST', '/test-suites', { key: w.B.apiKey, body: { assistantId: bAssistant.id, cases: [] } })).body.data;
    const bRun = (await w.req('POST', `/test-suites/${bSuite.id}/run`, { key: w.B.apiKey })).body.data;
    const myTool = await tool(w, w.A);

    interface Row {
      method: string;
      path: (id: string) => string;
      body?: unknown;
      ids: string[];
    }
    const calls = [bCall.id, bEnded.id, deleted.id];
    const rows: Row[] = [
      { method: 'GET', path: (id) => `/calls/${id}`, ids: calls },
      { method: 'GET', path: (id) => `/calls/${id}/insights`, ids: calls },
      { method: 'GET', path: (id) => `/calls/${id}/monitor-sessions`, ids: calls },
      { method: 'POST', path: (id) => `/calls/${id}/monitor-session`, body: { actorLabel: 'x' }, ids: calls },
      { method: 'DELETE', path: (id) => `/calls/${id}/monitor-session`, ids: calls },
      { method: 'POST', path: (id) => `/calls/${id}/takeover`, body: { actorLabel: 'x' }, ids: calls },
      { method: 'POST', path: (id) => `/calls/${id}/end`, body: { actorLabel: 'x' }, ids: calls },
      { method: 'PUT', path: (id) => `/tools/${id}`, body: { name: 'stolen' }, ids: [bTool.id] },
      { method: 'PUT', path: (id) => `/tools/${id}/instruction`, body: INSTRUCTION, ids: [bTool.id] },
      { method: 'GET', path: (id) => `/tools/${id}`, ids: [bTool.id] },
      { method: 'GET', path: (id) => `/prompts/${id}`, ids: [bPrompt.id] },
      { method: 'GET', path: (id) => `/test-suites/${id}`, ids: [bSuite.id] },
      { method: 'POST', path: (id) => `/test-suites/${id}/run`, ids: [bSuite.id] },
      { method: 'GET', path: (id) => `/test-runs/${id}`, ids: [bRun.id] },
      { method: 'PATCH', path: (id) => `/assistants/${id}/chatapp-enabled`, body: { enabled: false }, ids: [bAssistant.id] },
      { method: 'GET', path: (id) => `/assistants/${id}/tasks/overrides`, ids: [bAssistant.id] },
      { method: 'PUT', path: (id) => `/assistants/${id}/tools/${myTool.id}/description-override`, body: { description: 'd' }, ids: [bAssistant.id] },
      { method: 'GET', path: (id) => `/assistants/${id}/tools/${myTool.id}/text-override`, ids: [bAssistant.id] },
      { method: 'DELETE', path: (id) => `/assistants/${id}/tools/${myTool.id}/text-override`, ids: [bAssistant.id] },
      { method: 'PUT', path: (id) => `/assistants/${mineA.id}/tools/${id}/text-description-override`, body: { description: 'd' }, ids: [bTool.id] },
      { method: 'PUT', path: (id) => `/assistants/${mineA.id}/tools/${id}/steps/s1/text-override`, body: { text: 't' }, ids: [bTool.id] },
      { method: 'DELETE', path: (id) => `/assistants/${mineA.id}/tools/${id}/steps/s1/text-override`, ids: [bTool.id] },
    ];
    for (const row of rows) {
      const base = comparable(await w.req(row.method, row.path(UNKNOWN), { key: w.A.apiKey, body: row.body }));
      expect((base as { status: number }).status, `${row.method} ${row.path(UNKNOWN)}`).toBe(404);
      for (const id of row.ids) {
        const other = comparable(await w.req(row.method, row.path(id), { key: w.A.apiKey, body: row.body }));
        expect(other, `${row.method} ${row.path(id)}`).toEqual(base);
      }
    }
  });

  it('bare 404 bodies are byte-identical', async () => {
    const b = await liveCall(w, w.B);
    for (const action of ['monitor-session', 'takeover', 'end']) {
      for (const id of [UNKNOWN, b.id, 'not-a-uuid']) {
        const r = await w.req('POST', `/calls/${id}/${action}`, { key: w.A.apiKey });
        expect(r.status).toBe(404);
        expect(r.raw).toBe('{"error":"not_found"}');
      }
    }
  });

  it('SMS fromNumber: unknown, deleted and foreign answer alike', async () => {
    await number(w, w.B, '+14155551001');
    const gone = await number(w, w.A, '+14155551002');
    await w.ctl('DELETE', `/phone-numbers/${gone.id}`);
    const send = (fromNumber: string) => w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber, toNumber: '+14155559999', message: 'hi' } });
    const base = comparable(await send('+14155551000'));
    expect((base as { status: number }).status).toBe(404);
    expect(comparable(await send('+14155551001'))).toEqual(base);
    expect(comparable(await send('+14155551002'))).toEqual(base);
  });

  it('batch insights: a foreign id reads as an unknown one', async () => {
    const b = await endedCall(w, w.B);
    const r = await w.req('GET', `/calls/insights?ids=${UNKNOWN},${b.id}`, { key: w.A.apiKey });
    expect(r.status).toBe(200);
    expect(r.body.data.missing).toEqual([
      { id: UNKNOWN, reason: 'call_not_found' },
      { id: b.id, reason: 'call_not_found' },
    ]);
  });
});

describe('no cross-tenant effect', () => {
  it('writes on B resources change nothing', async () => {
    const bAssistant = await w.assistant(w.B.apiKey);
    const bTool = await tool(w, w.B, { name: 'b-tool', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    const bCall = await liveCall(w, w.B, bAssistant.id);
    await w.req('PUT', `/tools/${bTool.id}`, { key: w.A.apiKey, body: { name: 'stolen', textInstructions: null } });
    await w.req('POST', `/calls/${bCall.id}/end`, { key: w.A.apiKey });
    await w.req('POST', `/calls/${bCall.id}/monitor-session`, { key: w.A.apiKey, body: { actorLabel: 'spy' } });
    const t = await w.req('GET', `/tools/${bTool.id}`, { key: w.B.apiKey });
    expect(t.body.data.name).toBe('b-tool');
    expect(t.body.data.textInstructions).not.toBeNull();
    const c = await w.req('GET', `/calls/${bCall.id}`, { key: w.B.apiKey });
    expect(c.body.data.status).toBe('live');
    expect((await w.req('GET', `/calls/${bCall.id}/monitor-sessions`, { key: w.B.apiKey })).body.data).toEqual([]);
  });

  it('Knowledge Base tool: A writing its copy leaves B on the default', async () => {
    const kb = (await w.req('GET', '/tools', { key: w.A.apiKey })).body.data.find((t: any) => t.type === 'knowledge_base');
    const before = (await w.req('GET', `/tools/${kb.id}`, { key: w.B.apiKey })).body.data;
    const r = await w.req('PUT', `/tools/${kb.id}/instruction`, { key: w.A.apiKey, body: { ...INSTRUCTION, textInstructions: TEXT_INSTRUCTION } });
    expect(r.status).toBe(200);
    expect(r.body.data.instruction.title).toBe(INSTRUCTION.title);
    expect((await w.req('GET', `/tools/${kb.id}`, { key: w.B.apiKey })).body.data).toEqual(before);
  });

  it('lists stay within the tenant; an org key with X-Tenant-Id sees that tenant only', async () => {
    const a = await liveCall(w, w.A);
    const b = await liveCall(w, w.B);
    await w.ctl('POST', '/conversations', {
      tenantId: w.B.id,
      assistantId: (await w.assistant(w.B.apiKey)).id,
      channel: 'web',
      customerIdentifier: 'visitor-1',
    });
    await w.req('POST', '/prompts', { key: w.B.apiKey, body: { type: 'ivr' } });
    for (const path of ['/calls', '/calls/live', '/conversations', '/prompts', '/test-suites', '/test-runs']) {
      for (const key of [w.A.apiKey]) {
        const r = await w.req('GET', path, { key });
        expect(r.status, path).toBe(200);
        expect(JSON.stringify(r.body.data), path).not.toContain(b.id);
        expect(r.body.data.every((x: any) => x.id !== b.id)).toBe(true);
      }
    }
    const viaOrg = await w.req('GET', '/calls', { key: w.orgKey, headers: { 'x-tenant-id': w.A.id } });
    expect(viaOrg.body.data.map((c: any) => c.id)).toEqual([a.id]);
    expect((await w.req('GET', '/conversations', { key: w.A.apiKey })).body.data).toEqual([]);
  });
});
