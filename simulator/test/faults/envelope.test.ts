/** Probes of the §2.1 envelope and §7 error-model faults (simulator/src/faults/envelope.ts). */
import { ENVELOPE_FAULTS } from '../../src/faults/envelope.ts';
import { probeArea, st } from './probe.ts';

const NEVER_EXISTED = '11111111-1111-4111-8111-111111111111';

probeArea('envelope', ENVELOPE_FAULTS, {
  'envelope.drop-version': { probe: async (w) => 'version' in (await w.req('GET', '/assistants', { key: w.A.apiKey })).body.metadata, spec: true },
  'envelope.error-as-html': {
    probe: async (w) => {
      const r = await w.req('GET', '/assistants');
      return [r.status, String(r.headers['content-type']).split(';')[0], r.body?.error?.code];
    },
    spec: [401, 'application/json', 'UNAUTHORIZED'],
  },
  'envelope.success-string': { probe: async (w) => (await w.req('GET', '/assistants', { key: w.A.apiKey })).body.success, spec: true },
  'envelope.parse-as-500': async (w) => st(await w.req('POST', '/assistants', { key: w.A.apiKey, raw: '{' })),
  'envelope.parse-as-validation': async (w) => st(await w.req('POST', '/assistants', { key: w.A.apiKey, raw: '{' })),
  'envelope.not-found-code': async (w) => st(await w.req('GET', '/nope', { key: w.A.apiKey })),
  'envelope.path-route-pattern': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return (await w.req('GET', `/assistants/${a.id}`, { key: w.A.apiKey })).body.metadata.path === `/assistants/${a.id}`;
  },
  'envelope.not-found-without-message': {
    probe: async (w) => 'message' in (await w.req('GET', `/assistants/${NEVER_EXISTED}`, { key: w.A.apiKey })).body.error,
    spec: true,
  },
  'envelope.timestamp-local-offset': {
    probe: async (w) => (await w.req('GET', '/assistants', { key: w.A.apiKey })).body.metadata.timestamp.endsWith('Z'),
    spec: true,
  },
  'envelope.timestamp-cached': {
    probe: async (w) => Math.abs(Date.parse((await w.req('GET', '/assistants', { key: w.A.apiKey })).body.metadata.timestamp) - Date.now()) < 60_000,
    spec: true,
  },
  'validation.422-status': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return st(await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { idleTimeoutSeconds: 61 } }));
  },
});
