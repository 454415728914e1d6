import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from './world.ts';

let w: World;
afterEach(async () => w?.app.close());

/** Statuses of `n` requests without credentials to a public route. */
async function anonymous(n: number): Promise<{ status: number; type: string; raw: string; retryAfter: unknown }[]> {
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = await w.req('GET', i % 2 ? '/assistants' : '/no-such-route');
    out.push({ status: r.status, type: String(r.headers['content-type'] ?? ''), raw: r.raw, retryAfter: r.headers['retry-after'] });
  }
  return out;
}

describe('chaos placement', () => {
  it('front: a gateway throttles before authentication and routing, with gateway bodies', async () => {
    w = await makeWorld();
    const cfg = await w.ctl('PUT', '/config', { chaos: { rate429: 0.5, rateReset: 0, seed: 7, placement: 'front', retryAfterSeconds: 2 } });
    expect(cfg.body.chaos.placement).toBe('front');
    const seen = await anonymous(60);
    const throttled = seen.filter((r) => r.status === 429);
    expect(throttled.length).toBeGreaterThan(10);
    expect(seen.filter((r) => r.status !== 429).every((r) => r.status === 401)).toBe(true);
    // Not the API's envelope: Kong / AWS `{"message"}` and nginx's HTML page, each seen.
    expect(throttled.some((r) => r.raw.includes('API rate limit exceeded'))).toBe(true);
    expect(throttled.some((r) => r.type.startsWith('text/html'))).toBe(true);
    expect(throttled.some((r) => r.retryAfter === undefined)).toBe(true);
    expect(throttled.some((r) => r.retryAfter === '2')).toBe(true);
    expect(throttled.every((r) => !r.raw.includes('"success"'))).toBe(true);
  });

  it('app (default): only authenticated requests are throttled, in the envelope', async () => {
    w = await makeWorld();
    await w.ctl('PUT', '/config', { chaos: { rate429: 0.5, rateReset: 0, seed: 7 } });
    const seen = await anonymous(30);
    expect(seen.every((r) => r.status === 401)).toBe(true);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await w.req('GET', '/assistants', { key: w.A.apiKey });
      statuses.push(r.status);
      if (r.status === 429) expect(r.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(5);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('both: a gateway in front and a limiter inside, each at half the rate', async () => {
    w = await makeWorld();
    await w.ctl('PUT', '/config', { chaos: { rate429: 0.8, rateReset: 0, seed: 7, placement: 'both' } });
    // Without credentials only the gateway can throttle: gateway bodies, never the envelope.
    const anon = (await anonymous(40)).filter((r) => r.status === 429);
    expect(anon.length).toBeGreaterThan(5);
    expect(anon.every((r) => !r.raw.includes('"success"'))).toBe(true);
    // With a key, both limiters answer: the gateway's bodies and the API's envelope.
    const bodies: string[] = [];
    for (let i = 0; i < 60; i++) {
      const r = await w.req('GET', '/assistants', { key: w.A.apiKey });
      if (r.status === 429) bodies.push(r.raw);
    }
    expect(bodies.some((b) => b.includes('RATE_LIMITED'))).toBe(true);
    expect(bodies.some((b) => !b.includes('"success"'))).toBe(true);
  });

  it('refuses an unknown placement', async () => {
    w = await makeWorld();
    expect((await w.ctl('PUT', '/config', { chaos: { rate429: 0.1, placement: 'sidecar' } })).status).toBe(400);
  });
});

describe('chaos: the ways gateways and networks misbehave (real sockets)', () => {
  /** One GET without credentials over a real connection: the status and body, or the error that ended it. */
  async function get(base: string, signal?: AbortSignal): Promise<{ status?: number; type?: string; body?: string; error?: string }> {
    const { request } = await import('undici');
    try {
      const r = await request(`${base}/assistants`, { signal });
      const body = await r.body.text();
      return { status: r.statusCode, type: String(r.headers['content-type'] ?? ''), body };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }
  async function withSim(chaos: Record<string, unknown>, fn: (base: string) => Promise<void>): Promise<void> {
    const { startSimulator } = await import('../src/server.ts');
    const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    try {
      const { request } = await import('undici');
      const r = await request(`${sim.controlUrl}/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chaos }) });
      expect(r.statusCode).toBe(200);
      await r.body.text();
      await fn(sim.baseUrl);
    } finally {
      await sim.close();
    }
  }

  it("rateGateway: 5xx pages of a gateway, never the API's envelope", () =>
    withSim({ rateGateway: 1, seed: 5 }, async (base) => {
      const seen = await Promise.all(Array.from({ length: 24 }, () => get(base)));
      expect(new Set(seen.map((s) => s.status))).toEqual(new Set([502, 503, 504]));
      expect(seen.some((s) => s.type?.startsWith('text/html'))).toBe(true);
      expect(seen.some((s) => s.body === '{"message":"Internal server error"}')).toBe(true);
      expect(seen.every((s) => !s.body?.includes('"success"'))).toBe(true);
    }));

  it('rateTruncate and rateResetBody: the headers come, the body is cut short', async () => {
    for (const key of ['rateTruncate', 'rateResetBody']) {
      await withSim({ [key]: 1, seed: 5 }, async (base) => {
        const r = await get(base);
        expect(r.status, key).toBeUndefined();
        expect(r.error, key).toBeDefined();
      });
    }
  });

  it('rateMangle: a well-framed answer, half its JSON body, Content-Length matching', () =>
    withSim({ rateMangle: 1, seed: 5 }, async (base) => {
      const r = await get(base);
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(401);
      expect(r.type).toMatch(/json/);
      expect(r.body).toMatch(/^\{"success":false/);
      expect(() => JSON.parse(r.body!)).toThrow();
    }));

  it('rateHang: accepted, never answered, until the client gives up', () =>
    withSim({ rateHang: 1, seed: 5 }, async (base) => {
      const t0 = Date.now();
      const r = await get(base, AbortSignal.timeout(300));
      expect(r.error).toBeDefined();
      expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    }));

  it('refuses a rate outside 0..1', async () => {
    w = await makeWorld();
    expect((await w.ctl('PUT', '/config', { chaos: { rateHang: 2 } })).status).toBe(400);
  });
});
