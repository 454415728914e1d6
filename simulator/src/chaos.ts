/**
 * Chaos mode (an addition to the control contract, issue 8): injects throttling, dropped
 * connections and slow answers into PUBLIC API responses (never into `/__control`), so the suite's
 * resilience can be proven: a conformant target under chaos must still get no `fail` verdict.
 *
 * Config key `chaos` (PUT /__control/config): `{ rate429, rateReset, delayMs, seed }` or null.
 * - `rate429`: probability 0..1 that a request is answered 429 (envelope, code RATE_LIMITED — §7
 *   leaves 429 codes endpoint-specific) with `Retry-After: 0`, before it is processed.
 * - `rateReset`: probability 0..1 that the connection is destroyed before any answer, before the
 *   request is processed (so a retried request is never applied twice).
 * - `delayMs`: extra latency in ms added to every public request.
 * - `seed`: seed of the deterministic generator (mulberry32); the same seed gives the same draws.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SimState } from './state.ts';
import { ApiError, sendError } from './envelope.ts';

/** Chaos settings; absent or null when chaos is off. */
export interface ChaosConfig {
  rate429: number;
  rateReset: number;
  delayMs: number;
  seed: number;
}

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
  return { rate429: num('rate429', 0, 1), rateReset: num('rateReset', 0, 1), delayMs: num('delayMs', 0, 60_000), seed: num('seed', 1, 2 ** 32) };
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

/**
 * onRequest hook body: applies the configured chaos to one public request. Returns true when the
 * request was answered (429) or dropped here and must not be processed further.
 */
export async function applyChaos(state: SimState, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const chaos = state.config.chaos;
  if (!chaos) return false;
  if (chaos.delayMs > 0) await new Promise((r) => setTimeout(r, chaos.delayMs));
  const roll = draw(state, chaos);
  if (roll < chaos.rateReset) {
    reply.hijack();
    request.raw.socket.destroy();
    return true;
  }
  if (roll < chaos.rateReset + chaos.rate429) {
    reply.header('retry-after', '0');
    await sendError(reply, new ApiError(429, 'RATE_LIMITED', 'Too many requests'));
    return true;
  }
  return false;
}
