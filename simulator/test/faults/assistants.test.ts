/** Probes of the assistant route faults and the cross-tenant faults of assistants (simulator/src/faults/assistants.ts). */
import { ASSISTANTS_FAULTS } from '../../src/faults/assistants.ts';
import { probeArea, st } from './probe.ts';

const NEVER_EXISTED = '0d9c3a5e-1111-4222-8333-444455556666';

probeArea('assistants', ASSISTANTS_FAULTS, {
  'xtenant.foreign-assistant-write': async (w) => {
    const b = await w.assistant(w.B.apiKey, { name: 'mine' });
    await w.req('PATCH', `/assistants/${b.id}`, { key: w.A.apiKey, body: { name: 'stolen' } });
    return (await w.req('GET', `/assistants/${b.id}`, { key: w.B.apiKey })).body.data.name;
  },
  'xtenant.list-leak': async (w) => {
    await w.assistant(w.B.apiKey);
    return (await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.A.id } })).body.data.assistants.length;
  },
  'assistants.text-cut-at-astral': {
    probe: async (w) => {
      const a = await w.assistant(w.A.apiKey);
      const body = { firstMessage: 'Hi \u{1F600} there', warmReturnMessage: 'Back \u{1D11E}' };
      const d = (await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body })).body.data;
      return [d.firstMessage, d.settings.warmReturnMessage];
    },
    spec: ['Hi \u{1F600} there', 'Back \u{1D11E}'],
  },
  'assistants.updated-at-missing': async (w) =>
    'updatedAt' in (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data,
  'assistants.created-at-text': async (w) =>
    (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data.createdAt === 'recently',
  'assistants.feature-flags-strings': async (w) =>
    (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data.featureFlags,
  'assistants.transfer-settings-as-string': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { transferSettings: { amd_detection: false } } });
    return typeof (await w.req('GET', `/assistants/${a.id}`, { key: w.A.apiKey })).body.data.transferSettings;
  },
  'assistants.patch-omits-server-url': async (w) =>
    'serverUrl' in (await w.req('PATCH', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey, body: { name: 'n' } })).body.data,
  'assistants.patch-returns-stale': async (w) =>
    (await w.req('PATCH', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey, body: { name: 'renamed' } })).body.data.name,
  'assistants.unknown-patch-403': async (w) => st(await w.req('PATCH', `/assistants/${NEVER_EXISTED}`, { key: w.A.apiKey, body: { name: 'n' } })),
  'assistants.list-without-name': async (w) => {
    await w.assistant(w.A.apiKey, { name: 'Listed' });
    return (await w.req('GET', '/assistants', { key: w.A.apiKey })).body.data.assistants.map((a: { name: string }) => a.name);
  },
  'assistants.create-ignores-transfer-settings': async (w) =>
    (await w.req('POST', '/assistants', { key: w.A.apiKey, body: { name: 'T', transferSettings: { amd_detection: false } } })).body.data.transferSettings,
  'xtenant.foreign-assistant-403': async (w) => st(await w.req('GET', `/assistants/${(await w.assistant(w.B.apiKey)).id}`, { key: w.A.apiKey })),
  'xtenant.foreign-message-differs': async (w) => st(await w.req('GET', `/assistants/${(await w.assistant(w.B.apiKey)).id}`, { key: w.A.apiKey })),
  'assistants.lookup-by-name': async (w) => {
    await w.assistant(w.A.apiKey, { name: 'front-desk' });
    return st(await w.req('PATCH', '/assistants/front-desk', { key: w.A.apiKey, body: { firstMessage: 'by name' } }));
  },
  'assistants.patch-lost-update': {
    probe: async (w) => {
      const a = await w.assistant(w.A.apiKey);
      await Promise.all([
        w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { firstMessage: 'one' } }),
        w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { endOfCallMessage: 'two' } }),
      ]);
      const data = (await w.req('GET', `/assistants/${a.id}`, { key: w.A.apiKey })).body.data;
      return [data.firstMessage, data.endOfCallMessage];
    },
    spec: ['one', 'two'],
  },
});
