/** Probes of the text test faults (simulator/src/faults/texttests.ts). */
import { TEXTTESTS_FAULTS } from '../../src/faults/texttests.ts';
import type { World } from '../world.ts';
import { probeArea, st } from './probe.ts';

/** The realtime entry of the model catalogue (routes/models.ts). */
const REALTIME = '8d0f3f7e-2a41-4c1b-9e0a-6b7c1d2e3f03';

/** The status of creating a suite of a new assistant with `iterations`. */
async function withIterations(w: World, iterations: number): Promise<number> {
  const a = await w.assistant(w.A.apiKey);
  return (await w.req('POST', '/test-suites', { key: w.A.apiKey, body: { assistantId: a.id, iterations, cases: [] } })).status;
}

probeArea('texttests', TEXTTESTS_FAULTS, {
  'texttests.accept-13-cases': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return (await w.req('POST', '/test-suites', { key: w.A.apiKey, body: { assistantId: a.id, cases: Array.from({ length: 13 }, () => ({ input: 'hi' })) } }))
      .status;
  },
  'texttests.refuses-12-cases': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return (await w.req('POST', '/test-suites', { key: w.A.apiKey, body: { assistantId: a.id, cases: Array.from({ length: 12 }, () => ({ input: 'hi' })) } }))
      .status;
  },
  'texttests.accept-voice-mode': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return (await w.req('POST', '/test-suites', { key: w.A.apiKey, body: { assistantId: a.id, mode: 'voice', cases: [] } })).status;
  },
  'texttests.iterations-11': { probe: (w) => withIterations(w, 11), spec: 400 },
  'texttests.fractional-iterations': { probe: (w) => withIterations(w, 2.5), spec: 400 },
  'texttests.iterations-refuses-10': { probe: (w) => withIterations(w, 10), spec: 201 },
  'texttests.iterations-0-accepted': { probe: (w) => withIterations(w, 0), spec: 400 },
  'texttests.iterations-refuses-1': { probe: (w) => withIterations(w, 1), spec: 201 },
  'texttests.realtime-run-accepted': async (w) => {
    const a = await w.assistant(w.A.apiKey, { modelId: REALTIME });
    const s = (await w.req('POST', '/test-suites', { key: w.A.apiKey, body: { assistantId: a.id, cases: [{ input: 'hi' }] } })).body.data;
    return st(await w.req('POST', `/test-suites/${s.id}/run`, { key: w.A.apiKey }));
  },
  'texttests.unknown-outcome': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    const s = (
      await w.req('POST', '/test-suites', { key: w.A.apiKey, body: { assistantId: a.id, cases: Array.from({ length: 8 }, (_, i) => ({ input: `q${i}` })) } })
    ).body.data;
    const run = (await w.req('POST', `/test-suites/${s.id}/run`, { key: w.A.apiKey })).body.data;
    await new Promise((r) => setTimeout(r, 300));
    return [...new Set((await w.req('GET', `/test-runs/${run.id}`, { key: w.A.apiKey })).body.data.cases.map((c: { outcome: string }) => c.outcome))].sort();
  },
});
