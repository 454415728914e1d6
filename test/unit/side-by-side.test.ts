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

it('gives each lane the property of its position, whose runs never overlap one another', async () => {
  const busy = new Set<number>();
  const seen: number[] = [];
  let overlapped = false;
  const perLane = (lane: number) =>
    fc.asyncProperty(fc.integer(), async () => {
      if (busy.has(lane)) overlapped = true;
      busy.add(lane);
      seen.push(lane);
      await new Promise((r) => setTimeout(r, 2));
      busy.delete(lane);
    });
  const out = await checkSideBySide(perLane, { seed: 3, numRuns: 9 }, 4);
  expect(out.numRuns).toBe(9);
  expect(overlapped).toBe(false);
  expect([...new Set(seen)].sort()).toEqual([0, 1, 2, 3]);
  expect(seen.filter((l) => l === 0)).toHaveLength(3);
});

it('replays a failing lane of per-lane properties alone, at position 0, with the same counterexample', async () => {
  const lanes: number[] = [];
  const perLane = (lane: number) => {
    lanes.push(lane);
    return fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (n > 950) throw new Error(`too big: ${n}`);
    });
  };
  const out = await checkSideBySide(perLane, { seed: 11, numRuns: 200 }, 4);
  expect(out.details.failed).toBe(true);
  lanes.length = 0;
  const replay = await checkSideBySide(perLane, { seed: out.details.seed, numRuns: 200, path: out.details.counterexamplePath ?? undefined }, 4);
  expect(lanes).toEqual([0]);
  expect(replay.details.counterexample).toEqual(out.details.counterexample);
});

it('says when some lane ran out of its time budget, and only then', async () => {
  const slow = fc.asyncProperty(fc.integer(), async () => {
    await new Promise((r) => setTimeout(r, 20));
  });
  const cut = await checkSideBySide(slow, { seed: 5, numRuns: 40, interruptAfterTimeLimit: 50, markInterruptAsFailure: false }, 2);
  expect(cut.interrupted).toBe(true);
  expect(cut.numRuns).toBeLessThan(40);
  const whole = await checkSideBySide(slow, { seed: 5, numRuns: 4, interruptAfterTimeLimit: 5_000, markInterruptAsFailure: false }, 2);
  expect(whole.interrupted).toBe(false);
  expect(whole.numRuns).toBe(4);
});

it('sends no further runs in the other lanes once a lane failed, and answers that lane', async () => {
  let sent = 0;
  const perLane = (lane: number) =>
    fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (lane === 2) throw new Error(`lane 2 fails on ${n}`);
      sent += 1;
      await new Promise((r) => setTimeout(r, 2));
    });
  const out = await checkSideBySide(perLane, { seed: 9, numRuns: 400 }, 4);
  expect(out.details.failed).toBe(true);
  expect(out.details.seed).toBe(11);
  // Without the stop the three other lanes would send 300 runs; each sends at most the one already under way.
  expect(sent).toBeLessThanOrEqual(3);
  expect(out.numRuns).toBeGreaterThan(300);
});
