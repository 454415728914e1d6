/** Probes of the §2.3 serverUrl faults (simulator/src/faults/server-url.ts). */
import { SERVER_URL_FAULTS } from '../../src/faults/server-url.ts';
import type { World } from '../world.ts';
import { probeArea } from './probe.ts';

/**
 * The statuses of PATCHing a new assistant of tenant A with each serverUrl, in order, after the
 * control DNS table has learnt a public name, a name with only an IPv4-mapped private address, and
 * a name with a public and a private address.
 */
async function statuses(w: World, ...urls: string[]): Promise<number[]> {
  await w.ctl('POST', '/dns', { hostname: 'hooks.example.com', addresses: ['93.184.216.34'] });
  await w.ctl('POST', '/dns', { hostname: 'mapped.example.com', addresses: ['::ffff:10.0.0.1'] });
  await w.ctl('POST', '/dns', { hostname: 'mixed.example.com', addresses: ['93.184.216.34', '10.0.0.1'] });
  const a = await w.assistant(w.A.apiKey);
  const out: number[] = [];
  for (const serverUrl of urls) out.push((await w.req('PATCH', `/assistants/${a.id}`, { key: w.A.apiKey, body: { serverUrl } })).status);
  return out;
}

/** A serverUrl of `length` characters on the public name. */
const url = (length: number) => {
  const head = 'https://hooks.example.com/';
  return head + 'a'.repeat(length - head.length);
};

probeArea('server-url', SERVER_URL_FAULTS, {
  'bounds.server-url-1025': { probe: (w) => statuses(w, url(1025)), spec: [400] },
  'bounds.server-url-refuses-1024': { probe: (w) => statuses(w, url(1024)), spec: [200] },
  'bounds.server-url-http': { probe: (w) => statuses(w, 'http://hooks.example.com/events'), spec: [400] },
  'bounds.server-url-mapped-private': { probe: (w) => statuses(w, 'https://mapped.example.com/e', 'https://[::ffff:10.0.0.1]/e'), spec: [400, 400] },
  'bounds.server-url-first-address-only': { probe: (w) => statuses(w, 'https://mixed.example.com/e'), spec: [400] },
  // Range edges: the first public address outside a range, the last forbidden one inside.
  'bounds.private-172-slash-8': { probe: (w) => statuses(w, 'https://[::ffff:172.32.0.0]/e'), spec: [200] },
  'bounds.private-172-slash-13': { probe: (w) => statuses(w, 'https://[::ffff:172.31.255.255]/e'), spec: [400] },
  'bounds.loopback-slash-24': { probe: (w) => statuses(w, 'https://[::ffff:127.255.255.255]/e'), spec: [400] },
  'bounds.link-local-169-slash-8': { probe: (w) => statuses(w, 'https://[::ffff:169.255.0.0]/e'), spec: [200] },
  'bounds.private-10-slash-7': { probe: (w) => statuses(w, 'https://[::ffff:11.0.0.0]/e'), spec: [200] },
  'bounds.server-url-userinfo-host': { probe: (w) => statuses(w, 'https://hooks.example.com@10.0.0.1/e', 'https://hooks.example.com/e'), spec: [400, 200] },
  'bounds.accept-unspecified': { probe: (w) => statuses(w, 'https://0.0.0.0/e', 'https://[::]/e'), spec: [400, 400] },
});
