import type { FastifyPluginAsync } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from './world.ts';

let w: World;
afterEach(async () => w?.app.close());

const boom: FastifyPluginAsync = async (app) => {
  app.get('/__test/boom', async () => {
    throw new Error('secret internal detail at /srv/db.ts:42');
  });
};

function expectMetadata(body: any, path: string): void {
  expect(body.metadata.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  expect(typeof body.metadata.version).toBe('string');
  expect(body.metadata.path).toBe(path);
}

describe('§2.1 / §7 envelope', () => {
  it('success envelope', async () => {
    w = await makeWorld();
    const r = await w.req('GET', '/assistants?limit=5', { key: w.A.apiKey });
    expect(r.body.success).toBe(true);
    expect(r.body.data).toEqual({ assistants: [] });
    expectMetadata(r.body, '/assistants');
    expect(String(r.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('400 PARSE for a body that is not JSON, after auth', async () => {
    w = await makeWorld();
    const r = await w.req('POST', '/assistants', { key: w.A.apiKey, raw: '{"name": ' });
    expect([r.status, r.body.error.code, r.body.success]).toEqual([400, 'PARSE', false]);
    expectMetadata(r.body, '/assistants');
    expect((await w.req('POST', '/assistants', { raw: '{' })).status).toBe(401);
    const t = await w.req('POST', '/assistants', { key: w.A.apiKey, raw: 'nope', headers: { 'content-type': 'text/plain' } });
    expect(t.body.error.code).toBe('PARSE');
  });

  it('generic 500 never leaks internals', async () => {
    w = await makeWorld({ plugins: [boom] });
    const r = await w.req('GET', '/__test/boom', { key: w.A.apiKey });
    expect([r.status, r.body.error.code]).toEqual([500, 'INTERNAL_SERVER_ERROR']);
    expect(r.raw).not.toContain('secret');
    expect(r.raw).not.toContain('stack');
  });

  it('validation errors list one detail per field', async () => {
    w = await makeWorld();
    const a = await w.assistant(w.A.apiKey);
    const r = await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { name: 5, recordingEnabled: 'yes', idleTimeoutSeconds: 99 } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details.map((d: any) => d.field).sort()).toEqual(['idleTimeoutSeconds', 'name', 'recordingEnabled']);
    for (const d of r.body.error.details) expect(typeof d.message).toBe('string');
  });

  it('cross-tenant and unknown ids answer identically (§5.7)', async () => {
    w = await makeWorld();
    const b = await w.assistant(w.B.apiKey);
    const foreign = await w.req('GET', `/assistants/${b.id}`, { key: w.A.apiKey });
    const unknown = await w.req('GET', '/assistants/3f0c2a9e-1b7d-4c1e-9d7e-2a1b3c4d5e6f', { key: w.A.apiKey });
    const malformed = await w.req('GET', '/assistants/not-a-uuid', { key: w.A.apiKey });
    for (const r of [foreign, unknown, malformed]) {
      expect([r.status, r.body.error.code, r.body.error.message]).toEqual([404, 'RESOURCE_NOT_FOUND', 'Resource not found']);
    }
    const strip = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => k !== 'date' && k !== 'content-length')
        .sort();
    expect(strip(foreign.headers)).toEqual(strip(unknown.headers));
    const patch = await w.req('PATCH', `/assistants/${b.id}`, { key: w.A.apiKey, body: { name: 1 } });
    expect([patch.status, patch.body.error.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });
});
