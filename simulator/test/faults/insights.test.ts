/** Probes of the session insights faults (simulator/src/faults/insights.ts). */
import { INSIGHTS_FAULTS } from '../../src/faults/insights.ts';
import { endedCall, liveCall } from '../surface-world.ts';
import { probeArea, st } from './probe.ts';

const UNKNOWN = '0d9c3a5e-1111-4222-8333-444455556666';
/** `n` distinct call ids that name no call, comma-separated. */
const ids = (n: number) => Array.from({ length: n }, (_, i) => `0d9c3a5e-1111-4222-8333-${String(i).padStart(12, '0')}`).join(',');

probeArea('insights', INSIGHTS_FAULTS, {
  'xtenant.insights-batch-foreign-metrics': async (w) => {
    const c = await endedCall(w, w.B);
    return (await w.req('GET', `/calls/insights?ids=${c.id}`, { key: w.A.apiKey })).body.data;
  },
  'insights.batch-26-accepted': async (w) => (await w.req('GET', `/calls/insights?ids=${ids(26)}`, { key: w.A.apiKey })).status,
  'insights.batch-duplicates-accepted': async (w) => (await w.req('GET', `/calls/insights?ids=${UNKNOWN},${UNKNOWN}`, { key: w.A.apiKey })).status,
  'insights.batch-unknown-fails': async (w) => (await w.req('GET', `/calls/insights?ids=${UNKNOWN}`, { key: w.A.apiKey })).status,
  'insights.available-early': async (w) => {
    await w.ctl('PUT', '/config', { insightsDelayMs: 60_000 });
    return (await w.req('GET', `/calls/${(await endedCall(w, w.A)).id}/insights`, { key: w.A.apiKey })).status;
  },
  'insights.live-call-has-insights': async (w) => (await w.req('GET', `/calls/${(await liveCall(w, w.A)).id}/insights`, { key: w.A.apiKey })).status,
  'insights.not-found-message': async (w) => st(await w.req('GET', `/calls/${UNKNOWN}/insights`, { key: w.A.apiKey })),
  'insights.missing-turn': async (w) =>
    (await w.req('GET', `/calls/${(await endedCall(w, w.A)).id}/insights`, { key: w.A.apiKey })).body.data.performance.length,
  'insights.batch-refuses-25': async (w) => (await w.req('GET', `/calls/insights?ids=${ids(25)}`, { key: w.A.apiKey })).status,
  'insights.batch-bound-in-flight': {
    // Two batches of 25 unknown ids at once: each holds 25 ids, within the bound.
    probe: async (w) => {
      const answers = await Promise.all([0, 1].map(() => w.req('GET', `/calls/insights?ids=${ids(25)}`, { key: w.A.apiKey })));
      return answers.map((a) => a.status);
    },
    spec: [200, 200],
  },
  'insights.batch-refuses-single': async (w) => (await w.req('GET', `/calls/insights?ids=${UNKNOWN}`, { key: w.A.apiKey })).status,
});
