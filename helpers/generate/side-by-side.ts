/**
 * A property's runs side by side (issue 43: over a slow network a model-based test's runs, each a
 * sequence of commands in order, were the longest chain of requests of the whole run). Runs
 * `lanes` checks of one property at once, each with its own seed (the run's seed, then the next
 * ones) and its share of the runs; every run of a model-based property starts from fresh fixtures
 * of its own, or from fixtures of its lane (a property per lane), so runs of different lanes never
 * share state. Once a lane fails, the other lanes send no further runs (each counts as passed), so
 * what is left of a request budget goes to shrinking that failure, as in one lane. A replay (`path`
 * given) runs the one lane it names, as fast-check would. Pure apart from running the property.
 */
import fc from 'fast-check';

/** What {@link checkSideBySide} answers: fast-check's details of the lane that failed (or of the first lane), and the runs of all lanes. */
export interface SideBySideResult<Ts> {
  /** fast-check's run details: `seed` and `counterexamplePath` replay the failing lane with FC_SEED and FC_PATH. */
  details: fc.RunDetails<Ts>;
  /** Runs done over all lanes. */
  numRuns: number;
  /** Whether some lane ran out of its time budget (`interruptAfterTimeLimit`) before its share of the runs. */
  interrupted: boolean;
}

/**
 * The property a lane checks: one property for every lane, or a property per lane, made from the
 * lane's position (0 to `lanes - 1`; a replay runs position 0) so that it works on fixtures of that
 * lane alone.
 */
export type LaneProperty<Ts> = fc.IAsyncProperty<Ts> | ((lane: number) => fc.IAsyncProperty<Ts>);

/**
 * Lane `lane`'s property, whose runs pass at once, unsent, after another lane's run failed (`first.lane`,
 * set by the first failing run); the failing lane runs and shrinks as fast-check would.
 */
function stoppable<Ts>(p: fc.IAsyncProperty<Ts>, lane: number, first: { lane?: number }): fc.IAsyncProperty<Ts> {
  return {
    isAsync: () => true,
    generate: (mrng, runId) => p.generate(mrng, runId),
    shrink: (value) => p.shrink(value),
    runBeforeEach: () => p.runBeforeEach(),
    runAfterEach: () => p.runAfterEach(),
    run: async (v) => {
      if (first.lane !== undefined && first.lane !== lane) return null;
      const out = await p.run(v);
      if (out !== null && !fc.PreconditionFailure.isFailure(out)) first.lane ??= lane;
      return out;
    },
  };
}

/**
 * Checks `property` in `lanes` lanes at once: lane i with seed `params.seed + i` and about
 * `params.numRuns / lanes` runs (at least one). With `params.path` set (a replay), one lane, at
 * position 0: the seed and path given. A lane's seed replays it alone: the same seed draws the same
 * runs in the same order, whatever the lane's position. After a lane's run fails, the other lanes'
 * further runs pass unsent.
 * @param property one property for all lanes, or the property of lane i (see {@link LaneProperty})
 * @param params fast-check's parameters; `seed` and `numRuns` required
 * @param lanes how many lanes at once (1 or more)
 * @returns the details of the lane that failed first, else the first lane's, with the total of runs (unsent ones included)
 */
export async function checkSideBySide<Ts>(
  property: LaneProperty<Ts>,
  params: fc.Parameters<Ts> & { seed: number; numRuns: number },
  lanes: number,
): Promise<SideBySideResult<Ts>> {
  const n = params.path ? 1 : Math.max(1, Math.min(lanes, params.numRuns));
  const runs = (i: number) => Math.floor(params.numRuns / n) + (i < params.numRuns % n ? 1 : 0);
  const first: { lane?: number } = {};
  const of = (i: number) => stoppable(typeof property === 'function' ? property(i) : property, i, first);
  const all = await Promise.all(
    Array.from({ length: n }, (_, i) => fc.check(of(i), { ...params, seed: (params.seed + i) | 0, numRuns: params.path ? params.numRuns : runs(i) })),
  );
  const failed = first.lane !== undefined && all[first.lane].failed ? all[first.lane] : all.find((d) => d.failed);
  return { details: failed ?? all[0], numRuns: all.reduce((sum, d) => sum + d.numRuns, 0), interrupted: all.some((d) => d.interrupted) };
}
