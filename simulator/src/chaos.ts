/**
 * Chaos mode (an addition to the control contract): injects throttling, dropped
 * connections and slow answers into PUBLIC API responses (never into `/__control`), so the suite's
 * resilience can be proven: a conformant target under chaos must still get no `fail` verdict.
 *
 * Config key `chaos` (PUT /__control/config):
 * `{ rate429, rateReset, delayMs, seed, placement, retryAfterSeconds }` or null.
 * - `rate429`: probability 0..1 that a request is answered 429 before it is processed.
 * - `rateReset`: probability 0..1 that the connection is destroyed before any answer, before the
 *   request is processed (so a retried request is never applied twice).
 * - `delayMs`: extra latency in ms added to every public request.
 * - `seed`: seed of the deterministic generator (mulberry32); the same seed gives the same draws.
 * - `placement` (default `app`): where the limiter sits.
 *   - `app`: inside the API, after authentication: only authenticated requests are throttled, with
 *     the envelope (code RATE_LIMITED — §7 leaves 429 codes endpoint-specific) and `Retry-After`.
 *   - `front`: in front of the API, as an API gateway: before authentication and routing, so a
 *     request without credentials or to an unknown route may be throttled too, with the bodies
 *     gateways send (Kong's and AWS API Gateway's `{"message": …}`, nginx's HTML page), and a
 *     `Retry-After` in seconds, as an HTTP date, or none.
 *   - `both`: a gateway in front and a limiter inside, each drawing with half of `rate429` and
 *     `rateReset` (so a request meets about the same rates as with one limiter).
 * - `retryAfterSeconds` (default 0): the delay the 429s ask for.
 *
 * Further keys (default 0), the ways gateways and networks misbehave; drawn at the front stage
 * (before authentication), whatever the placement, from a second roll of the same generator:
 * - `rateHang`: probability that a request is accepted and never answered, before it is
 *   processed (the connection is held until the client gives up, or `hangMs` passes);
 * - `hangMs` (default 60 000): the longest a hung connection is held before it is dropped;
 * - `rateGateway`: probability of a gateway's 5xx page before the request is processed: nginx's
 *   HTML 502, 503 and 504 and AWS API Gateway's JSON 502 `{"message": …}`, never the API's envelope;
 * - `rateTruncate`: probability that the answer, after the request was processed, is cut short:
 *   the headers promise the whole body, half of it comes, and the connection is closed;
 * - `rateResetBody`: the same, but the connection is reset (RST) after half the body.
 * - `rateMangle`: probability that a JSON answer, after the request was processed, arrives well
 *   framed with only the first half of its body (Content-Length fixed to match), as from a proxy
 *   that rewrites bodies: nothing at the HTTP layer says it was cut, only the JSON does not parse.
 * `delayMs` makes a slow target (every answer that much later).
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChaosConfig } from './config.ts';
import type { SimState } from './state.ts';
import { ApiError, sendError } from './envelope.ts';

/** Validates a `chaos` config value; returns the normalised value or throws an Error naming the problem. */
export function parseChaos(v: unknown): ChaosConfig | null {
  if (v === null) return null;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('chaos must be an object or null');
  const o = v as Record<string, unknown>;
  const num = (k: string, def: number, max: number) => {
    const x = o[k] ?? def;
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > max) throw new Error(`chaos.${k} must be a number from 0 to ${max}`);
    return x;
  };
  const placement = o.placement ?? 'app';
  if (placement !== 'app' && placement !== 'front' && placement !== 'both') throw new Error("chaos.placement must be 'app', 'front' or 'both'");
  return {
    rate429: num('rate429', 0, 1),
    rateReset: num('rateReset', 0, 1),
    delayMs: num('delayMs', 0, 60_000),
    seed: num('seed', 1, 2 ** 32),
    placement,
    retryAfterSeconds: num('retryAfterSeconds', 0, 3_600),
    rateHang: num('rateHang', 0, 1),
    hangMs: num('hangMs', 60_000, 600_000),
    rateGateway: num('rateGateway', 0, 1),
    rateTruncate: num('rateTruncate', 0, 1),
    rateResetBody: num('rateResetBody', 0, 1),
    rateMangle: num('rateMangle', 0, 1),
  };
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const generators = new WeakMap<object, { seed: number; next: () => number }>();

function draw(state: SimState, chaos: ChaosConfig): number {
  const g = generators.get(chaos);
  if (g) return g.next();
  const fresh = { seed: chaos.seed, next: mulberry32(chaos.seed) };
  generators.set(chaos, fresh);
  return fresh.next();
}

/** The 429s gateways in front of an API send: body, content type, and how they give the delay. */
const GATEWAY_429S: { contentType: string; body: string; retryAfter: 'seconds' | 'date' | 'none' }[] = [
  { contentType: 'application/json; charset=utf-8', body: '{"message":"API rate limit exceeded"}', retryAfter: 'seconds' }, // Kong
  { contentType: 'application/json', body: '{"message":"Too Many Requests"}', retryAfter: 'none' }, // AWS API Gateway
  {
    contentType: 'text/html',
    body: '<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n<center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    retryAfter: 'date',
  }, // nginx
];

/**
 * Applies the configured chaos to one public request at one stage: `front` (the first hook, before
 * authentication and routing) or `app` (after authentication succeeded); placement `both` draws at
 * each. The delay is added at the front stage only. Returns true when the request was answered (429) or dropped here and must not
 * be processed further.
 */
