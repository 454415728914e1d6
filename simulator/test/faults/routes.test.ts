/** Probes of the route-map faults (simulator/src/faults/routes.ts). */
import { ROUTES_FAULTS } from '../../src/faults/routes.ts';
import { probeArea, st } from './probe.ts';

probeArea('routes', ROUTES_FAULTS, {
  'routes.root-path-404': { probe: async (w) => (await w.req('GET', '/assistants', { key: w.A.apiKey })).status, spec: 200 },
  'calls.outbound-accepted': async (w) => {
    await w.assistant(w.A.apiKey);
    return st(await w.req('POST', '/calls', { key: w.A.apiKey, body: { toNumber: '+14155550000' } }));
  },
  'routes.version-prefix-alias': {
    probe: async (w) => st(await w.req('GET', '/v1/assistants', { key: w.A.apiKey })),
    spec: [404, 'NOT_FOUND', 'Route not found'],
  },
  'routes.calls-delete-served': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    const call = (await w.ctl('POST', '/calls', { tenantId: w.A.id, assistantId: a.id })).body;
    await w.req('DELETE', `/calls/${call.id}`, { key: w.A.apiKey });
    return st(await w.req('GET', `/calls/${call.id}`, { key: w.A.apiKey }));
  },
  'routes.trailing-slash-read': {
    probe: async (w) => {
      const a = await w.assistant(w.A.apiKey, { name: 'before' });
      const patched = await w.req('PATCH', `/assistants/${a.id}/`, { key: w.A.apiKey, body: { name: 'after' } });
      return [patched.status, (await w.req('GET', `/assistants/${a.id}`, { key: w.A.apiKey })).body.data.name];
    },
    spec: [404, 'before'],
  },
});
