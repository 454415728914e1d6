/** Probes of the robustness faults (simulator/src/faults/robustness.ts). */
import { ROBUSTNESS_FAULTS } from '../../src/faults/robustness.ts';
import { probeArea, st } from './probe.ts';

probeArea('robustness', ROBUSTNESS_FAULTS, {
  'robustness.no-body-limits': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return st(await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, raw: '{"settings":{"__proto__":{}}}' }));
  },
  'robustness.413-before-body': {
    // A large body announced, only its first bytes sent: a server that reads the body waits for
    // the rest (no answer within the probe's 2 s, observed as 0); the fault answers 413 at once.
    probe: (w) =>
      w.rawStatus(
        `POST /assistants HTTP/1.1\r\nHost: x\r\nAuthorization: ApiKey ${w.A.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{"name":"`,
      ),
    spec: 0,
  },
  'robustness.control-path-raw': async (w) => (await w.req('GET', '/%5f_control/health')).status,
  'robustness.array-body-empty-update': {
    probe: async (w) => {
      const a = await w.assistant(w.A.apiKey);
      return st(await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, raw: '[{"name":"x"}]' }));
    },
    spec: [400, 'VALIDATION_ERROR', 'Validation failed'],
  },
  'robustness.media-type-exact': {
    probe: async (w) => {
      const a = await w.assistant(w.A.apiKey);
      const r = await w.req('PATCH', `/assistants/${a.id}`, {
        key: w.A.apiKey,
        raw: '{"name":"charset"}',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      return r.body.data.name;
    },
    spec: 'charset',
  },
});
