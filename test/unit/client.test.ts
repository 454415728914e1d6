import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { ApiClient, pauseTarget, retryAfterMs, targetReady, TargetError, THROTTLE_RETRIES, trustContentLengthFraming } from '../../helpers/http/client';
import { AUTH_VARIANTS, authHeaders, MALFORMED_AUTH_VARIANTS } from '../../helpers/http/auth-variants';

describe('auth variants (§5.1, §5.6)', () => {
  it('forms the only accepted header as `ApiKey <key>`', () => {
    expect(authHeaders('k-123', 'apikey')).toEqual({ authorization: 'ApiKey k-123' });
  });
  it('forms every malformed variant differently from the accepted one', () => {
    const forms = MALFORMED_AUTH_VARIANTS.map((v) => JSON.stringify(v.header('k-123')));
    expect(new Set(forms).size).toBe(MALFORMED_AUTH_VARIANTS.length);
    expect(forms).not.toContain(JSON.stringify(authHeaders('k-123', 'apikey')));
  });
  it('puts the key in X-Api-Key and no Authorization for the x-api-key variant', () => {
    expect(authHeaders('k-123', 'x-api-key')).toEqual({ 'x-api-key': 'k-123' });
  });
  it('one table: every variant named once, each with clauses and words; no key, no header', () => {
    expect(new Set(AUTH_VARIANTS.map((v) => v.variant)).size).toBe(AUTH_VARIANTS.length);
    expect(MALFORMED_AUTH_VARIANTS.map((v) => v.variant)).toEqual(AUTH_VARIANTS.slice(1).map((v) => v.variant));
    for (const v of AUTH_VARIANTS) {
      expect(v.clauses.length, v.variant).toBeGreaterThan(0);
      expect(v.words, v.variant).not.toBe('');
      expect(authHeaders(undefined, v.variant)).toEqual({});
    }
  });
});

