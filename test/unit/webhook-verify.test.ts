/**
 * The verifier toolkit (helpers/webhooks/verify.ts, §6 Model A rules 1–2, Model B rules 1–2) on
 * every vector of test/vectors/webhook-signatures.json, with the HMAC cross-checked against an
 * independent, well-kept implementation (@octokit/webhooks-methods: GitHub's X-Hub-Signature-256 is
 * the same `sha256=<hex>` HMAC-SHA256 over the raw body), plus seeded properties (fast-check).
 */
import { describe, expect, test } from 'vitest';
import { readEnv } from '../../helpers/base/env';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import { verifyModelA, verifyModelB, signModelB, getHeader, deliveryIdOf, HEADER_SIGNATURE } from '../../helpers/webhooks/verify';
import { Deduper } from '../../helpers/webhooks/dedupe';

const here = dirname(fileURLToPath(import.meta.url));
const vectors = JSON.parse(readFileSync(join(here, '..', 'vectors', 'webhook-signatures.json'), 'utf8')) as {
  modelB: { name: string; bodyBase64: string; secret: string; header: string | null; expect: string }[];
  modelA: { name: string; secret: string; header: string | null; expect: string }[];
};

/** Seed of the property tests; printed on failure by fast-check and fixed for reproducibility. */
const SEED = readEnv('FC_SEED') ?? 20_240_601;

const headersOf = (name: string, value: string | null): Record<string, string> => (value === null ? {} : { [name]: value });

describe('model B vectors (X-Service-Signature)', () => {
  test('the file covers the negatives the guide promises', () => {
    const reasons = new Set(vectors.modelB.map((v) => v.expect));
    for (const r of ['ok', 'mismatch', 'wrong-prefix', 'length', 'bad-hex', 'missing-header']) expect(reasons).toContain(r);
    expect(vectors.modelB.length).toBeGreaterThanOrEqual(15);
  });

  test.each(vectors.modelB)('$name → $expect', (v) => {
    const body = Buffer.from(v.bodyBase64, 'base64');
    const result = verifyModelB(body, headersOf('X-Service-Signature', v.header), v.secret);
    if (v.expect === 'ok') expect(result).toEqual({ ok: true });
    else {
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.reason).toBe(v.expect);
        expect(result.message).not.toContain(v.secret);
      }
    }
  });

  /** Positive vectors octokit can sign: it takes non-empty text, so bodies must round-trip through UTF-8. */
  const octokitComparable = vectors.modelB.filter((v) => {
    const body = Buffer.from(v.bodyBase64, 'base64');
    return (
      v.expect === 'ok' &&
      !!v.header &&
      /^\s*sha256=[0-9a-f]{64}\s*$/.test(v.header) &&
      body.length > 0 &&
      Buffer.from(body.toString('utf8'), 'utf8').equals(body)
    );
  });

  test('at least two positive vectors are cross-checked with octokit', () => {
    expect(octokitComparable.length).toBeGreaterThanOrEqual(2);
  });

  test.each(octokitComparable)('octokit agrees on the HMAC of "$name"', async (v) => {
    const body = Buffer.from(v.bodyBase64, 'base64');
    expect(await octokitSign(v.secret, body.toString('utf8'))).toBe(v.header!.trim());
    expect(signModelB(body, v.secret)).toBe(v.header!.trim());
  });

  test('octokit refuses exactly the mismatching vectors too', async () => {
    for (const v of vectors.modelB.filter((x) => x.expect === 'mismatch')) {
      const text = Buffer.from(v.bodyBase64, 'base64').toString('utf8');
      expect(await octokitVerify(v.secret, text, v.header!), v.name).toBe(false);
    }
  });
});

describe('model A vectors (x-service-core-secret)', () => {
  test.each(vectors.modelA)('$name → $expect', (v) => {
    const result = verifyModelA(headersOf('x-service-core-secret', v.header), v.secret);
    if (v.expect === 'ok') expect(result).toEqual({ ok: true });
    else {
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.reason).toBe(v.expect);
        expect(result.message).not.toContain(v.secret);
      }
    }
  });
});

describe('properties (seeded)', () => {
  test('any body and secret: our signature equals octokit and verifies; any change to the body fails', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.string({ minLength: 1, maxLength: 5 }),
        async (text, secret, extra) => {
          const body = Buffer.from(text, 'utf8');
          const header = await octokitSign(secret, body.toString('utf8'));
          expect(signModelB(body, secret)).toBe(header);
          expect(verifyModelB(body, { 'x-service-signature': header }, secret)).toEqual({ ok: true });
          const changed = Buffer.concat([body, Buffer.from(extra, 'utf8')]);
          expect(verifyModelB(changed, { 'x-service-signature': header }, secret).ok).toBe(false);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  test('model A accepts only the exact secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), fc.string({ minLength: 1, maxLength: 80 }), (secret, other) => {
        expect(verifyModelA({ 'x-service-core-secret': secret }, secret).ok).toBe(true);
        expect(verifyModelA({ 'x-service-core-secret': other }, secret).ok).toBe(other === secret);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('header access', () => {
  test('names are matched case-insensitively in plain objects, node headers and Fetch Headers', () => {
    const body = Buffer.from('{"type":"x"}');
    const sig = signModelB(body, 's3cr3t-value');
    expect(verifyModelB(body, { 'X-SERVICE-SIGNATURE': sig }, 's3cr3t-value').ok).toBe(true);
    expect(verifyModelB(body, new Headers({ 'X-Service-Signature': sig }), 's3cr3t-value').ok).toBe(true);
    expect(getHeader({ 'x-service-delivery': ['a', 'b'] }, 'X-Service-Delivery')).toBe('a, b');
    expect(deliveryIdOf({ 'X-Service-Delivery': ' 0b7d7c1e-6a4f-4b1a-9f3e-2d1c0b9a8f7e ' })).toBe('0b7d7c1e-6a4f-4b1a-9f3e-2d1c0b9a8f7e');
    expect(deliveryIdOf({})).toBeUndefined();
    expect(HEADER_SIGNATURE).toBe('x-service-signature');
  });

  test('a string body is taken as its UTF-8 bytes', () => {
    const text = '{"name":"Café"}';
    expect(verifyModelB(text, { 'x-service-signature': signModelB(Buffer.from(text, 'utf8'), 'k-123456') }, 'k-123456').ok).toBe(true);
  });
});

describe('Deduper', () => {
  test('first sighting processes, later ones are duplicates until the TTL passes', () => {
    let now = 0;
    const d = new Deduper(1_000, () => now);
    expect(d.claim('a')).toBe('process');
    expect(d.claim('a')).toBe('duplicate');
    expect(d.claim('b')).toBe('process');
    now = 2_000;
    expect(d.claim('a')).toBe('process');
    expect(d.size).toBe(1);
    d.release('a');
    expect(d.claim('a')).toBe('process');
    expect(() => d.claim('')).toThrow(TypeError);
  });
});
