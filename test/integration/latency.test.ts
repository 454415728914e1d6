/**
 * The latency rehearsal (issue 43): requests that may overlap do overlap. Against a simulator whose
 * every public answer is 20 ms late (chaos `delayMs`), one suite file whose tests are independent
 * (the authorization matrix, ~300 requests, one per cell, `describe.concurrent`) must keep
 * `CORE_API_CONCURRENCY` requests in flight, and its longest chain of requests sent one after
 * another must be a fraction of its requests (the run record's `requests.overlap`,
 * helpers/report/overlap.ts). Anything that serializes them fails it: a lock, a shared pause or an
 * observer that awaits in the client, a connection limit of one, the file's tests made sequential,
 * `maxConcurrency` of 1. Over a real network each of those multiplies the wall time (at 80 ms per
 * answer the full run went from 30.6 s to 107 s unnoticed once). The figures are structural, not
 * timed: a loaded machine stretches the answers, not the count in flight. The wall time itself is
 * measured by `npm run bench -- --latency 80` (docs/benchmarks.md).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { ControlClient } from '../../helpers/target/control';
import { concurrency } from '../../helpers/world/concurrency';
import { runConformance } from './run-suite';

const FILE = 'suites/authorization.test.ts';
/** Every public answer this many ms late: long enough that concurrent requests meet in flight on a loaded machine, short enough for `npm test`. */
const DELAY_MS = 20;
/** The default `CORE_API_CONCURRENCY` (helpers/base/env-vars.ts), set for the nested run whatever this process's environment says. */
const IN_FLIGHT = concurrency({});

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  await new ControlClient(sim.controlUrl).config({ chaos: { rate429: 0, rateReset: 0, delayMs: DELAY_MS, seed: 1 } });
});
afterAll(async () => {
  await sim?.close();
});

it(`keeps ${IN_FLIGHT} requests in flight in ${FILE} at ${DELAY_MS} ms per answer, and no long chain one after another`, async () => {
  const run = await runConformance({ CORE_API_BASE_URL: sim.baseUrl, CORE_API_CONTROL_URL: sim.controlUrl, CORE_API_CONCURRENCY: String(IN_FLIGHT) }, [FILE]);
  const record = run.record;
  expect(record, run.output.slice(-2000)).toBeDefined();
  const requests = record!.requests.perFile[FILE] ?? 0;
  const overlap = record!.requests.overlap?.[FILE];
  expect(requests, 'the file sent its few hundred requests').toBeGreaterThan(200);
  expect(overlap, 'the run record keeps the file’s overlap').toBeDefined();
  const words = `${requests} requests, longest chain one after another ${overlap!.chain}, most in flight ${overlap!.inFlight}`;
  console.log(`latency rehearsal (${DELAY_MS} ms per answer, ${FILE}): ${words}; wall time ${Math.round(run.wallMs)} ms`);
  // One request per cell, eight cells at a time: about requests ÷ 8 in a row. Sequential cells give a chain of every request.
  expect(overlap!.inFlight, `requests in flight together (${words})`).toBeGreaterThanOrEqual(IN_FLIGHT);
  expect(overlap!.chain, `the longest chain of requests one after another is at most a quarter of them (${words})`).toBeLessThanOrEqual(requests / 4);
  expect(record!.tests.filter((t) => t.status === 'fail').map((t) => t.name)).toEqual([]);
});
