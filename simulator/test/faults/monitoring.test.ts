/** Probes of the live monitoring faults (simulator/src/faults/monitoring.ts). */
import { MONITORING_FAULTS } from '../../src/faults/monitoring.ts';
import { endedCall, liveCall } from '../surface-world.ts';
import type { World } from '../world.ts';
import { probeArea } from './probe.ts';

const UNKNOWN = '0d9c3a5e-1111-4222-8333-444455556666';
/** Mints a monitor session on call `id` with tenant A's key. */
const mint = (w: World, id: string, actorLabel = 'sup') => w.req('POST', `/calls/${id}/monitor-session`, { key: w.A.apiKey, body: { actorLabel } });

probeArea('monitoring', MONITORING_FAULTS, {
  'monitoring.conflict-in-envelope': async (w) => (await w.req('POST', `/calls/${(await endedCall(w, w.A)).id}/takeover`, { key: w.A.apiKey })).raw,
  'monitoring.retry-after-in-error': async (w) => {
    await w.ctl('PUT', '/config', { monitorMintsPerMinute: 0 });
    const r = await mint(w, (await liveCall(w, w.A)).id);
    return [r.status, 'retryAfterSeconds' in r.body];
  },
  'monitoring.delete-ends-call': async (w) => {
    const c = await liveCall(w, w.A);
    await mint(w, c.id);
    await w.req('DELETE', `/calls/${c.id}/monitor-session`, { key: w.A.apiKey });
    return (await w.req('GET', `/calls/${c.id}`, { key: w.A.apiKey })).body.data.status;
  },
  'monitoring.not-live-as-agent-absent': async (w) => (await w.req('POST', `/calls/${(await endedCall(w, w.A)).id}/end`, { key: w.A.apiKey })).body,
  'monitoring.actor-label-altered': async (w) => {
    const c = await liveCall(w, w.A);
    await mint(w, c.id, ' <b>"Zoë" & co</b> ');
    return (await w.req('GET', `/calls/${c.id}/monitor-sessions`, { key: w.A.apiKey })).body.data[0].actorLabel;
  },
  'monitoring.callid-in-path': async (w) => (await w.req('GET', `/calls/${(await liveCall(w, w.A)).callId}/monitor-sessions`, { key: w.A.apiKey })).status,
  'monitoring.mint-in-envelope': async (w) => 'success' in (await mint(w, (await liveCall(w, w.A)).id)).body,
  'monitoring.no-rate-limit': async (w) => {
    await w.ctl('PUT', '/config', { monitorMintsPerMinute: 1 });
    const c = await liveCall(w, w.A);
    await mint(w, c.id);
    return (await mint(w, c.id)).status;
  },
  'monitoring.no-slot-limit': async (w) => {
    await w.ctl('PUT', '/config', { monitorSlotsPerCall: 1 });
    const c = await liveCall(w, w.A);
    await mint(w, c.id);
    return (await mint(w, c.id)).status;
  },
  'monitoring.end-route-no-report': async (w) => {
    const c = await liveCall(w, w.A);
    await w.req('POST', `/calls/${c.id}/end`, { key: w.A.apiKey, body: { actorLabel: 'sup' } });
    return ((await w.ctl('GET', `/deliveries?tenantId=${w.A.id}`)).body as { type: string }[]).map((d) => d.type);
  },
  'monitoring.rate-per-key': async (w) => {
    await w.ctl('PUT', '/config', { monitorMintsPerMinute: 1 });
    const c = await liveCall(w, w.A);
    await mint(w, c.id);
    return (await w.req('POST', `/calls/${c.id}/monitor-session`, { key: w.orgKey, headers: { 'x-tenant-id': w.A.id }, body: {} })).status;
  },
  'monitoring.rate-per-organization': async (w) => {
    await w.ctl('PUT', '/config', { monitorMintsPerMinute: 1 });
    await mint(w, (await liveCall(w, w.A)).id);
    return (await w.req('POST', `/calls/${(await liveCall(w, w.B)).id}/monitor-session`, { key: w.B.apiKey, body: {} })).status;
  },
  'monitoring.slots-per-tenant': async (w) => {
    await w.ctl('PUT', '/config', { monitorSlotsPerCall: 1 });
    await mint(w, (await liveCall(w, w.A)).id);
    return (await mint(w, (await liveCall(w, w.A)).id)).status;
  },
  'monitoring.delete-closes-all': async (w) => {
    const c = await liveCall(w, w.A);
    await mint(w, c.id, 'one');
    await mint(w, c.id, 'two');
    await w.req('DELETE', `/calls/${c.id}/monitor-session`, { key: w.A.apiKey });
    return [(await mint(w, c.id, 'three')).status, (await mint(w, c.id, 'four')).status];
  },
  'monitoring.over-length-bare': async (w) => 'success' in (await mint(w, (await liveCall(w, w.A)).id, 'x'.repeat(5000))).body,
  'monitoring.agent-absent-ignored': async (w) => {
    const c = await liveCall(w, w.A);
    await w.ctl('POST', `/calls/${c.id}/agent-absent`, { absent: true });
    return (await w.req('POST', `/calls/${c.id}/takeover`, { key: w.A.apiKey })).status;
  },
  'monitoring.unknown-call-envelope': async (w) => (await w.req('POST', `/calls/${UNKNOWN}/takeover`, { key: w.A.apiKey })).raw.includes('success'),
  'monitoring.live-list-callid-only': async (w) => {
    await liveCall(w, w.A);
    const row = (await w.req('GET', '/calls/live', { key: w.A.apiKey })).body.data[0];
    return row.callId === row.id;
  },
  'monitoring.absent-before-live': async (w) => {
    const c = await liveCall(w, w.A);
    await w.ctl('POST', `/calls/${c.id}/agent-absent`, { absent: true });
    await w.ctl('POST', `/calls/${c.id}/end`, {});
    return (await w.req('POST', `/calls/${c.id}/takeover`, { key: w.A.apiKey, body: { actorLabel: 'sup' } })).body;
  },
  'monitoring.audit-open-only': async (w) => {
    const c = await liveCall(w, w.A);
    await mint(w, c.id, 'closed soon');
    await w.req('DELETE', `/calls/${c.id}/monitor-session`, { key: w.A.apiKey });
    return (await w.req('GET', `/calls/${c.id}/monitor-sessions`, { key: w.A.apiKey })).body.data.length;
  },
  'monitoring.slot-check-race': {
    // Two slots per call (the default config): one taken, then three mints at once for the last one.
    probe: async (w) => {
      const c = await liveCall(w, w.A);
      await mint(w, c.id, 'first');
      const answers = await Promise.all([1, 2, 3].map((k) => mint(w, c.id, `racer ${k}`)));
      return answers.filter((a) => a.status === 201).length;
    },
    spec: 1,
  },
  'monitoring.rate-check-race': {
    // A budget of three mints a minute: two spent (each closed again), then three at once, one per key type and call, for the last one.
    probe: async (w) => {
      await w.ctl('PUT', '/config', { monitorMintsPerMinute: 3 });
      const c = await liveCall(w, w.A);
      for (const label of ['first', 'second']) {
        await mint(w, c.id, label);
        await w.req('DELETE', `/calls/${c.id}/monitor-session`, { key: w.A.apiKey });
      }
      const calls = [c, await liveCall(w, w.A), await liveCall(w, w.A)];
      const answers = await Promise.all([
        mint(w, calls[0].id, 'racer 1'),
        w.req('POST', `/calls/${calls[1].id}/monitor-session`, { key: w.orgKey, headers: { 'x-tenant-id': w.A.id }, body: { actorLabel: 'racer 2' } }),
        mint(w, calls[2].id, 'racer 3'),
      ]);
      return answers.filter((a) => a.status === 201).length;
    },
    spec: 1,
  },
});
