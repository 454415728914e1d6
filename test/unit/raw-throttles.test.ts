/**
 * A raw read waits out throttles (§7 a 429 may answer any request; §8 clients back off), so a
 * gateway's 429 is never judged as the answer to what a raw-bytes test sends (issue 41): the first
 * answer that is not a 429 comes back; a 429 on every attempt is a `throttled` TargetError.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { rawStart } from '../../helpers/http/raw-http';
import { rawReadPastThrottles } from '../../helpers/checks/limits';
import { TargetError, THROTTLE_RETRIES } from '../../helpers/http/client';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A server answering 429 (Retry-After 0, the API's envelope) to the first `throttled` requests, then 200. */
async function throttling(throttled: number): Promise<{ base: string; seen: () => number }> {
  let n = 0;
  server = createServer((_req, res) => {
    n++;
    const body = n <= throttled ? '{"success":false,"error":{"code":"RATE_LIMITED","message":"throttled"}}' : '{"success":true,"data":{}}';
    res.writeHead(n <= throttled ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '0', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen: () => n };
}

const get = (base: string) => `${rawStart(base, '/assistants/a-1')}Accept: application/json\r\nConnection: close\r\n\r\n`;

it('sends a throttled read again and answers the first answer that is not a 429', async () => {
  const t = await throttling(2);
  const res = await rawReadPastThrottles(t.base, get(t.base));
  expect(res.status).toBe(200);
  expect(t.seen()).toBe(3);
});

it('a read throttled on every attempt is a throttled TargetError, not an answer to judge', { timeout: 60_000 }, async () => {
  const t = await throttling(1_000);
  const err = await rawReadPastThrottles(t.base, get(t.base)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TargetError);
  expect((err as TargetError).kind).toBe('throttled');
  expect(t.seen()).toBe(THROTTLE_RETRIES + 1);
});

it('sends no write: a POST is never resent blindly (§8)', async () => {
  await expect(rawReadPastThrottles('http://127.0.0.1:9', 'POST /sms HTTP/1.1\r\n\r\n')).rejects.toThrow(/only GET and HEAD/);
});