export async function applyChaos(state: SimState, request: FastifyRequest, reply: FastifyReply, stage: 'front' | 'app' = 'front'): Promise<boolean> {
  const chaos = state.config.chaos;
  if (!chaos) return false;
  if (stage === 'front' && chaos.delayMs > 0) await new Promise((r) => setTimeout(r, chaos.delayMs));
  if (stage === 'front' && (await networkChaos(state, chaos, request, reply))) return true;
  if (chaos.placement !== 'both' && stage !== chaos.placement) return false;
  // With a limiter at both stages each draws at half the rates, so a request meets about the configured ones.
  const share = chaos.placement === 'both' ? 0.5 : 1;
  const rateReset = chaos.rateReset * share;
  const rate429 = chaos.rate429 * share;
  const roll = draw(state, chaos);
  if (roll < rateReset) {
    reply.hijack();
    request.raw.socket.destroy();
    return true;
  }
  if (roll < rateReset + rate429) {
    if (stage === 'app') {
      reply.header('retry-after', String(chaos.retryAfterSeconds));
      await sendError(reply, new ApiError(429, 'RATE_LIMITED', 'Too many requests'));
      return true;
    }
    const g = GATEWAY_429S[Math.floor(((roll - rateReset) / rate429) * GATEWAY_429S.length) % GATEWAY_429S.length];
    if (g.retryAfter === 'seconds') reply.header('retry-after', String(chaos.retryAfterSeconds));
    if (g.retryAfter === 'date') reply.header('retry-after', new Date(Date.now() + chaos.retryAfterSeconds * 1000).toUTCString());
    await reply.code(429).header('content-type', g.contentType).send(g.body);
    return true;
  }
  return false;
}

/** The gateway pages of `rateGateway`: nginx's HTML 502/503/504 and AWS API Gateway's JSON 502. */
const GATEWAY_5XXS: { status: number; contentType: string; body: string }[] = [
  {
    status: 502,
    contentType: 'text/html',
    body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
  },
  {
    status: 503,
    contentType: 'text/html',
    body: '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
  },
  {
    status: 504,
    contentType: 'text/html',
    body: '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
  },
  { status: 502, contentType: 'application/json', body: '{"message":"Internal server error"}' },
];

/**
 * The network and gateway failures (hang, gateway page, body cut short, reset during the body),
 * drawn once per public request at the front stage. Returns true when the request was taken over
 * here (hung or answered by the gateway) and must not be processed.
 */
async function networkChaos(state: SimState, chaos: ChaosConfig, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const total = chaos.rateHang + chaos.rateGateway + chaos.rateTruncate + chaos.rateResetBody + chaos.rateMangle;
  if (total <= 0) return false;
  let roll = draw(state, chaos);
  if (roll < chaos.rateHang) {
    reply.hijack();
    const socket = request.raw.socket;
    const timer = setTimeout(() => socket.destroy(), chaos.hangMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    return true;
  }
  roll -= chaos.rateHang;
  if (roll < chaos.rateGateway) {
    const g = GATEWAY_5XXS[Math.floor((roll / chaos.rateGateway) * GATEWAY_5XXS.length) % GATEWAY_5XXS.length];
    await reply.code(g.status).header('content-type', g.contentType).header('server', 'nginx').send(g.body);
    return true;
  }
  roll -= chaos.rateGateway;
  if (roll < chaos.rateTruncate + chaos.rateResetBody) cutTheBody(reply, roll < chaos.rateTruncate ? 'close' : 'reset');
  else if (roll < chaos.rateTruncate + chaos.rateResetBody + chaos.rateMangle) mangleTheBody(reply);
  return false;
}

/**
 * Lets the request be processed and answered, but a JSON answer keeps only the first half of its
 * body, with its Content-Length set to that half: a well-framed answer whose JSON does not parse.
 * Other answers (a 204, a plain-text page) go out whole.
 */
function mangleTheBody(reply: FastifyReply): void {
  const res = reply.raw;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let head: unknown[] | undefined;
  (res as { writeHead: unknown }).writeHead = (...args: unknown[]) => {
    head = args;
    return res;
  };
  (res as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
    const body = typeof chunk === 'string' || Buffer.isBuffer(chunk) ? Buffer.from(chunk as string) : Buffer.alloc(0);
    const headers = head?.find((a): a is Record<string, unknown> => !!a && typeof a === 'object' && !Array.isArray(a));
    const type = String(headers?.['content-type'] ?? res.getHeader('content-type') ?? '');
    if (body.length >= 2 && /json/i.test(type)) {
      const half = body.subarray(0, Math.floor(body.length / 2));
      if (headers) headers['content-length'] = String(half.length);
      res.setHeader('content-length', String(half.length));
      if (head) writeHead(...head);
      return end(half);
    }
    if (head) writeHead(...head);
    return end(chunk, ...rest);
  };
}

/**
 * Lets the request be processed and answered, but sends only half the answer's body (the headers
 * keep the whole Content-Length), then closes (`close`) or resets (`reset`) the connection.
 */
function cutTheBody(reply: FastifyReply, how: 'close' | 'reset'): void {
  const res = reply.raw;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
    const body = typeof chunk === 'string' || Buffer.isBuffer(chunk) ? Buffer.from(chunk as string) : Buffer.alloc(0);
    if (body.length < 2) return end(chunk, ...rest);
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
      const socket = res.socket;
      if (!socket) return;
      if (how === 'reset' && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
    });
    return res;
  };
}
