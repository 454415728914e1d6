/**
 * Every surface fault (surface-faults.ts) changes some answer: each probe runs once without the
 * fault and once with it, on a fresh world, and the two results must differ.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../src/faults.ts';
import { isSurfaceFault } from './surface-faults.ts';
import { endedCall, INSTRUCTION, liveCall, number, st, TEXT_INSTRUCTION, tool } from './surface-world.ts';
import { makeWorld, type World } from './world.ts';

let w: World;
afterEach(async () => w?.app.close());

const U = '0d9c3a5e-1111-4222-8333-444455556666';
const REALTIME = '8d0f3f7e-2a41-4c1b-9e0a-6b7c1d2e3f03';
/** Status and code of POST /sms from a registered number of tenant A with `message`. */
async function sendSms(w: World, message: string) {
  await number(w, w.A, '+14155551003');
  return st(await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155551003', toNumber: '+14155550000', message } }));
}
const ids = (n: number) => Array.from({ length: n }, (_, i) => `0d9c3a5e-1111-4222-8333-${String(i).padStart(12, '0')}`).join(',');

type Probe = (w: World) => Promise<unknown>;

const mint = (w: World, id: string, actorLabel = 'sup') => w.req('POST', `/calls/${id}/monitor-session`, { key: w.A.apiKey, body: { actorLabel } });

const PROBES: Record<string, Probe> = {
  'xtenant.foreign-call-403': async (w) => st(await w.req('GET', `/calls/${(await liveCall(w, w.B)).id}`, { key: w.A.apiKey })),
  'xtenant.foreign-call-message-differs': async (w) => st(await w.req('GET', `/calls/${(await liveCall(w, w.B)).id}`, { key: w.A.apiKey })),
  'xtenant.foreign-call-header': async (w) => (await w.req('GET', `/calls/${(await liveCall(w, w.B)).id}`, { key: w.A.apiKey })).headers['x-resource-owner'] ?? null,
  'xtenant.foreign-bare-body': async (w) => (await w.req('POST', `/calls/${(await liveCall(w, w.B)).id}/takeover`, { key: w.A.apiKey })).raw,
  'xtenant.deleted-call-gone': async (w) => {
    const c = await liveCall(w, w.A);
    await w.ctl('DELETE', `/calls/${c.id}`);
    return (await w.req('POST', `/calls/${c.id}/end`, { key: w.A.apiKey })).raw;
  },
  'xtenant.foreign-tool-write-through': async (w) => {
    const t = await tool(w, w.B, { name: 'b', instruction: INSTRUCTION });
    await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { name: 'stolen' } });
    return (await w.req('GET', `/tools/${t.id}`, { key: w.B.apiKey })).body.data.name;
  },
  'xtenant.calls-list-leaks': async (w) => {
    await liveCall(w, w.B);
    return (await w.req('GET', '/calls', { key: w.A.apiKey })).body.data.length;
  },
  'xtenant.foreign-tool-403': async (w) => st(await w.req('PUT', `/tools/${(await tool(w, w.B)).id}`, { key: w.A.apiKey, body: {} })),
  'xtenant.foreign-override-message': async (w) => {
    const b = await w.assistant(w.B.apiKey);
    const t = await tool(w, w.A);
    return st(await w.req('GET', `/assistants/${b.id}/tools/${t.id}/text-override`, { key: w.A.apiKey }));
  },
  'xtenant.foreign-override-write-through': async (w) => {
    const b = await w.assistant(w.B.apiKey);
    const t = await tool(w, w.B, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    await w.req('PUT', `/assistants/${b.id}/tools/${t.id}/text-description-override`, { key: w.B.apiKey, body: { description: 'b text' } });
    await w.req('DELETE', `/assistants/${b.id}/tools/${t.id}/text-override`, { key: w.A.apiKey });
    return (await w.req('GET', `/assistants/${b.id}/tools/${t.id}/text-override`, { key: w.B.apiKey })).body.data.text.descriptionOverride;
  },
  'xtenant.foreign-assistant-write': async (w) => {
    const b = await w.assistant(w.B.apiKey, { name: 'mine' });
    await w.req('PATCH', `/assistants/${b.id}`, { key: w.A.apiKey, body: { name: 'stolen' } });
    return (await w.req('GET', `/assistants/${b.id}`, { key: w.B.apiKey })).body.data.name;
  },
  'xtenant.foreign-call-end': async (w) => {
    const c = await liveCall(w, w.B);
    await w.req('POST', `/calls/${c.id}/end`, { key: w.A.apiKey });
    return (await w.req('GET', `/calls/${c.id}`, { key: w.B.apiKey })).body.data.status;
  },
  'xtenant.list-leak': async (w) => {
    await w.assistant(w.B.apiKey);
    return (await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.A.id } })).body.data.assistants.length;
  },
  'xtenant.foreign-slow': async (w) => {
    const b = await w.assistant(w.B.apiKey);
    const t0 = performance.now();
    await w.req('GET', `/assistants/${b.id}`, { key: w.A.apiKey });
    return performance.now() - t0 >= 18;
  },
  'xtenant.insights-batch-foreign-metrics': async (w) => {
    const c = await endedCall(w, w.B);
    return (await w.req('GET', `/calls/insights?ids=${c.id}`, { key: w.A.apiKey })).body.data;
  },
  'xtenant.sms-foreign-number-403': async (w) => {
    await number(w, w.B, '+14155551001');
    return st(await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155551001', toNumber: '+14155550000', message: 'x' } }));
  },
  'calls.conversations-in-calls': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    await w.ctl('POST', '/conversations', { tenantId: w.A.id, assistantId: a.id, channel: 'sms', customerIdentifier: '+14155550000' });
    return (await w.req('GET', '/calls', { key: w.A.apiKey })).body.data.length;
  },
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
  'assistants.updated-at-missing': async (w) => 'updatedAt' in (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data,
  'assistants.created-at-text': async (w) => (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data.createdAt === 'recently',
  'assistants.feature-flags-strings': async (w) => (await w.req('GET', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey })).body.data.featureFlags,
  'assistants.transfer-settings-as-string': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { transferSettings: { amd_detection: false } } });
    return typeof (await w.req('GET', `/assistants/${a.id}`, { key: w.A.apiKey })).body.data.transferSettings;
  },
  'assistants.patch-omits-server-url': async (w) => 'serverUrl' in (await w.req('PATCH', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey, body: { name: 'n' } })).body.data,
  'assistants.patch-returns-stale': async (w) => (await w.req('PATCH', `/assistants/${(await w.assistant(w.A.apiKey)).id}`, { key: w.A.apiKey, body: { name: 'renamed' } })).body.data.name,
  'assistants.unknown-patch-403': async (w) => st(await w.req('PATCH', `/assistants/${U}`, { key: w.A.apiKey, body: { name: 'n' } })),
  'taskoverrides.unknown-assistant-empty': async (w) => st(await w.req('GET', `/assistants/${U}/tasks/overrides`, { key: w.A.apiKey })),
  'xtenant.sms-org-key-org-numbers': async (w) => {
    await number(w, w.B, '+14155551004');
    return st(await w.req('POST', '/sms', { key: w.orgKey, headers: { 'x-tenant-id': w.A.id }, body: { fromNumber: '+14155551004', toNumber: '+14155550000', message: 'x' } }));
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
  'monitoring.over-length-bare': async (w) => 'success' in (await mint(w, (await liveCall(w, w.A)).id, 'x'.repeat(5000))).body,
  'insights.batch-26-accepted': async (w) => (await w.req('GET', `/calls/insights?ids=${ids(26)}`, { key: w.A.apiKey })).status,
  'insights.batch-duplicates-accepted': async (w) => (await w.req('GET', `/calls/insights?ids=${U},${U}`, { key: w.A.apiKey })).status,
  'insights.batch-unknown-fails': async (w) => (await w.req('GET', `/calls/insights?ids=${U}`, { key: w.A.apiKey })).status,
  'insights.available-early': async (w) => {
    await w.ctl('PUT', '/config', { insightsDelayMs: 60_000 });
    return (await w.req('GET', `/calls/${(await endedCall(w, w.A)).id}/insights`, { key: w.A.apiKey })).status;
  },
  'insights.live-call-has-insights': async (w) => (await w.req('GET', `/calls/${(await liveCall(w, w.A)).id}/insights`, { key: w.A.apiKey })).status,
  'taskoverrides.null-dropped': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    await w.ctl('POST', '/task-overrides', { assistantId: a.id });
    return (await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.A.apiKey })).body.data;
  },
  'taskoverrides.object-not-array': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    return Array.isArray((await w.req('GET', `/assistants/${a.id}/tasks/overrides`, { key: w.A.apiKey })).body.data);
  },
  'calls.call-missing-after-end': async (w) => (await w.req('GET', `/calls/${(await endedCall(w, w.A)).id}`, { key: w.A.apiKey })).status,
  'monitoring.agent-absent-ignored': async (w) => {
    const c = await liveCall(w, w.A);
    await w.ctl('POST', `/calls/${c.id}/agent-absent`, { absent: true });
    return (await w.req('POST', `/calls/${c.id}/takeover`, { key: w.A.apiKey })).status;
  },
  'monitoring.unknown-call-envelope': async (w) => (await w.req('POST', `/calls/${U}/takeover`, { key: w.A.apiKey })).raw.includes('success'),
  'monitoring.live-list-callid-only': async (w) => {
    await liveCall(w, w.A);
    const row = (await w.req('GET', '/calls/live', { key: w.A.apiKey })).body.data[0];
    return row.callId === row.id;
  },
  'sms.no-message-sid': async (w) => {
    await number(w, w.A, '+14155551005');
    return 'messageSid' in (await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155551005', toNumber: '+14155550000', message: 'x' } })).body.data;
  },
  'sms.reason-empty-body-rejected': async (w) => (await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: {} })).status,
  'prompts.link-null-ignored': async (w) => {
    const p = (await w.req('POST', '/prompts', { key: w.A.apiKey, body: { type: 'chat' } })).body.data;
    const a = await w.assistant(w.A.apiKey, { chatPromptId: p.id });
    return (await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { chatPromptId: null } })).body.data.chatPromptId;
  },
  'insights.not-found-message': async (w) => st(await w.req('GET', `/calls/${U}/insights`, { key: w.A.apiKey })),
  'insights.missing-turn': async (w) => (await w.req('GET', `/calls/${(await endedCall(w, w.A)).id}/insights`, { key: w.A.apiKey })).body.data.performance.length,
  'sms.accept-1601': (w) => sendSms(w, 'x'.repeat(1601)),
  'sms.accept-empty-message': (w) => sendSms(w, ''),
  'sms.deleted-from-accepted': async (w) => {
    const n = await number(w, w.A, '+14155551004');
    await w.ctl('DELETE', `/phone-numbers/${n.id}`);
    return st(await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155551004', toNumber: '+14155550000', message: 'x' } }));
  },
  'sms.no-details': async (w) => (await w.req('POST', '/sms', { key: w.A.apiKey, body: {} })).body.error.details ?? null,
  'sms.reason-drops-properties': async (w) => 'properties' in (await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: {} })).body.data,
  'tools.put-clears-text-instructions': async (w) => {
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    return (await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { name: 'u' } })).body.data.textInstructions;
  },
  'tools.null-keeps-text-instructions': async (w) => {
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    return (await w.req('PUT', `/tools/${t.id}`, { key: w.A.apiKey, body: { textInstructions: null } })).body.data.textInstructions;
  },
  'tools.empty-description-stored': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    const t = await tool(w, w.A);
    await w.req('PUT', `/assistants/${a.id}/tools/${t.id}/description-override`, { key: w.A.apiKey, body: { description: 'v' } });
    return (await w.req('PUT', `/assistants/${a.id}/tools/${t.id}/description-override`, { key: w.A.apiKey, body: { description: '' } })).body.data.voice;
  },
  'tools.voice-text-coupled': async (w) => {
    const a = await w.assistant(w.A.apiKey);
    const t = await tool(w, w.A, { name: 't', instruction: INSTRUCTION, textInstructions: TEXT_INSTRUCTION });
    return (await w.req('PUT', `/assistants/${a.id}/tools/${t.id}/text-description-override`, { key: w.A.apiKey, body: { description: 'txt' } })).body.data.voice;
  },
  'sms.refuses-1600': (w) => sendSms(w, 'x'.repeat(1600)),
  'sms.counts-utf8-bytes': (w) => sendSms(w, '\u00e9'.repeat(1600)),
  'sms.refuses-one-character': (w) => sendSms(w, 'x'),
  'sms.unknown-from-400': async (w) => st(await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155559999', toNumber: '+14155550000', message: 'x' } })),
  'insights.batch-refuses-25': async (w) => (await w.req('GET', `/calls/insights?ids=${ids(25)}`, { key: w.A.apiKey })).status,
  'insights.batch-refuses-single': async (w) => (await w.req('GET', `/calls/insights?ids=${U}`, { key: w.A.apiKey })).status,
  'assistants.list-without-name': async (w) => {
    await w.assistant(w.A.apiKey, { name: 'Listed' });
    return (await w.req('GET', '/assistants', { key: w.A.apiKey })).body.data.assistants.map((a: any) => a.name);
  },
  'assistants.create-ignores-transfer-settings': async (w) =>
    (await w.req('POST', '/assistants', { key: w.A.apiKey, body: { name: 'T', transferSettings: { amd_detection: false } } })).body.data.transferSettings,
};

describe('surface faults', () => {
  const surface = FAULTS.filter((f) => isSurfaceFault(f.name));

  it('every surface fault has a probe', () => {
    for (const f of surface) expect(PROBES[f.name], `probe for ${f.name}`).toBeDefined();
  });

  for (const f of surface) {
    it(`${f.name} changes an answer`, async () => {
      const probe = PROBES[f.name];
      if (!probe) return;
      w = await makeWorld();
      const clean = await probe(w);
      await w.app.close();
      w = await makeWorld();
      expect((await w.ctl('PUT', '/config', { faults: [f.name] })).status).toBe(200);
      const faulty = await probe(w);
      expect(faulty, f.name).not.toEqual(clean);
    });
  }
});
