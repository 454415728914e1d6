/**
 * The credential check before the first test of a live run (helpers/target/credentials.ts), against the
 * embedded simulator: the operator's four credentials pass; a rotated key, a trailing newline, a
 * wrong tenant id and an organization key given as a tenant key each stop with one line naming the
 * variable and the status, never the key; a throttled read is waited out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { checkCredentials, refusedLine } from '../../helpers/target/credentials';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { ControlClient } from '../../helpers/target/control';
import type { LiveFixtures } from '../../helpers/target/target';

let sim: RunningSimulator;
let live: LiveFixtures;
let rotatedAway: string;
let foreignTenantId: string;

beforeAll(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const control = new ControlClient(sim.controlUrl);
  const org = await control.send<{ id: string; apiKey: string }>('POST', '/organizations', { name: 'credentials-O' });
  const a = await control.send<{ id: string; apiKey: string }>('POST', '/tenants', { organizationId: org.id });
  const b = await control.send<{ id: string; apiKey: string }>('POST', '/tenants', { organizationId: org.id });
  const other = await control.send<{ id: string }>('POST', '/organizations', { name: 'credentials-P' });
  foreignTenantId = (await control.send<{ id: string }>('POST', '/tenants', { organizationId: other.id })).id;
  rotatedAway = a.apiKey;
  const { apiKey } = await control.send<{ apiKey: string }>('POST', '/keys/rotate', { apiKey: a.apiKey });
  live = { orgKey: org.apiKey, tenantId: a.id, tenantKey: apiKey, otherTenantId: b.id, otherTenantKey: b.apiKey };
});
afterAll(async () => {
  await sim?.close();
});

/** Every secret of the fixtures, for "never printed" checks. */
const secrets = () => [live.orgKey, live.tenantKey, live.otherTenantKey, rotatedAway];

describe('checkCredentials', () => {
  it('accepts the four credentials of a conformant tenant', async () => {
    expect(await checkCredentials(sim.baseUrl, live)).toEqual({ ok: true });
  });

  it('a rotated tenant key: one line naming the variable, 401 and the likely causes, never the key', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, tenantKey: rotatedAway }, { pauseMs: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const line = refusedLine(r);
    expect(line).toMatch(
      /^conformance: credential refused: CORE_API_TENANT_KEY answered 401 UNAUTHORIZED to GET \/assistants, no test ran; likely: the key was rotated/,
    );
    expect(line).toMatch(/trailing newline/);
    expect(line.split('\n')).toHaveLength(1);
    for (const s of secrets()) expect(line).not.toContain(s);
  });

  it('a trailing newline: named as such, without sending it', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, otherTenantKey: `${live.otherTenantKey}\n` });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.cause).toBe('CORE_API_OTHER_TENANT_KEY was not sent to GET /assistants');
    expect(r.fix).toMatch(/^likely: its value ends with a newline .*; set CORE_API_OTHER_TENANT_KEY to the key alone$/);
    expect(refusedLine(r).split('\n')).toHaveLength(1);
  });

  it('a tenant id outside the organization: the organization key with that variable, 403', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, otherTenantId: foreignTenantId });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.cause).toBe('CORE_API_ORG_KEY with CORE_API_OTHER_TENANT_ID answered 403 FORBIDDEN to GET /assistants');
    expect(r.fix).toMatch(/CORE_API_OTHER_TENANT_ID names a tenant outside the organization of CORE_API_ORG_KEY/);
  });

  it('an organization key given as a tenant key: 400, named as such', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, tenantKey: live.orgKey });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.cause).toBe('CORE_API_TENANT_KEY answered 400 VALIDATION_ERROR to GET /assistants');
    expect(r.fix).toMatch(/looks like an organization key/);
    for (const s of secrets()) expect(refusedLine(r)).not.toContain(s);
  });

  it('a rotated organization key: both of its reads refused, the causes said once', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, orgKey: rotatedAway });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.refused.map((x) => x.what)).toEqual(['CORE_API_ORG_KEY with CORE_API_TENANT_ID', 'CORE_API_ORG_KEY with CORE_API_OTHER_TENANT_ID']);
    expect(r.fix.match(/rotated/g)).toHaveLength(1);
  });

  describe('behind a gateway that throttles', () => {
    let gateway: Server;
    let url: string;
    let throttled = 0;
    beforeAll(async () => {
      // The first two requests get the gateway's 429; the rest go through to the simulator.
      gateway = createServer((req, res) => {
        if (throttled < 2) {
          throttled += 1;
          res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"message":"slow down"}');
          return;
        }
        void request(`${sim.origin}${req.url}`, { headers: req.headers as Record<string, string> }).then(async (up) => {
          res.writeHead(up.statusCode, { 'content-type': 'application/json' }).end(await up.body.text());
        });
      });
      await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}${new URL(sim.baseUrl).pathname}`;
    });
    afterAll(async () => {
      await new Promise((r) => gateway?.close(r));
    });

    it('waits out a 429 and still names a refused key', async () => {
      expect(await checkCredentials(url, live, { pauseMs: 1 })).toEqual({ ok: true });
      expect(throttled).toBe(2);
      throttled = 0;
      const r = await checkCredentials(url, { ...live, otherTenantKey: rotatedAway }, { pauseMs: 1 });
      expect(r.ok ? [] : r.refused.map((x) => `${x.what} ${x.answer}`)).toEqual(['CORE_API_OTHER_TENANT_KEY 401 UNAUTHORIZED']);
    });
  });
});
