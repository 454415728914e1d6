/**
 * The probe before the first test (helpers/target/probe.ts): the API's envelope means reachable; a
 * refused connection stops at once; nothing but a gateway's pages, or a wrong path prefix, stop
 * after the retries; each cause comes with its fix, and no secret reaches the line.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectionCause, probeTarget, unreachableLine } from '../../helpers/target/probe';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { registerSecret } from '../../helpers/base/redact';
import { startForwardProxy } from '../support/forward-proxy';

/** A port nothing listens on: bound, then released. */
async function stoppedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('probeTarget', () => {
  let sim: RunningSimulator;
  let gateway: Server;
  let gatewayUrl: string;
  let hits = 0;

  beforeAll(async () => {
    sim = await startSimulator({ pathPrefix: '/core' });
    gateway = createServer((_req, res) => {
      hits += 1;
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>');
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => gateway?.close(r));
    await sim?.close();
  });

  it('finds the API by its envelope, whatever the status (401 without a key)', async () => {
    expect(await probeTarget(sim.baseUrl)).toEqual({ ok: true, status: 401, attempts: 1 });
  });

  it('finds the API by its envelope in a wrong media type (text/html): the audit fails that, the run goes on', async () => {
    const api = createServer((_req, res) => {
      const envelope = { success: false, error: { code: 'UNAUTHORIZED', message: 'no key' }, metadata: { timestamp: new Date().toISOString(), version: '1' } };
      res.writeHead(401, { 'content-type': 'text/html; charset=utf-8' }).end(JSON.stringify(envelope));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    try {
      expect(await probeTarget(`http://127.0.0.1:${(api.address() as AddressInfo).port}`)).toEqual({ ok: true, status: 401, attempts: 1 });
    } finally {
      await new Promise((r) => api.close(r));
    }
  });

  it('stops at once on a refused connection, naming the host and the fix', async () => {
    const port = await stoppedPort();
    const started = performance.now();
    const r = await probeTarget(`http://127.0.0.1:${port}/core`, { pauseMs: 10 });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(r).toMatchObject({ ok: false, attempts: 1 });
    if (r.ok) return;
    expect(r.cause).toBe(`connection refused by 127.0.0.1:${port}: nothing listens there`);
    expect(unreachableLine(r)).toMatch(/^conformance: target unreachable, no test ran: connection refused .*; fix: check that the target is up/);
  });

  it('stops after the retries when only a gateway page comes back', async () => {
    hits = 0;
    const r = await probeTarget(gatewayUrl, { pauseMs: 10 });
    expect(hits).toBe(3);
    expect(r).toMatchObject({ ok: false, attempts: 3 });
    if (!r.ok) expect(r.cause).toMatch(/answers, but not as the Core API: 502 text\/html, 502 text\/html, 502 text\/html \(a gateway's page/);
  });

  it('names the path prefix when the base URL misses it', async () => {
    const r = await probeTarget(sim.origin, { pauseMs: 10 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.cause).toMatch(/404 text\/plain/);
      expect(r.fix).toMatch(/path prefix/);
    }
  });

  it('goes through the proxy the environment names, and names a proxy that refuses the tunnel', async () => {
    const proxy = await startForwardProxy('ci:pr0be-s3cret');
    try {
      vi.stubEnv('CORE_API_BASE_URL', sim.baseUrl);
      vi.stubEnv('HTTP_PROXY', proxy.url);
      expect(await probeTarget(sim.baseUrl)).toMatchObject({ ok: true, status: 401 });
      expect(proxy.tunnels.length).toBe(1);
      vi.stubEnv('HTTP_PROXY', proxy.url.replace('pr0be-s3cret', 'wrong-s3cret'));
      registerSecret('wrong-s3cret', 'proxy password');
      const r = await probeTarget(sim.baseUrl, { pauseMs: 10 });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.cause).toMatch(/^the proxy http:\/\/127\.0\.0\.1:\d+ refused the tunnel to 127\.0\.0\.1:\d+ \(407\)$/);
        expect(r.fix).toMatch(/user and password in HTTPS_PROXY/);
        expect(JSON.stringify(r)).not.toMatch(/s3cret/);
      }
    } finally {
      vi.unstubAllEnvs();
      await proxy.close();
    }
  });
});

describe('connectionCause', () => {
  const err = (code: string, message = code) => Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error(message), { code }) });
  const base = 'https://staging.example.com/core';
  it.each([
    ['SELF_SIGNED_CERT_IN_CHAIN', /not trusted \(SELF_SIGNED_CERT_IN_CHAIN\)/, /NODE_EXTRA_CA_CERTS/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /not trusted/, /NODE_EXTRA_CA_CERTS/],
    ['CERT_HAS_EXPIRED', /expired/, /renew/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /does not name staging\.example\.com/, /host name/],
    ['ENOTFOUND', /does not resolve \(DNS ENOTFOUND\)/, /HTTPS_PROXY/],
    ['EHOSTUNREACH', /no route/, /HTTPS_PROXY/],
    ['ECONNREFUSED', /connection refused by staging\.example\.com/, /is up/],
  ])('%s', (code, cause, fix) => {
    const c = connectionCause(err(code), base, {});
    expect(c.cause).toMatch(cause);
    expect(c.fix).toMatch(fix);
    expect(c.transient).toBe(false);
  });
  it('reads the code from a message that kept only the text (the control client wraps errors so)', () => {
    expect(connectionCause(new Error('control GET /health: no answer (connect ECONNREFUSED 10.0.0.1:80)'), base, {}).cause).toMatch(/connection refused/);
  });
  it('counts resets and timeouts as worth another attempt', () => {
    expect(connectionCause(err('ECONNRESET'), base, {}).transient).toBe(true);
    expect(connectionCause(err('UND_ERR_HEADERS_TIMEOUT'), base, {}).transient).toBe(true);
  });
  it('names the proxy a connection went through, never its credentials', () => {
    const env = { CORE_API_BASE_URL: base, HTTPS_PROXY: 'http://u:pw-s3cret@proxy.internal:3128' };
    const c = connectionCause(err('ECONNREFUSED'), base, env);
    expect(c.cause).toBe('connection refused by http://proxy.internal:3128: nothing listens there');
    expect(c.fix).toMatch(/proxy in HTTPS_PROXY/);
  });
});
