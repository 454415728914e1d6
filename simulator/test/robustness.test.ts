/**
 * Hostile input never makes the simulator answer 500 or store what it cannot serve back
 * (validation/body-limits.ts), and every spelling of a path means the same thing
 * (request-input.ts), with the control API on or off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { Client, request } from 'undici';
import { makeWorld, type World } from './world.ts';
import { startSimulator, type RunningSimulator } from '../src/server.ts';
import { MAX_BODY_BYTES, MAX_DEPTH, MAX_STRING } from '../src/validation/body-limits.ts';

let w: World | undefined;
let sim: RunningSimulator | undefined;
afterEach(async () => {
  await w?.app.close();
  await sim?.close();
  w = undefined;
  sim = undefined;
});

const nest = (depth: number) => {
  let v: unknown = 1;
  for (let i = 1; i < depth; i++) v = { x: v };
  return v;
};

describe('body limits', () => {
  it('refuses hostile bodies with 400 VALIDATION_ERROR and keeps the assistant readable', async () => {
    w = await makeWorld();
    const id = (await w.assistant(w.A.apiKey, { name: 'r' })).id;
    const bodies: [string, string][] = [
      ['nesting past the limit', JSON.stringify({ settings: nest(MAX_DEPTH + 1) })],
      ['nesting of 10,000 levels', '{"settings":' + '{"x":'.repeat(10_000) + '1' + '}'.repeat(10_001)],
      ['__proto__ key', '{"settings":{"__proto__":{}}}'],
      ['__proto__ number', '{"settings":{"__proto__":1}}'],
      ['constructor.prototype', '{"settings":{"constructor":{"prototype":{"x":1}}}}'],
      ['__proto__ in ivrSettings', '{"ivrSettings":{"__proto__":{"ivrMode":true}}}'],
      ['1e400', '{"idleTimeoutSeconds":1e400}'],
      ['a string past the limit', JSON.stringify({ firstMessage: 'x'.repeat(MAX_STRING + 1) })],
    ];
    for (const [what, raw] of bodies) {
      const r = await w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, raw });
      expect(r.status, what).toBe(400);
      expect(r.body.error.code, what).toBe('VALIDATION_ERROR');
      expect(r.body.error.details?.length, what).toBeGreaterThan(0);
      expect((await w.req('GET', `/assistants/${id}`, { key: w.A.apiKey })).status, `${what}: still readable`).toBe(200);
      expect((await w.req('GET', '/assistants', { key: w.A.apiKey })).status, `${what}: list still readable`).toBe(200);
    }
    const ok = await w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body: { settings: { conversationConfig: { deliveryMode: 'none' } } } });
    expect(ok.status).toBe(200);
  });

  it('a key named as an Object.prototype member inside a §2.4 document is an unlisted key, never a 500, on both readings', async () => {
    for (const personality of ['default', 'alt'] as const) {
      await w?.app.close();
      w = await makeWorld({ personality });
      // The alt reading answers a create with 200, which the world's helper does not take: created here.
      const id = (await w.req('POST', '/assistants', { key: w.A.apiKey, body: { name: 'proto-keys' } })).body.data.id;
      for (const key of ['valueOf', 'hasOwnProperty', 'toString', 'constructor']) {
        for (const doc of ['endpointingPlan', 'turnDetectionPlan', 'vadPlan', 'interruptionPlan', 'expressiveOptions', key]) {
          const body = { settings: { conversationConfig: { [doc]: doc === key ? 1 : { [key]: 1, c: null } } } };
          const r = await w.req('PATCH', `/assistants/${id}`, { key: w.A.apiKey, body });
          expect(r.status, `${personality}: ${JSON.stringify(body)}`).toBeLessThan(500);
        }
      }
    }
  });

  it('answers 413 in the envelope after reading an oversized body (no reset)', async () => {
    sim = await startSimulator({});
    const ctl = async (path: string, body: unknown) =>
      (await (
        await request(`${sim!.controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      ).body.json()) as any;
    const org = await ctl('/organizations', { name: 'O' });
    const key = (await ctl('/tenants', { organizationId: org.id, name: 'A' })).apiKey;
    const big = JSON.stringify({ firstMessage: 'x'.repeat(MAX_BODY_BYTES + 10) });
    for (let i = 0; i < 5; i++) {
      const r = await request(`${sim.baseUrl}/assistants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `ApiKey ${key}` },
        body: big,
      });
      const body = (await r.body.json()) as any;
      expect(r.statusCode).toBe(413);
      expect(body.error.code).toBe('PAYLOAD_TOO_LARGE');
    }
  });
});

describe('a body read whole and refused keeps the connection', () => {
  it('answers 400 or 413 in the envelope without Connection: close, and serves the next request on the same socket', async () => {
    sim = await startSimulator({});
    const ctl = await request(`${sim.controlUrl}/organizations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"O"}' });
    const org = (await ctl.body.json()) as { id: string };
    const tenant = await request(`${sim.controlUrl}/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organizationId: org.id, name: 'A' }),
    });
    const key = ((await tenant.body.json()) as { apiKey: string }).apiKey;
    let connections = 0;
    sim.app.server.on('connection', () => connections++);
    const client = new Client(sim.origin);
    try {
      const json = 'application/json';
      const cases: [method: 'GET' | 'POST', contentType: string | undefined, body: string | Readable, status: number][] = [
        ['POST', json, '{"name":', 400],
        ['POST', json, '{"settings":' + '{"x":'.repeat(MAX_DEPTH + 2) + '1' + '}'.repeat(MAX_DEPTH + 3), 400],
        ['POST', json, JSON.stringify({ firstMessage: 'x'.repeat(MAX_BODY_BYTES + 10) }), 413],
        // Chunked (no Content-Length): counted as it arrives.
        ['POST', json, Readable.from([Buffer.from('{"firstMessage":"'), Buffer.alloc(MAX_BODY_BYTES, 'y'), Buffer.from('"}')]), 413],
        ['POST', json, Readable.from([Buffer.from('{"name":'), Buffer.from('"chunked"}')]), 201],
        // A body no parser reads (no Content-Type) is read to its end after the answer, so the
        // connection's next request is answered.
        ['GET', undefined, 'z'.repeat(2 * MAX_BODY_BYTES), 200],
        ['GET', undefined, Readable.from([Buffer.alloc(2 * MAX_BODY_BYTES, 'z')]), 200],
        ['POST', json, '{"name":"fine"}', 201],
      ];
      for (const [method, contentType, body, status] of cases) {
        const r = await client.request({
          path: new URL(`${sim.baseUrl}/assistants`).pathname,
          method,
          headers: { ...(contentType ? { 'content-type': contentType } : {}), authorization: `ApiKey ${key}` },
          body,
          reset: false,
          headersTimeout: 5_000,
        });
        const text = await r.body.text();
        expect(r.statusCode, `${method} ${text}`).toBe(status);
        expect(r.headers.connection, text).not.toBe('close');
      }
    } finally {
      await client.close();
    }
    // undici's Client holds one connection and opens another only when the server closed it.
    expect(connections).toBe(1);
  });
});

describe('one reading of the path', () => {
  const SPELLINGS = ['/__control/health', '/%5f_control/health', '/%5F%5Fcontrol/health', '/_%5fcontrol/health', '/__control/%68ealth'];

  it('every spelling of /__control behaves identically, with and without credentials', async () => {
    w = await makeWorld();
    const seen = new Set<string>();
    for (const url of SPELLINGS) {
      for (const key of [undefined, w.A.apiKey]) {
        const r = await w.req('GET', url, { key });
        seen.add(`${key ? 'key' : 'none'} ${r.status} ${r.raw}`);
      }
    }
    expect([...seen].filter((s) => s.startsWith('none')).length).toBe(1);
    expect([...seen].filter((s) => s.startsWith('key')).length).toBe(1);
    expect([...seen][0]).toContain('200');
  });

  it('with the control API off, every spelling is an unknown public route, and reset cannot be reached', async () => {
    const off = await makeWorld();
    const { buildSimulator } = await import('../src/server.ts');
    const app = await buildSimulator({ state: off.app.sim, control: false });
    try {
      for (const url of SPELLINGS) {
        const anon = await app.inject({ method: 'GET', url });
        expect(anon.statusCode, url).toBe(401);
        const keyed = await app.inject({ method: 'GET', url, headers: { authorization: `ApiKey ${off.A.apiKey}` } });
        expect(keyed.statusCode, url).toBe(404);
        expect(JSON.parse(keyed.body).error.code).toBe('NOT_FOUND');
      }
      for (const url of ['/__control/reset', '/%5f_control/reset']) {
        const r = await app.inject({ method: 'POST', url, headers: { authorization: `ApiKey ${off.A.apiKey}` } });
        expect(r.statusCode).toBe(404);
      }
      expect((await app.inject({ method: 'GET', url: '/assistants', headers: { authorization: `ApiKey ${off.A.apiKey}` } })).statusCode).toBe(200);
    } finally {
      await app.close();
      await off.app.close();
    }
  });
});
