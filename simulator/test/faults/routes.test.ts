/** Probes of the route-map faults (simulator/src/faults/routes.ts). */
import { ROUTES_FAULTS } from '../../src/faults/routes.ts';
import { probeArea, st } from './probe.ts';

probeArea('routes', ROUTES_FAULTS, {
  'routes.root-path-404': { probe: async (w) => (await w.req('GET', '/assistants', { key: w.A.apiKey })).status, spec: 200 },
  'calls.outbound-accepted': async (w) => {
    await w.assistant(w.A.apiKey);
    return st(await w.req('POST', '/calls', { key: w.A.apiKey, body: { toNumber: '+14155550000' } }));
  },
});
