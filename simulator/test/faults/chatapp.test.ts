/** Probes of the messaging-app channel faults (simulator/src/faults/chatapp.ts). */
import { CHATAPP_FAULTS } from '../../src/faults/chatapp.ts';
import { probeArea, st } from './probe.ts';

probeArea('chatapp', CHATAPP_FAULTS, {
  'chatapp.enable-without-onboarding': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return st(await w.req('PATCH', `/assistants/${a.id}/chatapp-enabled`, { key: w.A.apiKey, body: { enabled: true } }));
  },
  'chatapp.no-number-accepted': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return st(await w.req('PATCH', `/assistants/${a.id}/chatapp-enabled`, { key: w.A.apiKey, body: { enabled: true } }));
  },
});
