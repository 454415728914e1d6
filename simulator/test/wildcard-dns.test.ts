/**
 * Wildcard DNS (wildcard-dns.ts): names under the configured domain resolve to the address written
 * into them, in the forms sslip.io answers; the control DNS table still wins; off unless configured.
 */
import { describe, expect, test } from 'vitest';
import { wildcardAddress } from '../src/wildcard-dns.ts';
import { SimState } from '../src/state.ts';
import { buildSimulator } from '../src/server.ts';

describe('wildcard DNS', () => {
  test('reads IPv4 with dashes or dots, IPv6 with dashes for colons (full or sslip.io-compressed), ignores prefixes', () => {
    const d = 'wild.test';
    expect(wildcardAddress('10-0-0-1.wild.test', d)).toBe('10.0.0.1');
    expect(wildcardAddress('10.0.0.1.wild.test', d)).toBe('10.0.0.1');
    expect(wildcardAddress('www.172-31-255-255.WILD.test.', d)).toBe('172.31.255.255');
    expect(wildcardAddress('0-0-0-0-0-0-0-1.wild.test', d)).toBe('0:0:0:0:0:0:0:1');
    expect(wildcardAddress('--1.wild.test', d)).toBe('::1');
    expect(wildcardAddress('fe80--1.wild.test', d)).toBe('fe80::1');
    expect(wildcardAddress('0-0-0-0-0-ffff-a00-1.wild.test', d)).toBe('0:0:0:0:0:ffff:a00:1');
    for (const none of ['wild.test', 'hooks.wild.test', '10-0-0-256.wild.test', '10-0-0-1.other.test', '10-0-0-1.notwild.test'])
      expect(wildcardAddress(none, d), none).toBeUndefined();
  });

  test('SimState resolves the domain only when configured, after the control table', () => {
    const s = new SimState();
    expect(s.resolve('10-0-0-1.wild.test')).toEqual([]);
    s.wildcardDns = 'wild.test';
    expect(s.resolve('10-0-0-1.wild.test')).toEqual(['10.0.0.1']);
    s.dns.set('10-0-0-1.wild.test', ['203.0.113.9']);
    expect(s.resolve('10-0-0-1.wild.test')).toEqual(['203.0.113.9']);
    s.reset();
    expect(s.resolve('192-168-1-1.wild.test')).toEqual(['192.168.1.1']);
  });

  test('buildSimulator({ wildcardDns }) judges serverUrl by the wildcard answer (§2.3)', async () => {
    const app = await buildSimulator({ wildcardDns: 'wild.test' });
    try {
      const ctl = async (method: 'POST', url: string, body: unknown) => (await app.inject({ method, url: `/__control${url}`, payload: body as object })).json();
      const org = await ctl('POST', '/organizations', { name: 'O' });
      const t = await ctl('POST', '/tenants', { organizationId: org.id, name: 'A' });
      const headers = { authorization: `ApiKey ${t.apiKey}` };
      const made = (await app.inject({ method: 'POST', url: '/assistants', headers, payload: { name: 'w' } })).json();
      const patch = (serverUrl: string) => app.inject({ method: 'PATCH', url: `/assistants/${made.data.id}`, headers, payload: { serverUrl } });
      expect((await patch('https://203-0-113-10.wild.test/h')).statusCode).toBe(200);
      expect((await patch('https://10-0-0-1.wild.test/h')).statusCode).toBe(400);
      expect((await patch('https://0-0-0-0-0-0-0-1.wild.test/h')).statusCode).toBe(400);
      expect((await patch('https://hooks.wild.test/h')).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});
