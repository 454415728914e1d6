/**
 * The order in which `npm test` starts its test files: the longest first, so that the run ends with
 * short files filling the cores rather than with one long file alone. vitest's own order is by the
 * durations of the previous run, which a fresh clone does not have (it then falls back to file
 * size, and the pipeline rehearsal is a small file that runs for a minute). Files named in
 * {@link LONGEST} start first, in that order; every other file keeps vitest's order after them.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files known to run longest (measured in docs/benchmarks.md), longest first, relative to the project root. */
export const LONGEST = [
  'test/integration/pipelines.test.ts',
  'test/integration/live-mode.test.ts',
  'test/integration/alt-personality.test.ts',
  'test/integration/own-clock.test.ts',
  'test/tooling/mutation.test.ts',
  'test/integration/target-trouble.test.ts',
  'test/integration/chaos.test.ts',
  'test/integration/reach.test.ts',
  'test/unit/typecheck.test.ts',
  'test/tooling/lint.test.ts',
  // The suite files that take longest against a distant target (the bench's per-file figures at
  // 80 ms per answer): robustness, whose 5,000 requests make it the run's largest CPU load, then
  // the longest chains of requests one after another. Each takes at least its chain × the answer
  // time, so they start first, or one of them ends the run alone.
  'suites/robustness.test.ts',
  'suites/value-space.test.ts',
  'suites/validation-bounds.test.ts',
  'suites/cross-tenant.test.ts',
  'suites/limits-model.test.ts',
  'suites/lifecycle-model.test.ts',
  'suites/auth.test.ts',
  // Not beside robustness: webhooks judges retry waits the embedded simulator's timers make, and
  // robustness keeps the simulator's thread busiest (a wait stretched there is not the worker's
  // own lateness, which is all the timing checks can discount; docs/benchmarks.md).
  'suites/webhooks.test.ts',
  'suites/monitoring-limits.test.ts',
  // 65-73 requests in a row by design (its rank test samples response times one at a time).
  'suites/timing.test.ts',
  'suites/route-space.test.ts',
  'suites/merge-model.test.ts',
  'suites/catalogue-model.test.ts',
];

/** vitest's sequencer with {@link LONGEST} moved to the front. */
export default class LongestFirstSequencer extends BaseSequencer {
  /** Sorts `files`: the {@link LONGEST} ones first in their order, then the rest in vitest's order. */
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const i = LONGEST.findIndex((f) => spec.moduleId.endsWith(`/${f}`));
      return i === -1 ? LONGEST.length : i;
    };
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map((x) => x.spec);
  }
}
