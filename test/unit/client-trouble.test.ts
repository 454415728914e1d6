/**
 * helpers/http/client.ts against a target that misbehaves: only the API's own answers reach a test.
 * A hung request ends at the request deadline, a body cut short and a gateway's 5xx page are
 * retried for the methods §8 allows and end as TargetError naming what came back, and a judged
 * test's requests are cancelled.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ApiClient, apiShaped, foreignWords, TargetError } from '../../helpers/http/client';
import { runAsTest } from '../../helpers/record/current-test';

let server: Server;
let base = '';
const hits: Record<string, number> = {};
const sockets = new Set<Socket>();
const ENVELOPE = JSON.stringify({ success: true, data: { ok: true }, metadata: { timestamp: new Date().toISOString(), version: '1' } });

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    const n = (hits[key] = (hits[key] ?? 0) + 1);
    const url = req.url ?? '';
    if (url === '/hang') return; // accepted, never answered
    if (url === '/hang-once' && n === 1) return;
    if (url === '/gateway-502' || (url === '/gateway-then-ok' && n < 3)) {
      res.writeHead(502, { 'content-type': 'text/html', server: 'nginx' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    if (url === '/cut' || (url === '/cut-then-ok' && n < 2)) {
      // Headers promise the whole body; half of it comes, then the connection drops.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ENVELOPE.length) });
      res.write(ENVELOPE.slice(0, 20));
      setTimeout(() => req.socket.destroy(), 10);
      return;
    }
    if (url === '/enveloped-503') {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'x' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(ENVELOPE);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as any).port}`;
  process.env.CORE_API_REQUEST_TIMEOUT_MS = '300';
});
afterEach(() => {
  for (const k of Object.keys(hits)) delete hits[k];
});
afterAll(async () => {
  delete process.env.CORE_API_REQUEST_TIMEOUT_MS;
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const client = () => new ApiClient(base, undefined, { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 10 });

describe('the request deadline', () => {
  it('ends a hung GET at the deadline, retries it, and says it hung', async () => {
    const t0 = Date.now();
    const e = await client()
      .get('/hang')
      .catch((x) => x);
    expect(e).toBeInstanceOf(TargetError);
    expect(e.kind).toBe('hung');
    expect(e.message).toMatch(/GET \/hang: no answer within the 300 ms request deadline/);
    expect(hits['GET /hang']).toBe(3);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
  it('a GET that hung once is answered by its retry', async () => {
    const res = await client().get('/hang-once');
    expect(res.status).toBe(200);
    expect(res.retries).toBe(1);
  });
  it('never resends a hung POST (§8)', async () => {
    const e = await client()
      .post('/hang', {})
      .catch((x) => x);
    expect(e.kind).toBe('hung');
    expect(e.message).toMatch(/never resent blindly/);
    expect(hits['POST /hang']).toBe(1);
  });
});

describe("answers that are not the API's", () => {
  it('retries a gateway 502 page and hands over the answer behind it', async () => {
    const res = await client().get('/gateway-then-ok');
    expect(res.status).toBe(200);
    expect(hits['GET /gateway-then-ok']).toBe(3);
  });
  it('a gateway page that persists is a TargetError saying what came back, with the answer attached', async () => {
    const e = await client()
      .get('/gateway-502')
      .catch((x) => x);
    expect(e).toBeInstanceOf(TargetError);
    expect(e.kind).toBe('not-api');
    expect(e.message).toContain('502 text/html from the gateway (server: nginx)');
    expect(e.message).toContain("3 attempts, none answered by the API (3 not the API's)");
    expect(e.attempts).toBe(3);
    expect(e.sameEachTime).toBe(true);
    expect(e.response.status).toBe(502);
    expect(hits['GET /gateway-502']).toBe(3);
  });
  it("is retried even with retry: false, which keeps only the API's own 5xx for the caller", async () => {
    await expect(client().get('/gateway-502', { retry: false })).rejects.toThrow(/502 text\/html/);
    expect(hits['GET /gateway-502']).toBe(3);
    const res = await client().get('/enveloped-503', { retry: false });
    expect(res.status).toBe(503);
    expect(hits['GET /enveloped-503']).toBe(1);
  });
  it('a POST answered by a gateway page is not resent', async () => {
    const e = await client()
      .post('/gateway-502', {})
      .catch((x) => x);
    expect(e.kind).toBe('not-api');
    expect(hits['POST /gateway-502']).toBe(1);
  });
  it('a body cut short is retried like a reset before the headers', async () => {
    const res = await client().get('/cut-then-ok');
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    const e = await client()
      .get('/cut')
      .catch((x) => x);
    expect(e).toBeInstanceOf(TargetError);
    expect(e.message).toMatch(/connection lost during the body of a 200 answer/);
    expect(hits['GET /cut']).toBe(3);
  });
  it("tells the API's bodies from a gateway's", () => {
    expect(apiShaped({ success: false, error: { code: 'X', message: 'y' } })).toBe(true);
    expect(apiShaped({ error: 'not_found' })).toBe(true);
    expect(apiShaped({ message: 'Bad Gateway' })).toBe(false);
    expect(apiShaped(undefined)).toBe(false);
    expect(apiShaped([1])).toBe(false);
    expect(foreignWords({ status: 503, headers: { 'content-type': 'text/html; charset=utf-8' }, text: '<html>' })).toBe('503 text/html from the gateway');
  });
});

describe('a judged test stops acting', () => {
  it('cancels its request in flight and sends no new one', async () => {
    const judged = new AbortController();
    const task = { meta: {} } as any;
    await runAsTest(
      task,
      async () => {
        const pending = client().get('/hang');
        setTimeout(() => judged.abort(), 50);
        const e = await pending.catch((x) => x);
        expect(e.kind).toBe('cancelled');
        await expect(client().patch('/anything', {})).rejects.toThrow(/already judged/);
      },
      { signal: judged.signal },
    );
    expect(hits['GET /hang']).toBe(1);
    expect(hits['PATCH /anything']).toBeUndefined();
    expect(task.meta.targetTrouble, 'a cancelled request is no trouble of the target').toBeUndefined();
  });
});
