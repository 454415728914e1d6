import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from './world.ts';

let w: World;
afterEach(async () => w?.app.close());

describe('control API', () => {
  it('health, config defaults, reset', async () => {
    w = await makeWorld();
    expect((await w.ctl('GET', '/health')).body).toEqual({ ok: true, contract: 1 });
    const cfg = await w.ctl('PUT', '/config', { insightsDelayMs: 50, version: '9.9', bogus: 1 });
    expect(cfg.status).toBe(200);
    expect(cfg.body).toEqual({
      webhookRetryBaseMs: 1000,
      webhookTimeoutMs: 5000,
      webhookConnectTo: {},
      insightsDelayMs: 50,
      monitorMintsPerMinute: 30,
      monitorSlotsPerCall: 2,
      version: '9.9',
      faults: [],
      chaos: null,
      personality: 'default',
    });
    const r = await w.req('GET', '/assistants', { key: w.A.apiKey });
    expect(r.body.metadata.version).toBe('9.9');
    expect((await w.ctl('POST', '/reset')).status).toBe(204);
    expect((await w.ctl('PUT', '/config', {})).body.version).not.toBe('9.9');
    expect((await w.req('GET', '/assistants', { key: w.A.apiKey })).status).toBe(401);
  });

  it('config errors are 400 {error} and apply nothing', async () => {
    w = await makeWorld();
    const r = await w.ctl('PUT', '/config', { insightsDelayMs: 5, faults: ['no.such.fault'] });
    expect(r.status).toBe(400);
    expect(typeof r.body.error).toBe('string');
    expect((await w.ctl('PUT', '/config', {})).body.insightsDelayMs).toBe(0);
    expect((await w.ctl('PUT', '/config', { webhookTimeoutMs: 'x' })).status).toBe(400);
  });

  it('tenants need a known organization; errors are plain JSON', async () => {
    w = await makeWorld();
    expect((await w.ctl('POST', '/tenants', {})).status).toBe(400);
    const r = await w.ctl('POST', '/tenants', { organizationId: '00000000-0000-4000-8000-000000000000' });
    expect(r.status).toBe(404);
    expect(Object.keys(r.body)).toEqual(['error']);
    const bad = await w.app.inject({ method: 'POST', url: '/__control/tenants', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).error).toBeTypeOf('string');
    expect((await w.ctl('GET', '/nothing')).status).toBe(404);
  });

  it('rotates tenant and organization keys', async () => {
    w = await makeWorld();
    const t = await w.ctl('POST', '/keys/rotate', { apiKey: w.A.apiKey });
    expect(t.status).toBe(200);
    expect((await w.req('GET', '/assistants', { key: w.A.apiKey })).status).toBe(401);
    expect((await w.req('GET', '/assistants', { key: t.body.apiKey })).status).toBe(200);
    const o = await w.ctl('POST', '/keys/rotate', { apiKey: w.orgKey });
    expect((await w.req('GET', '/organization/tenants', { key: w.orgKey })).status).toBe(401);
    expect((await w.req('GET', '/organization/tenants', { key: o.body.apiKey })).status).toBe(200);
    expect((await w.ctl('POST', '/keys/rotate', { apiKey: w.A.apiKey })).status).toBe(404);
  });

  it('server-url, dns, phone numbers, removed tenant', async () => {
    w = await makeWorld();
    expect((await w.ctl('PUT', `/tenants/${w.A.id}/server-url`, { url: 'http://127.0.0.1:9/hook' })).status).toBe(204);
    expect(w.app.sim.tenants.get(w.A.id)?.serverUrl).toBe('http://127.0.0.1:9/hook');
    expect((await w.ctl('PUT', `/tenants/${w.A.id}/server-url`, { url: null })).status).toBe(204);
    expect(w.app.sim.tenants.get(w.A.id)?.serverUrl).toBeNull();
    expect((await w.ctl('PUT', `/tenants/${w.A.id}/server-url`, { url: 'ftp://x' })).status).toBe(400);
    expect((await w.ctl('PUT', `/tenants/nope/server-url`, { url: null })).status).toBe(404);
    expect((await w.ctl('POST', '/dns', { hostname: 'Hooks.Example.com', addresses: ['203.0.113.5'] })).status).toBe(204);
    expect(w.app.sim.resolve('hooks.example.com.')).toEqual(['203.0.113.5']);
    expect((await w.ctl('POST', '/dns', { hostname: 'x', addresses: ['not-ip'] })).status).toBe(400);
    const pn = await w.ctl('POST', '/phone-numbers', { tenantId: w.A.id, number: '+14155550123', smsEnabled: true });
    expect(pn.status).toBe(201);
    expect(pn.body.number).toBe('+14155550123');
    expect((await w.ctl('POST', '/phone-numbers', { tenantId: w.A.id, number: '0800' })).status).toBe(400);
    expect((await w.ctl('DELETE', `/phone-numbers/${pn.body.id}`)).status).toBe(204);
    expect(w.app.sim.phoneNumbers.get(pn.body.id)?.deleted).toBe(true);
    expect((await w.ctl('DELETE', `/tenants/${w.B.id}`)).status).toBe(204);
    expect((await w.req('GET', '/assistants', { key: w.B.apiKey })).status).toBe(401);
    const r = await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.B.id } });
    expect([r.status, r.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('task overrides are stored and read back through §4.2', async () => {
    w = await makeWorld();
    const a = await w.assistant(w.A.apiKey);
    const o = await w.ctl('POST', '/task-overrides', { assistantId: a.id, instructionOverride: 'be brief' });
    expect(o.status).toBe(201);
    expect(Object.keys(o.body).sort()).toEqual(['assistantId', 'instructionOverride', 'overrideId', 'taskId', 'taskgroupId']);
    const r = await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.A.apiKey });
    expect(r.body.data).toEqual([o.body]);
    expect((await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.B.apiKey })).status).toBe(404);
    expect((await w.ctl('POST', '/task-overrides', { assistantId: 'nope' })).status).toBe(404);
  });

  it('lists faults with clauses', async () => {
    w = await makeWorld();
    const r = await w.ctl('GET', '/faults');
    expect(r.body.length).toBeGreaterThanOrEqual(16);
    for (const f of r.body) {
      expect(f.name).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
      expect(f.clauses.length).toBeGreaterThan(0);
      expect(f.description).toBeTypeOf('string');
    }
  });
});
