/**
 * Resilience (issue 8, §8): against a conformant simulator that answers 10% of public requests
 * with 429 and drops 2% of connections, the suite gives no `fail` verdict (retries and
 * reconciliation absorb throttling; a lost answer is at worst an `error`). The wall-time ratio
 * against a normal run is printed (informational: timing on a shared 2-core machine is noisy, and
 * speed is measured by benchmark scripts); `CORE_API_STRICT_TIMING=1` turns the "within twice its
 * normal time" bound into an assertion. Uses the auth and envelope suites: they are the busiest
 * per request and expect no 429 of their own.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { runConformance } from './run-suite';

const FILES = ['suites/auth.test.ts', 'suites/envelope.test.ts'];
/** The chaos of issue 8: 10% 429s, 2% resets, seeded. */
const CHAOS = { rate429: 0.1, rateReset: 0.02, delayMs: 0, seed: 20261121 };

let sim: RunningSimulator;

async function config(body: unknown): Promise<void> {
  const res = await request(`${sim.controlUrl}/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`config answered ${res.statusCode}`);
}

beforeAll(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

it('gets no fail verdict under 10% 429s and 2% resets', async () => {
  const env = { CORE_API_BASE_URL: sim.baseUrl, CORE_API_CONTROL_URL: sim.controlUrl };
  await config({ chaos: null });
  const normal = await runConformance(env, FILES);
  expect(normal.code, normal.output.slice(-2000)).toBe(0);

  await config({ chaos: CHAOS });
  const chaotic = await runConformance(env, FILES);
  await config({ chaos: null });
  const record = chaotic.record!;
  expect(record, chaotic.output.slice(-2000)).toBeDefined();
  const failed = record.tests.filter((t) => t.status === 'fail');
  expect(failed.map((t) => `${t.name}: ${t.message?.slice(0, 400)}`)).toEqual([]);
  expect(record.requests.retries, 'retries were needed and counted').toBeGreaterThan(0);
  const passed = record.tests.filter((t) => t.status === 'pass').length;
  expect(passed / record.tests.length, 'most tests still pass').toBeGreaterThan(0.8);
  const ratio = chaotic.wallMs / normal.wallMs;
  console.log(`chaos: ${record.requests.retries} retries; wall time ${Math.round(chaotic.wallMs)} ms vs normal ${Math.round(normal.wallMs)} ms (×${ratio.toFixed(2)})`);
  if (process.env.CORE_API_STRICT_TIMING === '1') expect(ratio, 'chaos run within twice the normal time').toBeLessThan(2);
});
