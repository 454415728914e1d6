/**
 * A body that does not parse is asked for again before it is judged (helpers/http/mangled.ts, through
 * helpers/http/client.ts): a well-framed answer cut on the way is resent once for GET, PUT, PATCH and
 * DELETE and the second answer judged; only a body that is not JSON on every attempt reaches the envelope
 * check (a `fail` of 2.1/json-envelope that says it asked again); a replayed DELETE that answers
 * otherwise, and a POST's one unreadable answer, are target trouble (`error`), never a `fail`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, TargetError } from '../../helpers/http/client';
import { runAsTest } from '../../helpers/record/current-test';
import { envelopeProblems } from '../../helpers/audits/envelope';
import { resendable, unjudgedBody, unreadableBody, UNREADABLE_RESENDS } from '../../helpers/http/mangled';
import type { ApiResponse } from '../../helpers/base/exchange';

let server: Server;
let base = '';
const hits: Record<string, number> = {};
const ENVELOPE = JSON.stringify({ success: true, data: { id: 'a' }, metadata: { timestamp: new Date().toISOString(), version: '1' } });
const NOT_FOUND = JSON.stringify({
  success: false,
  error: { code: 'RESOURCE_NOT_FOUND', message: 'no' },
  metadata: { timestamp: new Date().toISOString(), version: '1' },
});

/** A well-framed answer with the first half of a JSON body, Content-Length matching: what a body-rewriting proxy hands over. */
function half(res: import('node:http').ServerResponse, status: number, body: string): void {
  const cut = body.slice(0, Math.floor(body.length / 2));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(cut)) }).end(cut);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    const n = (hits[key] = (hits[key] ?? 0) + 1);
    const url = req.url ?? '';
    if ((url === '/mangled-once' && n === 1) || url === '/always-mangled') return half(res, 200, ENVELOPE);
    if (url === '/refusal-mangled-once')
      return n === 1 ? half(res, 404, NOT_FOUND) : void res.writeHead(404, { 'content-type': 'application/json' }).end(NOT_FOUND);
    if (url === '/html-200') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>ok</html>');
    if (url === '/plain-404') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    if (url === '/delete-once') return n === 1 ? half(res, 200, ENVELOPE) : void res.writeHead(404, { 'content-type': 'application/json' }).end(NOT_FOUND);
    res.writeHead(200, { 'content-type': 'application/json' }).end(ENVELOPE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const k of Object.keys(hits)) delete hits[k];
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

const client = () => new ApiClient(base, undefined, { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 10 });

describe('unreadableBody', () => {
  const res = (status: number, type: string, text: string): Pick<ApiResponse, 'status' | 'headers' | 'text' | 'json'> => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status, headers: { 'content-type': type }, text, json };
  };
  it('a 2xx that is not JSON, or any answer typed JSON that does not parse; never an empty body, JSON, or a plain-text refusal', () => {
    expect(unreadableBody(res(200, 'application/json', '{"success":true,"da'))).toBe(true);
    expect(unreadableBody(res(200, 'text/html', '<html>ok</html>'))).toBe(true);
    expect(unreadableBody(res(400, 'application/problem+json; charset=utf-8', '{"success":fal'))).toBe(true);
    expect(unreadableBody(res(404, 'text/plain', '404 page not found'))).toBe(false);
    expect(unreadableBody(res(200, 'application/json', ''))).toBe(false);
    expect(unreadableBody(res(204, 'application/json', ''))).toBe(false);
    expect(unreadableBody(res(200, 'application/json', ENVELOPE))).toBe(false);
  });
  it('§8: every method but POST may be sent again', () => {
    expect(['GET', 'PUT', 'PATCH', 'DELETE'].map(resendable)).toEqual([true, true, true, true]);
    expect(resendable('POST')).toBe(false);
  });
  it('a resend with the same status is judged; another status, or a POST, is not', () => {
    const first = { status: 200, headers: { 'content-type': 'application/json' } };
    expect(unjudgedBody('GET /a', first, { status: 200, headers: {} })).toBeUndefined();
    expect(unjudgedBody('DELETE /a', first, { status: 404, headers: {} })).toMatch(
      /^DELETE \/a: the body of a 200 application\/json answer is not JSON .*sent again \(§8\) it answered 404/,
    );
    expect(unjudgedBody('POST /a', first)).toMatch(/a POST is never resent \(§8\)/);
  });
});