describe('retry policy (§8)', () => {
  let server: Server;
  let base = '';
  const hits: Record<string, number> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      const key = `${req.method} ${req.url}`;
      hits[key] = (hits[key] ?? 0) + 1;
      if (req.url === '/flaky' && hits[key] < 3) {
        res.writeHead(503).end();
        return;
      }
      if (req.url === '/throttled' && hits[key] < 2) {
        res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ retryAfterSeconds: 0.01 }));
        return;
      }
      if (req.url === '/gateway-429') {
        // A gateway in front of the API: HTML body, Retry-After as an HTTP date in the past.
        res
          .writeHead(429, { 'content-type': 'text/html', 'retry-after': new Date(Date.now() - 5_000).toUTCString() })
          .end('<html><title>429 Too Many Requests</title></html>');
        return;
      }
      if (req.url === '/unauth-after-429' && hits[key] < 3) {
        res.writeHead(429, { 'content-type': 'application/json' }).end('{"message":"API rate limit exceeded"}');
        return;
      }
      if (req.url === '/unauth-after-429') {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: 'UNAUTHORIZED', message: 'no' } }));
        return;
      }
      if (req.url === '/always-500') {
        // The API's own 500 (in its envelope), not a gateway's page.
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: false, error: { code: 'INTERNAL_SERVER_ERROR', message: 'x' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as any).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const client = () => new ApiClient(base, undefined, { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 20 });

  it('retries an idempotent request on 5xx and reports the retries', async () => {
    const res = await client().get('/flaky');
    expect(res.status).toBe(200);
    expect(res.retries).toBe(2);
  });

  it('never retries a POST on 5xx', async () => {
    const res = await client().post('/always-500', {});
    expect(res.status).toBe(500);
    expect(hits['POST /always-500']).toBe(1);
  });

  it('retries a 429, honouring retryAfterSeconds', async () => {
    const res = await client().post('/throttled', {});
    expect(res.status).toBe(200);
    expect(res.retries).toBe(1);
  });

  it('sends exactly once with retry: false', async () => {
    const res = await client().get('/always-500', { retry: false });
    expect(res.status).toBe(500);
    expect(hits['GET /always-500']).toBe(1);
  });

  it('gives the final answer after the retry budget is spent', async () => {
    const res = await client().get('/always-500');
    expect(res.status).toBe(500);
    expect(res.retries).toBe(3);
  });

  it('throws TargetError when nothing answers', async () => {
    const dead = new ApiClient('http://127.0.0.1:1', undefined, { retries: 1, minTimeoutMs: 1, maxTimeoutMs: 5 });
    await expect(dead.get('/x')).rejects.toBeInstanceOf(TargetError);
  });

  it('never hands a 429 to the caller: it is waited out and the same request sent again, even with retry: false', async () => {
    const res = await client().get('/unauth-after-429', { retry: false });
    expect(res.status, 'the answer behind the throttling, not the 429').toBe(401);
    expect(hits['GET /unauth-after-429']).toBe(3);
  });

  it(`fails with TargetError (no verdict) after ${THROTTLE_RETRIES} waits on a target that keeps throttling`, async () => {
    await expect(client().get('/gateway-429')).rejects.toThrow(/still throttled \(429\) after/);
    expect(hits['GET /gateway-429']).toBe(THROTTLE_RETRIES + 1);
  });

  it('hands the 429 over at once with expect429', async () => {
    const res = await client().get('/gateway-429', { expect429: true });
    expect(res.status).toBe(429);
  });

  it('one pause per target: every request to it waits until the pause ends', async () => {
    const target = 'http://paused.invalid';
    const t0 = Date.now();
    pauseTarget(target, 120);
    pauseTarget(target, 10); // never shortens
    await targetReady(target);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    const t1 = Date.now();
    await targetReady(target);
    expect(Date.now() - t1).toBeLessThan(50);
  });

  it('reads Retry-After as an HTTP date (a date in the past asks for 0)', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(retryAfterMs({ headers: { 'retry-after': 'Tue, 24 Nov 2026 10:00:03 GMT' }, json: undefined }, now)).toBe(3000);
    expect(retryAfterMs({ headers: { 'retry-after': 'Tue, 24 Nov 2026 09:59:00 GMT' }, json: undefined }, now)).toBe(0);
    expect(retryAfterMs({ headers: { 'retry-after': 'soon' }, json: undefined }, now)).toBeUndefined();
  });

  it('reads Retry-After seconds and retryAfterSeconds', () => {
    expect(retryAfterMs({ headers: { 'retry-after': '2' }, json: undefined })).toBe(2000);
    expect(retryAfterMs({ headers: {}, json: { retryAfterSeconds: 3 } })).toBe(3000);
    expect(retryAfterMs({ headers: {}, json: { error: { retryAfterSeconds: 3 } } })).toBeUndefined();
  });
});

describe('connections after a GET or DELETE with a body (issue 43)', () => {
  let server: Server;
  /** The sockets each base path's requests came on. */
  const socketsOf = new Map<string, Set<object>>();
  let origin = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const base = /^\/\w+/.exec(req.url ?? '')?.[0] ?? '?';
      socketsOf.set(base, (socketsOf.get(base) ?? new Set()).add(req.socket));
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const send = async (base: string) => {
    const client = new ApiClient(base);
    for (let i = 0; i < 4; i++) {
      const res = await client.request(i % 2 ? 'DELETE' : 'GET', '/x', { rawBody: '{"hostile":true}', audit: false });
      expect(res.status).toBe(200);
    }
  };

  it('keeps the connection on a target declared to frame by length, and closes it on any other (undici default)', async () => {
    trustContentLengthFraming(`${origin}/framed`);
    await send(`${origin}/framed`);
    await send(`${origin}/default`);
    // A closed connection is never used again: four requests on four sockets means each was closed after its request.
    expect(socketsOf.get('/framed')!.size).toBeLessThan(4);
    expect(socketsOf.get('/default')!.size).toBe(4);
  });
});
