/** helpers/generate/side-by-side.ts: a property's runs split over lanes, each seeded apart, a failure replayable. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { checkSideBySide } from '../../helpers/generate/side-by-side';

it('splits the runs over the lanes, runs the lanes at once and counts every run', async () => {
  let inFlight = 0;
  let most = 0;
  const property = fc.asyncProperty(fc.integer(), async () => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    inFlight -= 1;
  });
  const out = await checkSideBySide(property, { seed: 42, numRuns: 10 }, 4);
  expect(out.numRuns).toBe(10);
  expect(out.details.failed).toBe(false);
  expect(most).toBe(4);
});

it('answers the failing lane, whose seed and path replay the failure alone', async () => {
  const property = fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
    if (n > 900) throw new Error(`too big: ${n}`);
  });
  const out = await checkSideBySide(property, { seed: 7, numRuns: 200 }, 3);
  expect(out.details.failed).toBe(true);
  const replay = await checkSideBySide(property, { seed: out.details.seed, numRuns: 200, path: out.details.counterexamplePath ?? undefined }, 3);
  expect(replay.details.failed).toBe(true);
  expect(replay.details.counterexample).toEqual(out.details.counterexample);
});
