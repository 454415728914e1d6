/**
 * Reaching a target from a CI runner (helpers/http/proxy.ts, helpers/http/raw-http.ts): the proxy variables
 * decide as undici's EnvHttpProxyAgent does, the client's dispatcher and the raw sockets both go
 * through a forward proxy (test/support/forward-proxy.ts, with Basic credentials) to a simulator
 * mounted under a path prefix, and no line names the proxy's password.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request } from 'undici';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy';
import { bypassesProxy, describeProxy, proxyFor, proxySettings, suiteDispatcher } from '../../helpers/http/proxy';
import { rawRequest, rawStart } from '../../helpers/http/raw-http';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';

describe('the proxy variables', () => {
  it('read lower case first, HTTPS falling back to HTTP, empty meaning unset', () => {
    expect(proxySettings({ HTTP_PROXY: 'http://a:1', http_proxy: 'http://b:1' })).toEqual({ httpProxy: 'http://b:1', httpsProxy: 'http://b:1', noProxy: '' });
    expect(proxySettings({ HTTPS_PROXY: 'http://s:1', NO_PROXY: 'x' })).toEqual({ httpProxy: undefined, httpsProxy: 'http://s:1', noProxy: 'x' });
    expect(proxySettings({ HTTP_PROXY: '' })).toEqual({ httpProxy: undefined, httpsProxy: undefined, noProxy: '' });
  });

  it.each([
    ['https://api.example.com/core', 'example.com', true],
    ['https://api.example.com/core', '.example.com', true],
    ['https://api.example.com/core', '*.example.com', true],
    ['https://api.example.com/core', 'xample.com', false],
    ['https://api.example.com/core', 'api.example.com:443', true],
    ['https://api.example.com/core', 'api.example.com:8443', false],
    ['http://127.0.0.1:4010', '127.0.0.1', true],
    ['http://127.0.0.1:4010', 'localhost, 10.0.0.1', false],
    ['http://[::1]:4010', '[::1]', true],
    ['https://api.example.com', '*', true],
    ['https://api.example.com', '', false],
  ])('NO_PROXY: %s with %j bypasses the proxy: %s', (url, noProxy, bypass) => {
    expect(bypassesProxy(new URL(url), noProxy)).toBe(bypass);
  });

  it('apply to a remote target by scheme, never to the embedded simulator', () => {
    const env = { CORE_API_BASE_URL: 'https://api.example.com/core', HTTPS_PROXY: 'http://p:3128', HTTP_PROXY: 'http://q:3128', NO_PROXY: 'internal.example' };
    expect(proxyFor('https://api.example.com/core', env)).toBe('http://p:3128');
    expect(proxyFor('http://api.example.com/core', env)).toBe('http://q:3128');
    expect(proxyFor('https://x.internal.example', env)).toBeUndefined();
    expect(proxyFor('http://127.0.0.1:4010', { HTTP_PROXY: 'http://q:3128' })).toBeUndefined();
  });

  it('are described in one line that names the proxy but never its credentials', () => {
    const env = { CORE_API_BASE_URL: 'https://api.example.com/core', HTTPS_PROXY: 'http://ci-user:pr0xy-s3cret@proxy.internal:3128', NO_PROXY: 'localhost' };
    const line = describeProxy('https://api.example.com/core', env)!;
    expect(line).toContain('http://proxy.internal:3128');
    expect(line).toContain('HTTPS_PROXY');
    expect(line).not.toMatch(/pr0xy-s3cret|ci-user/);
    expect(describeProxy('https://api.example.com/core', { ...env, NO_PROXY: 'example.com' })).toMatch(/go direct \(NO_PROXY matches it/);
    expect(describeProxy('http://127.0.0.1:1', { HTTP_PROXY: 'http://p:1' })).toMatch(/not used for the embedded simulator/);
    expect(describeProxy('https://api.example.com', { CORE_API_BASE_URL: 'https://api.example.com' })).toBeUndefined();
  });
});

describe('through a forward proxy to a simulator mounted under /core', () => {
  let sim: RunningSimulator;
  let proxy: ForwardProxy;
  let proxyUrl: string;

  beforeAll(async () => {
    sim = await startSimulator({ pathPrefix: '/core' });
    proxy = await startForwardProxy('ci-user:pr0xy-s3cret');
    proxyUrl = proxy.url;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await proxy?.close();
    await sim?.close();
  });

  it('the client dispatcher sends every request through the proxy, below the prefix', async () => {
    const env = { CORE_API_BASE_URL: sim.baseUrl, HTTP_PROXY: proxyUrl };
    const dispatcher = suiteDispatcher({}, env);
    const before = proxy.tunnels.length;
    const res = await request(`${sim.baseUrl}/assistants`, { dispatcher });
    expect(res.statusCode).toBe(401);
    expect(((await res.body.json()) as any).error.code).toBe('UNAUTHORIZED');
    expect(proxy.tunnels.slice(before)).toEqual([new URL(sim.baseUrl).host]);
    await dispatcher.close();
    // NO_PROXY exempts the target: no tunnel.
    const direct = suiteDispatcher({}, { ...env, NO_PROXY: '127.0.0.1' });
    const again = await request(`${sim.baseUrl}/assistants`, { dispatcher: direct });
    await again.body.text();
    expect(again.statusCode).toBe(401);
    expect(proxy.tunnels.length).toBe(before + 1);
    await direct.close();
  });

  it('a raw request keeps the prefix and goes through a CONNECT tunnel', async () => {
    expect(rawStart(sim.baseUrl, '/assistants/x')).toMatch(/^GET \/core\/assistants\/x HTTP\/1\.1\r\n/);
    vi.stubEnv('CORE_API_BASE_URL', sim.baseUrl);
    vi.stubEnv('HTTP_PROXY', proxyUrl);
    const before = proxy.tunnels.length;
    const res = await rawRequest(sim.baseUrl, `${rawStart(sim.baseUrl, '/assistants')}Accept: application/json\r\nConnection: close\r\n\r\n`);
    expect(res.error).toBeUndefined();
    expect(res.status, res.head).toBe(401);
    expect(res.body).toContain('"UNAUTHORIZED"');
    expect(proxy.tunnels.length).toBe(before + 1);
    // Without the prefix the gateway answers its own 404: the prefix is what reached the API.
    const outside = await rawRequest(sim.baseUrl, `GET /assistants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(outside.status).toBe(404);
    expect(outside.body).not.toContain('"success"');
  });

  it('a proxy that refuses the tunnel comes back as an error naming the proxy, without its password', async () => {
    vi.stubEnv('CORE_API_BASE_URL', sim.baseUrl);
    vi.stubEnv('HTTP_PROXY', proxyUrl.replace('pr0xy-s3cret', 'wrong-s3cret'));
    const res = await rawRequest(sim.baseUrl, `${rawStart(sim.baseUrl, '/assistants')}Connection: close\r\n\r\n`);
    expect(res.status).toBeUndefined();
    expect(res.error).toMatch(/^proxy: /);
    expect(res.error).not.toMatch(/s3cret/);
    expect(proxy.refused).toBeGreaterThan(0);
  });
});
