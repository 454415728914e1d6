/** Probes of the organization and phone-number faults (simulator/src/faults/org.ts). */
import { ORG_FAULTS } from '../../src/faults/org.ts';
import { probeArea } from './probe.ts';

probeArea('org', ORG_FAULTS, {
  'org.tenants-list-first-only': async (w) => (await w.req('GET', '/organization/tenants', { key: w.orgKey })).body.data.length,
  'org.tenant-ids-prefixed': async (w) =>
    (await w.req('GET', '/organization/tenants', { key: w.orgKey })).body.data.map((t: { id: string }) => t.id.slice(0, 4)),
  'org.available-numbers-bare': async (w) => 'success' in (await w.req('GET', '/phone-numbers/available', { key: w.A.apiKey })).body,
  'org.purchase-refused': async (w) => {
    const n = (await w.req('GET', '/phone-numbers/available', { key: w.A.apiKey })).body.data[0].number;
    return (await w.req('POST', '/phone-numbers', { key: w.A.apiKey, body: { number: n } })).status;
  },
  'org.tenants-list-every-org': {
    probe: async (w) => (await w.req('GET', '/organization/tenants', { key: w.orgKey })).body.data.some((t: { id: string }) => t.id === w.F.id),
    spec: false,
  },
  'org.audits-need-tenant': async (w) => (await w.req('POST', '/v1/retention/audits', { key: w.orgKey, body: {} })).status,
});
