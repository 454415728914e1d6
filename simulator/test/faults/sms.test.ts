/** Probes of the SMS faults (simulator/src/faults/sms.ts). */
import { SMS_FAULTS } from '../../src/faults/sms.ts';
import { number } from '../surface-world.ts';
import type { World } from '../world.ts';
import { probeArea, st } from './probe.ts';

/** Status and code of POST /sms from a registered number of tenant A with `message`. */
async function sendSms(w: World, message: string) {
  await number(w, w.A, '+14155551003');
  return st(await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155551003', toNumber: '+14155550000', message } }));
}

probeArea('sms', SMS_FAULTS, {
  'xtenant.sms-foreign-number-403': async (w) => {
    await number(w, w.B, '+14155551001');
    return st(await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155551001', toNumber: '+14155550000', message: 'x' } }));
  },
  'xtenant.sms-org-key-org-numbers': async (w) => {
    await number(w, w.B, '+14155551004');
    return st(
      await w.req('POST', '/sms', {
        key: w.orgKey,
        headers: { 'x-tenant-id': w.A.id },
        body: { fromNumber: '+14155551004', toNumber: '+14155550000', message: 'x' },
      }),
    );
  },
  'sms.no-message-sid': async (w) => {
    await number(w, w.A, '+14155551005');
    return (
      'messageSid' in (await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155551005', toNumber: '+14155550000', message: 'x' } })).body.data
    );
  },
  'sms.reason-empty-body-rejected': async (w) => (await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: {} })).status,
  'sms.accept-1601': (w) => sendSms(w, 'x'.repeat(1601)),
  'sms.accept-empty-message': (w) => sendSms(w, ''),
  'sms.deleted-from-accepted': async (w) => {
    const n = await number(w, w.A, '+14155551004');
    await w.ctl('DELETE', `/phone-numbers/${n.id}`);
    return st(await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155551004', toNumber: '+14155550000', message: 'x' } }));
  },
  'sms.no-details': async (w) => (await w.req('POST', '/sms', { key: w.A.apiKey, body: {} })).body.error.details ?? null,
  'sms.reason-drops-properties': async (w) => 'properties' in (await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: {} })).body.data,
  'sms.reason-astral-replaced': {
    probe: async (w) => (await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: { content: 'Here 📍 𝔸' } })).body.data.content,
    spec: 'Here 📍 𝔸',
  },
  'sms.reason-omitted-reference-dropped': {
    probe: async (w) => 'assistantId' in (await w.req('POST', '/sms-reasons', { key: w.A.apiKey, body: { name: 'no reference' } })).body.data,
    spec: true,
  },
  'sms.refuses-1600': (w) => sendSms(w, 'x'.repeat(1600)),
  'sms.counts-utf8-bytes': (w) => sendSms(w, '\u00e9'.repeat(1600)),
  'sms.refuses-one-character': (w) => sendSms(w, 'x'),
  'sms.unknown-from-400': async (w) =>
    st(await w.req('POST', '/sms', { key: w.A.apiKey, body: { fromNumber: '+14155559999', toNumber: '+14155550000', message: 'x' } })),
});
