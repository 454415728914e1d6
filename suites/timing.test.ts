/**
 * Timing side channel of §5.7 (informational): does the response time tell a never-existed id
 * from another tenant's? For GET /assistants/{id} and a bare-404 route (POST /calls/{id}/end of
 * §7 exception 2), interleaved samples of both lookups are compared with a Mann–Whitney U rank
 * test (normal approximation with tie correction). The report gives both medians and the p-value;
 * the test fails only with `CORE_API_STRICT_TIMING=1`.
 *
 * Bounded: at most {@link MAX_PAIRS} pairs per route ({@link MAX_PAIRS_BUDGETED} on a live tenant)
 * after {@link WARMUP} warm-up pairs, and never longer than {@link BUDGET_MS} of sampling per route.
 */
import { beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en';
import { median, wilcoxonRankSum, errorFunction } from 'simple-statistics';
import { useWorld } from '../helpers/world/world';
import { assistantFixture } from '../helpers/world/fixtures';
import { clauseTest, skipUnlessServed, skipWith, type ClauseContext } from '../helpers/checks/clause';
import { switchReason } from '../helpers/target/target';
import { readEnv } from '../helpers/base/env';
import type { ApiResponse } from '../helpers/http/client';
import { statusLine } from '../helpers/base/exchange';
import { stopwatch } from '../helpers/checks/clock';

const world = useWorld();

/** Pairs sampled per route at most (each pair: one never-existed and one other-tenant request). */
const MAX_PAIRS = 80;
/**
 * The same where a live run's request budget applies (no control API: 2,000 requests for a
 * full run by default): 40 pairs still give the rank test a verdict on a difference worth reporting.
 */
const MAX_PAIRS_BUDGETED = 40;
/** Pairs sent first and discarded (connection set-up, JIT, caches). */
const WARMUP = 5;
/** Wall-time budget of the sampling of one route, in ms. */
const BUDGET_MS = 3_000;
/** Fewest pairs for which a verdict is given. */
const MIN_PAIRS = 10;
/** Two-sided significance level under CORE_API_STRICT_TIMING=1. */
const ALPHA = 0.01;
/** Seed of the interleaving order; printed in every finding. */
const SEED = readEnv('CORE_API_TIMING_SEED');

/** Result of a two-sample rank test. */
interface RankTest {
  /** Mann–Whitney U of the first sample. */
  u: number;
  /** Standard normal deviate (continuity- and tie-corrected). */
  z: number;
  /** Two-sided p-value (normal approximation). */
  p: number;
}

/**
 * Mann–Whitney U test of two samples (durations in ms), two-sided, normal approximation with tie
 * correction and continuity correction. Rank sums from simple-statistics (`wilcoxonRankSum`, midranks).
 * @throws Error when a sample is empty.
 */
function mannWhitney(x: number[], y: number[]): RankTest {
  const n1 = x.length;
  const n2 = y.length;
  const n = n1 + n2;
  const r1 = wilcoxonRankSum(x, y);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const counts = new Map<number, number>();
  for (const v of [...x, ...y]) counts.set(v, (counts.get(v) ?? 0) + 1);
  let ties = 0;
  for (const t of counts.values()) ties += t * t * t - t;
  const mu = (n1 * n2) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1))));
  if (sigma === 0) return { u, z: 0, p: 1 };
  const diff = u - mu;
  const z = (diff - Math.sign(diff) * 0.5) / sigma;
  const p = Math.min(1, 2 * (1 - 0.5 * (1 + errorFunction(Math.abs(z) / Math.SQRT2))));
  return { u, z, p };
}

let assistantB: { id: string };
let callB: { id: string } | undefined;
let callWhy = '';

beforeAll(async () => {
  const w = world();
  assistantB = await assistantFixture(w, w.as('tenantB'), 'timing-b');
  if (w.control) {
    try {
      callB = await w.control.startCall({ tenantId: w.tenantB.id, assistantId: assistantB.id });
      await w.control.endCall(callB.id);
    } catch (e) {
      callWhy = `precondition failed: a call of tenant B could not be made (${(e as Error).message.slice(0, 200)})`;
    }
  } else callWhy = switchReason('control', 'not applicable to this target: needs a call of tenant B from the control API');
}, 60_000);

interface Samples {
  never: number[];
  other: number[];
  /** Status lines seen per kind, for the precondition that both answer alike. */
  statuses: Set<string>;
  elapsedMs: number;
}

