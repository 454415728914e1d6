import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from './world.ts';

let w: World;
afterEach(async () => w?.app.close());

const code = (r: { status: number; body: any }) => [r.status, r.body?.error?.code];

describe('§5 authentication', () => {
  it('accepts exactly "ApiKey <key>"', async () => {
    w = await makeWorld();
    const k = w.A.apiKey;
    expect((await w.req('GET', '/assistants', { key: k })).status).toBe(200);
    for (const authorization of [
      `Bearer ${k}`,
      k,
      `apikey ${k}`,
      `APIKEY ${k}`,
      `ApiKey  ${k}`,
      `ApiKey ${k}\n`,
      `ApiKey ${k} `,
      'ApiKey $CORE_API_TENANT_KEY',
      `ApiKey ${w.A.clientServerSecret}`,
      'ApiKey',
    ]) {
      const r = await w.req('GET', '/assistants', { headers: { authorization } });
      expect(code(r), JSON.stringify(authorization)).toEqual([401, 'UNAUTHORIZED']);
    }
    expect(code(await w.req('GET', '/assistants', { headers: { 'x-api-key': k } }))).toEqual([401, 'UNAUTHORIZED']);
    expect(code(await w.req('GET', '/assistants'))).toEqual([401, 'UNAUTHORIZED']);
  });

  it('tenant key: X-Tenant-Id optional, another tenant is 403', async () => {
    w = await makeWorld();
    expect((await w.req('GET', '/assistants', { key: w.A.apiKey, headers: { 'x-tenant-id': w.A.id } })).status).toBe(200);
    expect(code(await w.req('GET', '/assistants', { key: w.A.apiKey, headers: { 'x-tenant-id': w.B.id } }))).toEqual([403, 'FORBIDDEN']);
  });

  it('organization key needs X-Tenant-Id of its own tenant', async () => {
    w = await makeWorld();
    const r = await w.req('GET', '/assistants', { key: w.orgKey });
    expect(code(r)).toEqual([400, 'VALIDATION_ERROR']);
    expect(r.body.error.details[0].field).toBe('X-Tenant-Id');
    expect((await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.B.id } })).status).toBe(200);
    expect(code(await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.F.id } }))).toEqual([403, 'FORBIDDEN']);
    expect(code(await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': '00000000-0000-4000-8000-000000000000' } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
  });

  it('organization key acts in the named tenant', async () => {
    w = await makeWorld();
    const a = await w.assistant(w.A.apiKey);
    const viaOrg = await w.req('GET', `/assistants/${a.id}`, { key: w.orgKey, headers: { 'x-tenant-id': w.A.id } });
    expect(viaOrg.status).toBe(200);
    const wrong = await w.req('GET', `/assistants/${a.id}`, { key: w.orgKey, headers: { 'x-tenant-id': w.B.id } });
    expect(code(wrong)).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });

  it('organization-only routes', async () => {
    w = await makeWorld();
    const routes: [string, string][] = [
      ['POST', '/v1/retention/audits'],
      ['POST', '/v1/churn/audits'],
      ['GET', '/turn-flags'],
      ['POST', '/turn-flags'],
      ['GET', '/transcriber-banks'],
      ['POST', '/transcriber-banks'],
      ['GET', '/full-call-runs'],
      ['POST', '/full-call-runs'],
      ['GET', '/organization/tenants'],
    ];
    for (const [m, p] of routes) {
      const body = m === 'POST' ? {} : undefined;
      const r = await w.req(m, p, { key: w.orgKey, body });
      expect(r.status, `${m} ${p}`).toBeLessThan(300);
      expect(r.body.success).toBe(true);
      expect(code(await w.req(m, p, { key: w.A.apiKey, body }))).toEqual([403, 'ORG_SCOPE_REQUIRED']);
      expect(code(await w.req(m, p, { body }))).toEqual([401, 'UNAUTHORIZED']);
    }
    const tenants = await w.req('GET', '/organization/tenants', { key: w.orgKey });
    expect(tenants.body.data.map((t: any) => t.id).sort()).toEqual([w.A.id, w.B.id].sort());
  });

  it('transcriber catalogue: organization key without X-Tenant-Id, and tenant keys', async () => {
    w = await makeWorld();
    const list = await w.req('GET', '/transcribers', { key: w.orgKey });
    expect(list.status).toBe(200);
    for (const t of list.body.data) expect(typeof t.language).toBe('string');
    expect((await w.req('GET', '/transcribers', { key: w.A.apiKey })).status).toBe(200);
    const id = list.body.data[0].id;
    expect((await w.req('GET', `/transcribers/${id}`, { key: w.orgKey })).body.data.id).toBe(id);
    expect(code(await w.req('GET', '/transcribers/00000000-0000-4000-8000-000000000000', { key: w.orgKey }))).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });

  it('unknown route: 401 without credentials, NOT_FOUND with them', async () => {
    w = await makeWorld();
    expect(code(await w.req('GET', '/no/such/route'))).toEqual([401, 'UNAUTHORIZED']);
    expect(code(await w.req('GET', '/no/such/route', { key: w.A.apiKey }))).toEqual([404, 'NOT_FOUND']);
    expect(code(await w.req('DELETE', '/assistants', { key: w.A.apiKey }))).toEqual([404, 'NOT_FOUND']);
  });
});
