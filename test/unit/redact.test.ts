import { describe, expect, it } from 'vitest';
import { redact, redactHeaders, redactValue, registerSecret } from '../../helpers/redact';

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
});
