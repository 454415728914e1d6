/**
 * A property's runs side by side (issue 43: over a slow network a model-based test's runs, each a
 * sequence of commands in order, were the longest chain of requests of the whole run). Runs
 * `lanes` checks of one property at once, each with its own seed (the run's seed, then the next
 * ones) and its share of the runs; every run of a model-based property starts from fresh fixtures
 * of its own, so runs of different lanes never share state. A replay (`path` given) runs the one
 * lane it names, as fast-check would. Pure apart from running the property.
 */
import fc from 'fast-check';

/** What {@link checkSideBySide} answers: fast-check's details of the lane that failed (or of the first lane), and the runs of all lanes. */
export interface SideBySideResult<Ts> {
  /** fast-check's run details: `seed` and `counterexamplePath` replay the failing lane with FC_SEED and FC_PATH. */
  details: fc.RunDetails<Ts>;
  /** Runs done over all lanes. */
  numRuns: number;
}

/**
 * Checks `property` in `lanes` lanes at once: lane i with seed `params.seed + i` and about
 * `params.numRuns / lanes` runs (at least one). With `params.path` set (a replay), one lane: the
 * seed and path given.
 * @param params fast-check's parameters; `seed` and `numRuns` required
 * @param lanes how many lanes at once (1 or more)
 * @returns the first failing lane's details, else the first lane's, with the total of runs
 */
export async function checkSideBySide<Ts>(
  property: fc.IAsyncProperty<Ts>,
  params: fc.Parameters<Ts> & { seed: number; numRuns: number },
  lanes: number,
): Promise<SideBySideResult<Ts>> {
  const n = params.path ? 1 : Math.max(1, Math.min(lanes, params.numRuns));
  const runs = (i: number) => Math.floor(params.numRuns / n) + (i < params.numRuns % n ? 1 : 0);
  const all = await Promise.all(
    Array.from({ length: n }, (_, i) => fc.check(property, { ...params, seed: (params.seed + i) | 0, numRuns: params.path ? params.numRuns : runs(i) })),
  );
  const failed = all.find((d) => d.failed);
  return { details: failed ?? all[0], numRuns: all.reduce((sum, d) => sum + d.numRuns, 0) };
}
