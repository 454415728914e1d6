/**
 * A test that runs out of time is cut off cleanly (helpers/checks/clause.ts `runJudged`): an `error`
 * naming the request it waited on and for how long; its request in flight is cancelled and it
 * sends nothing more, so it cannot change a shared fixture after it was judged; time queued for a
 * shared fixture is not charged to its budget, only to its wall cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ApiClient } from '../../helpers/http/client';
import { OutOfTimeError, runJudged } from '../../helpers/checks/clause';
import { fixturePool } from '../../helpers/world/concurrency';
import { testVerdict, troubleTiming } from '../../helpers/report/verdict';

let server: Server;
let base = '';
const seen: string[] = [];
const closed: string[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.on('close', () => closed.push(`${req.method} ${req.url}`));
    if (req.url === '/hang') return;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{}}');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as any).port}`;
  process.env.CORE_API_REQUEST_TIMEOUT_MS = '5000';
});
afterAll(async () => {
  delete process.env.CORE_API_REQUEST_TIMEOUT_MS;
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const task = () => ({ id: String(Math.random()), meta: {} }) as any;

describe('a test cut off at its budget', () => {
  it('is an error naming the request it waited on; the request is cancelled and no later one is sent', async () => {
    const t = task();
    const client = new ApiClient(base);
    const e = await runJudged(t, { budgetMs: 300, wallMs: 10_000 }, async () => {
      await client.get('/hang');
      await client.patch('/assistants/shared', { name: 'changed after the judgement' });
    }).catch((x) => x);
    expect(e).toBeInstanceOf(OutOfTimeError);
    expect(e.message).toMatch(/^ran out of time \(0\.3 s of its budget charged.*\); waiting on GET \/hang for 0\.\d s/);
    expect(t.meta.targetTrouble).toBe(true);
    expect(t.meta.trouble).toBe(e.message);
    expect(testVerdict('failed', e.name, troubleTiming(t.meta))).toBe('error');
    await new Promise((r) => setTimeout(r, 200));
    expect(closed, 'the hung request was cancelled').toContain('GET /hang');
    expect(seen).not.toContain('PATCH /assistants/shared');
  });

  it('time queued for a shared fixture is not charged; the wall cap still ends a test queued too long', async () => {
    const pool = fixturePool(async () => ({ id: 'shared' }), 1);
    const client = new ApiClient(base);
    let release!: () => void;
    const holder = runJudged(task(), { budgetMs: 5_000, wallMs: 10_000 }, () => pool.use(() => new Promise<void>((r) => (release = r))));
    await new Promise((r) => setTimeout(r, 20));
    // Queued 500 ms on a 200 ms budget, then 1 request: passes.
    const patient = runJudged(task(), { budgetMs: 200, wallMs: 5_000 }, () => pool.use(async (f) => (await client.get(`/assistants/${f.id}`)).status));
    // Queued past its 300 ms wall cap: cut off, saying what it was queued for.
    const late = runJudged(task(), { budgetMs: 200, wallMs: 300 }, () => pool.use(async () => 'never')).catch((x) => x);
    await new Promise((r) => setTimeout(r, 500));
    release();
    await holder;
    expect(await patient).toBe(200);
    const e = await late;
    expect(e).toBeInstanceOf(OutOfTimeError);
    expect(e.message).toMatch(/0\.3 s on the wall clock, queued time included\); queued for a shared fixture for 0\.\d s/);
    await pool.close();
  });
});
