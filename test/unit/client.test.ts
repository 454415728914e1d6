import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { ApiClient, authHeaders, MALFORMED_AUTH_VARIANTS, retryAfterMs, TargetError } from '../../helpers/client';

describe('auth variants (§5.1, §5.6)', () => {
  it('forms the only accepted header as `ApiKey <key>`', () => {
    expect(authHeaders('k-123', 'apikey')).toEqual({ authorization: 'ApiKey k-123' });
  });
  it('forms every malformed variant differently from the accepted one', () => {
    const forms = MALFORMED_AUTH_VARIANTS.map((v) => JSON.stringify(authHeaders('k-123', v)));
    expect(new Set(forms).size).toBe(MALFORMED_AUTH_VARIANTS.length);
    expect(forms).not.toContain(JSON.stringify(authHeaders('k-123', 'apikey')));
  });
  it('puts the key in X-Api-Key and no Authorization for the x-api-key variant', () => {
    expect(authHeaders('k-123', 'x-api-key')).toEqual({ 'x-api-key': 'k-123' });
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
      if (req.url === '/always-500') {
        res.writeHead(500).end();
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

  it('reads Retry-After seconds and retryAfterSeconds', () => {
    expect(retryAfterMs({ headers: { 'retry-after': '2' }, json: undefined })).toBe(2000);
    expect(retryAfterMs({ headers: {}, json: { retryAfterSeconds: 3 } })).toBe(3000);
    expect(retryAfterMs({ headers: {}, json: { error: { retryAfterSeconds: 3 } } })).toBeUndefined();
  });
});