describe('the client asks again before a body is judged', () => {
  it.each(['GET', 'PUT', 'PATCH', 'DELETE'])('%s: a body cut once is sent again, and the second answer is the one judged', async (method) => {
    const task = { meta: {} } as any;
    const res = await runAsTest(task, () => client().request(method, '/mangled-once', { body: method === 'PUT' || method === 'PATCH' ? { a: 1 } : undefined }));
    expect(hits[`${method} /mangled-once`]).toBe(2);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true });
    expect(res.notJsonResent).toBe(true);
    expect(res.retries).toBe(1);
    expect(task.meta).toMatchObject({ notJsonResent: 1, requests: 2, retries: 1 });
    expect(task.meta.notJson).toBeUndefined();
    expect(task.meta.targetTrouble).toBeUndefined();
  });

  it('a refusal typed JSON whose body was cut is asked for again too', async () => {
    const res = await client().get('/refusal-mangled-once');
    expect(hits['GET /refusal-mangled-once']).toBe(2);
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
  });

  it("a body that is not JSON on every attempt is the API's: handed on, and the envelope check says it asked again", async () => {
    const task = { meta: {} } as any;
    const res = await runAsTest(task, () => client().get('/always-mangled'));
    expect(hits['GET /always-mangled']).toBe(1 + UNREADABLE_RESENDS);
    expect(res.json).toBeUndefined();
    expect(res.notJsonResent).toBe(true);
    expect(task.meta.notJson).toBe(true);
    const problems = envelopeProblems(res);
    expect(problems.map((p) => p.clauses[0])).toEqual(['2.1/json-envelope']);
    expect(problems[0].expected).toBe('a JSON body');
    expect(problems[0].actual).toMatch(/.* \(asked again, §8: no body was JSON\)/);
  });

  it("a 2xx HTML page twice is the API's too; a plain-text 404 is handed on at once", async () => {
    expect((await client().get('/html-200')).notJsonResent).toBe(true);
    expect(hits['GET /html-200']).toBe(1 + UNREADABLE_RESENDS);
    const plain = await client().get('/plain-404');
    expect(plain.status).toBe(404);
    expect(hits['GET /plain-404']).toBe(1);
  });

  it('a replayed DELETE that answers another status judges neither answer: target trouble', async () => {
    const task = { meta: {} } as any;
    const e = await runAsTest(task, () => client().delete('/delete-once')).catch((x) => x);
    expect(e).toBeInstanceOf(TargetError);
    expect(e.message).toMatch(/sent again \(§8\) it answered 404, so neither answer is judged/);
    expect(task.meta.targetTrouble).toBe(true);
  });

  it('a POST is never resent (§8): its one unreadable answer is target trouble, naming it', async () => {
    const task = { meta: {} } as any;
    const e = await runAsTest(task, () => client().post('/always-mangled', { a: 1 })).catch((x) => x);
    expect(e).toBeInstanceOf(TargetError);
    expect(e.kind).toBe('not-api');
    expect(e.message).toMatch(/^POST \/always-mangled: the body of a 200 application\/json answer is not JSON .*a POST is never resent \(§8\)/);
    expect(hits['POST /always-mangled']).toBe(1);
    expect(task.meta).toMatchObject({ targetTrouble: true, notApi: 1 });
  });

  it('an answer that parses is handed on at once, unmarked', async () => {
    const res = await client().get('/fine');
    expect(hits['GET /fine']).toBe(1);
    expect(res.notJsonResent).toBeUndefined();
  });
});
