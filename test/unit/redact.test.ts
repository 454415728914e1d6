import { describe, expect, it } from 'vitest';
import { readEnv } from '../../helpers/base/env';
import fc from 'fast-check';
import { redact, redactCut, redactHeaders, redactValue, registerSecret } from '../../helpers/base/redact';

/** fast-check's seed (FC_SEED to replay a failure; printed with any counterexample). */
const SEED = readEnv('FC_SEED') ?? 20_261_125;

describe('redaction (one point for every secret)', () => {
  registerSecret('sk_live_abcdef123456', 'tenant key A');
  registerSecret('sk_live_abcdef123456789', 'organization key O');

  it('replaces a registered secret wherever it appears', () => {
    expect(redact('key=sk_live_abcdef123456 end')).toBe('key=[REDACTED tenant key A] end');
  });

  it('replaces the longest secret first so a prefix does not leak the rest', () => {
    expect(redact('sk_live_abcdef123456789')).toBe('[REDACTED organization key O]');
  });

  it('redacts nested values', () => {
    expect(redactValue({ a: ['x sk_live_abcdef123456'] })).toEqual({ a: ['x [REDACTED tenant key A]'] });
  });

  it('hides secret headers whatever they hold, keeping the scheme word', () => {
    const h = redactHeaders({ Authorization: 'ApiKey anything-at-all', 'x-service-core-secret': 'zzz', 'x-tenant-id': 'abc' });
    expect(h).toEqual({ Authorization: 'ApiKey [REDACTED]', 'x-service-core-secret': '[REDACTED]', 'x-tenant-id': 'abc' });
  });

  it('ignores values too short to be keys', () => {
    registerSecret('ab', 'short');
    expect(redact('ab cd')).toBe('ab cd');
  });

  it('redactCut: a short text is redacted whole, a long one cut after max characters with its length', () => {
    expect(redactCut('key=sk_live_abcdef123456 end', 100)).toBe('key=[REDACTED tenant key A] end');
    expect(redactCut(`${'x'.repeat(30)}`, 10)).toBe(`${'x'.repeat(10)}… (30 characters)`);
    // A secret wholly after the cut is not kept at all.
    expect(redactCut(`${'x'.repeat(20)}sk_live_abcdef123456`, 10)).toBe(`${'x'.repeat(10)}… (40 characters)`);
  });

  it('redactCut: a secret running across the cut is kept whole and redacted whole', () => {
    expect(redactCut(`xxxxsk_live_abcdef123456yyyy`, 8)).toBe('xxxx[REDACTED tenant key A]… (28 characters)');
    expect(redactCut(`xxxxsk_live_abcdef123456789yyyy`, 8)).toBe('xxxx[REDACTED organization key O]… (31 characters)');
  });

  it('redactCut: whatever the text and the cut, no part of a secret of 4 characters or more is left', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('x', '.', ' ', 'sk_live_abcdef123456', 'sk_live_abcdef123456789'), { maxLength: 40 }),
        fc.integer({ min: 1, max: 200 }),
        (parts, max) => {
          const out = redactCut(parts.join(''), max);
          expect(out.includes('sk_l')).toBe(false);
          expect(/[a-f0-9]{4}/.test(out)).toBe(false);
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });
});
