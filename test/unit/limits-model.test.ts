import { describe, expect, it } from 'vitest';
import { allows } from '../../helpers/generate/lifecycle-model';
import { allowedBatch, allowedLoneMint, allowedSuite, initialLimits, rateBreach, spent, unnamedIds } from '../../helpers/generate/limits-model';

describe('limits model', () => {
  it('accepts a lone mint within the budget, wants the 429 past it, and either once a refusal left the budget unknown', () => {
    const m = initialLimits(3);
    expect(allows(allowedLoneMint(m), 201, undefined)).toBe(true);
    expect(allows(allowedLoneMint(m), 429, undefined)).toBe(false);
    spent(m, 3, 0);
    expect(allows(allowedLoneMint(m), 429, undefined)).toBe(true);
    expect(allows(allowedLoneMint(m), 201, undefined)).toBe(false);
    spent(m, 0, 1);
    expect(m.exact).toBe(false);
    expect(allows(allowedLoneMint(m), 201, undefined) && allows(allowedLoneMint(m), 429, undefined)).toBe(true);
    expect(allows(allowedLoneMint(m), 409, 'not_live')).toBe(false);
  });

  it('calls a race over the budget left a breach, and one within it none', () => {
    const m = initialLimits(5);
    spent(m, 4, 0);
    expect(rateBreach(m, 1, 3, 'both key types')).toBeUndefined();
    expect(rateBreach(m, 2, 3, 'both key types')).toMatch(/2 of 3 mints .* with 1 left of the tenant's budget of 5/);
    spent(m, 0, 2);
    // The budget left is unknown once a mint was refused: only the total is judged.
    expect(rateBreach(m, 1, 3, 'x')).toBeUndefined();
    expect(rateBreach(m, 2, 3, 'x')).toMatch(/holds 6 accepted mints .* over its budget of 5/);
  });

  it('judges a batch by its size and uniqueness alone', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, k) => `id-${k}`);
    expect(allowedBatch(ids(1)).statuses).toEqual([200]);
    expect(allowedBatch(ids(25)).statuses).toEqual([200]);
    expect(allowedBatch(ids(0))).toMatchObject({ statuses: [400], code: 'VALIDATION_ERROR', clause: '4.5/insights-batch-bounds' });
    expect(allowedBatch(ids(26))).toMatchObject({ statuses: [400], code: 'VALIDATION_ERROR' });
    expect(allowedBatch(['a', 'b', 'a'])).toMatchObject({ statuses: [400], clause: '4.5/insights-batch-unique' });
  });

  it('accepts a suite of up to 12 cases at either end of iterations, and refuses 13', () => {
    expect(allowedSuite(12, 10)).toMatchObject({ statuses: [200, 201], clause: '4.5/test-suite-max-cases' });
    expect(allowedSuite(1, 1)).toMatchObject({ statuses: [200, 201], clause: '4.5/test-suite-iterations' });
    expect(allowedSuite(13, 1)).toMatchObject({ statuses: [400], clause: '4.5/test-suite-max-cases' });
  });

  it('finds each id named as a key or a value anywhere in a batch answer', () => {
    const data = { insights: [], missing: [{ id: 'a', reason: 'call_not_found' }], byId: { b: 'metrics_not_found' } };
    expect(unnamedIds(['a', 'b', 'c'], data)).toEqual(['c']);
  });
});
