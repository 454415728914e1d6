/**
 * Probes of the faults of calls, conversations and their isolation (simulator/src/faults/calls.ts):
 * calls of tenant B read, listed or acted on by tenant A.
 */
import { CALL_FAULTS } from '../../src/faults/calls.ts';
import { endedCall, liveCall } from '../surface-world.ts';
import { probeArea, st } from './probe.ts';

probeArea('calls', CALL_FAULTS, {
  'xtenant.foreign-call-403': async (w) => st(await w.req('GET', `/calls/${(await liveCall(w, w.B)).id}`, { key: w.A.apiKey })),
  'xtenant.foreign-call-message-differs': async (w) => st(await w.req('GET', `/calls/${(await liveCall(w, w.B)).id}`, { key: w.A.apiKey })),
  'xtenant.foreign-call-header': async (w) =>
    (await w.req('GET', `/calls/${(await liveCall(w, w.B)).id}`, { key: w.A.apiKey })).headers['x-resource-owner'] ?? null,
  'xtenant.foreign-bare-body': async (w) => (await w.req('POST', `/calls/${(await liveCall(w, w.B)).id}/takeover`, { key: w.A.apiKey })).raw,
  'xtenant.deleted-call-gone': async (w) => {
    const c = await liveCall(w, w.A);
    await w.ctl('DELETE', `/calls/${c.id}`);
    return (await w.req('POST', `/calls/${c.id}/end`, { key: w.A.apiKey })).raw;
  },
  'xtenant.calls-list-leaks': async (w) => {
    await liveCall(w, w.B);
    return (await w.req('GET', '/calls', { key: w.A.apiKey })).body.data.length;
  },
  'xtenant.foreign-call-end': async (w) => {
    const c = await liveCall(w, w.B);
    await w.req('POST', `/calls/${c.id}/end`, { key: w.A.apiKey });
    return (await w.req('GET', `/calls/${c.id}`, { key: w.B.apiKey })).body.data.status;
  },
  'xtenant.foreign-slow': async (w) => {
    const b = await w.assistant(w.B.apiKey);
    const t0 = performance.now();
    await w.req('GET', `/assistants/${b.id}`, { key: w.A.apiKey });
    return performance.now() - t0 >= 18;
  },
  'calls.conversations-in-calls': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'sms', customerIdentifier: '+14155550000' });
    return (await w.req('GET', '/calls', { key: w.A.apiKey })).body.data.length;
  },
  'xtenant.live-list-leaks': async (w) => {
    await liveCall(w, w.B);
    return (await w.req('GET', '/calls/live', { key: w.A.apiKey })).body.data.length;
  },
  'xtenant.conversations-list-leaks': async (w) => {
    const b = await w.assistant(w.B.apiKey);
    await w.ctl('POST', '/conversations', { tenantId: w.B.id, assistantId: b.id, channel: 'web', customerIdentifier: 'visitor-b' });
    return (await w.req('GET', '/conversations', { key: w.A.apiKey })).body.data.length;
  },
  'calls.call-missing-after-end': async (w) => (await w.req('GET', `/calls/${(await endedCall(w, w.A)).id}`, { key: w.A.apiKey })).status,
});
