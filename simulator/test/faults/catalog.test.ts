/** Probes of the catalogue faults (simulator/src/faults/catalog.ts). */
import { CATALOG_FAULTS } from '../../src/faults/catalog.ts';
import { probeArea } from './probe.ts';

probeArea('catalog', CATALOG_FAULTS, {
  'catalog.model-type-missing': async (w) => (await w.req('GET', '/models', { key: w.A.apiKey })).body.data.every((m: object) => 'type' in m),
  'catalog.transcriber-language-missing': async (w) =>
    (await w.req('GET', '/transcribers', { key: w.A.apiKey })).body.data.every((t: object) => 'language' in t),
});
