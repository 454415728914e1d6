import { request } from 'undici';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSimulator, normalisePathPrefix, startSimulator, type RunningSimulator } from '../src/server.ts';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => sim.close());

async function json(method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await request(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, body: text ? JSON.parse(text) : undefined };
}

describe('startSimulator over real HTTP', () => {
  it('binds loopback on an ephemeral port', () => {
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.controlUrl).toBe(`${sim.baseUrl}/__control`);
  });

  it('provisions and serves an assistant round trip', async () => {
    expect((await json('GET', `${sim.controlUrl}/health`)).body).toEqual({ ok: true, contract: 1 });
    const org = (await json('POST', `${sim.controlUrl}/organizations`, {})).body;
    const t = (await json('POST', `${sim.controlUrl}/tenants`, { organizationId: org.id })).body;
    const auth = { authorization: `ApiKey ${t.apiKey}` };
    const created = await json('POST', `${sim.baseUrl}/assistants`, { name: 'Net' }, auth);
    expect(created.status).toBe(201);
    const got = await json('GET', `${sim.baseUrl}/assistants/${created.body.data.id}`, undefined, auth);
    expect(got.body.data.name).toBe('Net');
    const parse = await json('PATCH', `${sim.baseUrl}/assistants/${created.body.data.id}`, '{"name":', auth);
    expect([parse.status, parse.body.error.code]).toEqual([400, 'PARSE']);
  });

  it('a malformed HTTP request gets an envelope, not a framework body', async () => {
    const port = Number(new URL(sim.baseUrl).port);
    const text = await new Promise<string>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => s.write('GET /assistants HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      let buf = '';
      s.on('data', (d) => (buf += d.toString()));
      s.on('close', () => resolve(buf));
      s.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1.1 400/);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('BAD_REQUEST');
  });
});

describe('a mount under a path prefix (pathPrefix, CLI --path-prefix)', () => {
  it('normalises the prefix and refuses one a URL path cannot hold plainly', () => {
    expect(normalisePathPrefix(undefined)).toBe('');
    expect(normalisePathPrefix('/')).toBe('');
    expect(normalisePathPrefix('core/')).toBe('/core');
    expect(normalisePathPrefix('/api/core')).toBe('/api/core');
    expect(() => normalisePathPrefix('/co re')).toThrow(/invalid path prefix/);
    expect(() => normalisePathPrefix('/core?x')).toThrow(/invalid path prefix/);
  });

  it('serves the API and the control API below the prefix, without it in metadata.path, and the gateway 404 elsewhere', async () => {
    const app = await buildSimulator({ pathPrefix: '/core' });
    try {
      expect((await app.inject({ url: '/core/__control/health' })).json()).toEqual({ ok: true, contract: 1 });
      const api = await app.inject({ url: '/core/assistants?x=1' });
      expect([api.statusCode, api.json().error.code, api.json().metadata.path]).toEqual([401, 'UNAUTHORIZED', '/assistants']);
      for (const url of ['/assistants', '/__control/health', '/corex/assistants', '/']) {
        const outside = await app.inject({ url });
        expect([url, outside.statusCode, outside.headers['content-type']]).toEqual([url, 404, 'text/plain; charset=utf-8']);
      }
    } finally {
      await app.close();
    }
  });
});