/** Interleaved sampling: each pair sends both lookups in a seeded random order. */
async function sample(never: () => Promise<ApiResponse>, other: () => Promise<ApiResponse>): Promise<Samples> {
  faker.seed(SEED);
  const s: Samples = { never: [], other: [], statuses: new Set(), elapsedMs: 0 };
  const sampling = stopwatch();
  const pairs = world().target.capabilities.control ? MAX_PAIRS : MAX_PAIRS_BUDGETED;
  for (let i = 0; i < WARMUP + pairs; i++) {
    if (sampling.over(BUDGET_MS)) break;
    const order = faker.datatype.boolean() ? (['never', 'other'] as const) : (['other', 'never'] as const);
    for (const kind of order) {
      const res = await (kind === 'never' ? never() : other());
      s.statuses.add(`${kind}: ${statusLine(res)}`);
      if (i >= WARMUP) s[kind].push(res.durationMs);
    }
  }
  s.elapsedMs = sampling.elapsedMs();
  return s;
}

/** Judges the samples of `route` on the test's clause (5.7/timing-indistinguishable), through `ctx.verify`; skips when they prove nothing. */
function verdict(route: string, s: Samples, ctx: ClauseContext): void {
  if (s.never.length < MIN_PAIRS) skipWith(ctx, `precondition failed: only ${s.never.length} pairs within ${BUDGET_MS} ms (need ${MIN_PAIRS})`);
  const kinds = [...s.statuses];
  const neverLines = new Set(kinds.filter((k) => k.startsWith('never')).map((k) => k.slice(7)));
  const otherLines = new Set(kinds.filter((k) => k.startsWith('other')).map((k) => k.slice(7)));
  if (neverLines.size !== 1 || otherLines.size !== 1 || [...neverLines][0] !== [...otherLines][0]) {
    skipWith(ctx, `precondition failed: the two lookups do not answer alike (${kinds.join('; ')}); suites/cross-tenant.test.ts reports that, timing is moot`);
  }
  const t = mannWhitney(s.never, s.other);
  const ms = (v: number) => `${v.toFixed(3)} ms`;
  const detail =
    `${route}: never-existed median ${ms(median(s.never))}, other-tenant median ${ms(median(s.other))}, ` +
    `n = ${s.never.length} + ${s.other.length}, Mann–Whitney U = ${t.u}, z = ${t.z.toFixed(2)}, p = ${t.p < 1e-12 ? '< 1e-12' : t.p < 1e-3 ? t.p.toExponential(1) : t.p.toPrecision(3)} ` +
    `(${Math.round(s.elapsedMs)} ms of sampling, seed ${SEED})`;
  const indistinguishable = t.p >= ALPHA;
  ctx.verify.inform(`${route}: response time does not tell another tenant's id from a never-existed one`, indistinguishable, detail);
  if (readEnv('CORE_API_STRICT_TIMING')) {
    ctx.verify.that(`${route}: the rank test finds no timing difference at p < ${ALPHA} (CORE_API_STRICT_TIMING=1)`, indistinguishable, {
      expected: `p ≥ ${ALPHA}`,
      actual: detail,
    });
  }
}

clauseTest(
  '5.7/timing-indistinguishable',
  "GET /assistants/{id}: another tenant's assistant takes as long as a never-existed one (informational)",
  async (ctx) => {
    const a = world().as('tenantA');
    const s = await sample(
      () => a.get(`/assistants/${randomUUID()}`, { retry: false }),
      () => a.get(`/assistants/${assistantB.id}`, { retry: false }),
    );
    verdict('GET /assistants/{id}', s, ctx);
  },
  { timeout: 20_000 },
);

clauseTest(
  '5.7/timing-indistinguishable',
  "POST /calls/{id}/end (bare 404): another tenant's call takes as long as a never-existed one (informational)",
  async (ctx) => {
    if (!callB) skipWith(ctx, callWhy);
    const a = world().as('tenantA');
    const body = { actorLabel: 'conformance timing check' };
    const probe = await a.post(`/calls/${randomUUID()}/end`, body, { retry: false });
    skipUnlessServed(ctx, probe, 'POST /calls/{id}/end');
    const s = await sample(
      () => a.post(`/calls/${randomUUID()}/end`, body, { retry: false }),
      () => a.post(`/calls/${callB!.id}/end`, body, { retry: false }),
    );
    verdict('POST /calls/{id}/end', s, ctx);
  },
  { requires: ['destructive'], timeout: 20_000 },
);
