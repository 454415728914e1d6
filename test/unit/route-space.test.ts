/** The route-space generator (helpers/generate/route-space.ts): the whole of §4's paths and methods, classified as the spec does. */
import { describe, expect, it } from 'vitest';
import { fillTemplate, METHODS, nonsenseSegments, readOnlyCallPaths, routeSpace, unknownVariants } from '../../helpers/openapi/route-space';
import { OPERATIONS } from '../../helpers/openapi/paths';

describe('route space', () => {
  const space = routeSpace({ seed: 7 });

  it('tries every path of §4 with every method, each stated operation as stated', () => {
    for (const path of new Set(OPERATIONS.map((o) => o.path)))
      for (const method of METHODS) expect(space.some((c) => c.template === path && c.method === method && c.kind !== 'unknown')).toBe(true);
    for (const op of OPERATIONS) expect(space.some((c) => c.kind === 'stated' && c.template === op.path && c.method === op.method.toUpperCase())).toBe(true);
  });

  it('rules out writes on the read-only call paths only, never a stated operation', () => {
    expect(readOnlyCallPaths()).toEqual(expect.arrayContaining(['/calls', '/calls/{id}', '/calls/live']));
    expect(readOnlyCallPaths()).not.toContain('/calls/{id}/monitor-session');
    const ruled = space.filter((c) => c.kind === 'ruled-out');
    expect(ruled.map((c) => `${c.method} ${c.template}`)).toContain('POST /calls');
    expect(ruled.map((c) => `${c.method} ${c.template}`)).toContain('DELETE /calls/{id}');
    for (const c of ruled) expect(OPERATIONS.some((o) => o.path === c.template && o.method.toUpperCase() === c.method)).toBe(false);
  });

  it('sends no unknown variant to a path §4 names, and puts only non-audit paths under /v1', () => {
    const stated = new Set(OPERATIONS.map((o) => o.path));
    for (const c of space.filter((x) => x.kind === 'unknown')) expect(stated.has(c.template)).toBe(false);
    expect(unknownVariants('/v1/churn/audits', 'zq-x').map((v) => v.template)).not.toContain('/v1/v1/churn/audits');
    expect(unknownVariants('/assistants/{id}', 'zq-x').map((v) => v.template)).toEqual([
      '/v2/assistants/{id}',
      '/zq-x/assistants/{id}',
      '/v1/assistants/{id}',
      '/assistants/{id}/zq-x',
    ]);
  });

  it('is the same for a seed and draws nonsense segments no route has', () => {
    expect(routeSpace({ seed: 7 })).toEqual(space);
    expect(nonsenseSegments(7, 3)).toEqual(nonsenseSegments(7, 3));
    for (const s of nonsenseSegments(9, 20)) expect(s).toMatch(/^zq-[a-z0-9]{6,10}$/);
  });

  it('fills placeholders with the resource they name, else the fallback', () => {
    const ids = { assistantId: 'a-1', callId: 'c-1' };
    expect(fillTemplate('/assistants/{id}/tools/{toolId}', ids, (n) => `new-${n}`)).toBe('/assistants/a-1/tools/new-toolId');
    expect(fillTemplate('/calls/{id}/insights', ids, () => 'x')).toBe('/calls/c-1/insights');
    expect(fillTemplate('/test-suites/{id}/run', ids, () => 'x')).toBe('/test-suites/x/run');
  });
});
