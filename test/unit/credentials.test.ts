/**
 * The credential check before the first test of a live run (helpers/target/credentials.ts), against the
 * embedded simulator: the operator's four credentials pass; a rotated key or a trailing newline is
 * a refused form (its tests skip, the run goes on), and only every form refused stops the run; a
 * 400 or 403 to a valid-looking form (a wrong tenant id, an organization key given as a tenant key,
 * a server that does not see X-Tenant-Id) is the API's answer, for the tests to judge, with a note;
 * nothing names a key; a throttled read is waited out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { checkCredentials, credentialNotes, refusalReason, refusedLine } from '../../helpers/target/credentials';
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
    expect(await checkCredentials(sim.baseUrl, live)).toEqual({ ok: true, refused: [], answered: [] });
  });

  it('a rotated tenant key: refused (401), the run goes on; one line naming the variable and the likely causes, never the key', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, tenantKey: rotatedAway }, { pauseMs: 1 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.refused.map((x) => `${x.what} ${x.answer}`)).toEqual(['CORE_API_TENANT_KEY 401 UNAUTHORIZED']);
    const lines = credentialNotes(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^conformance: credential refused: CORE_API_TENANT_KEY answered 401 UNAUTHORIZED to GET \/assistants; the tests that need it skip; likely: the key was rotated/,
    );
    expect(lines[0]).toMatch(/trailing newline/);
    for (const s of secrets()) expect(lines[0]).not.toContain(s);
    // The principals made of it skip with the variable and the answer; the others are untouched.
    expect(refusalReason(r.refused, 'CORE_API_TENANT_KEY')).toMatch(/^credential refused before the first test: CORE_API_TENANT_KEY answered 401 UNAUTHORIZED/);
    expect(refusalReason(r.refused, 'CORE_API_TENANT_KEY', 'CORE_API_OTHER_TENANT_ID')).toMatch(/CORE_API_TENANT_KEY answered 401/);
    expect(refusalReason(r.refused, 'CORE_API_ORG_KEY', 'CORE_API_TENANT_ID')).toBeUndefined();
  });

  it('a trailing newline: refused as such, without sending it', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, otherTenantKey: `${live.otherTenantKey}\n` });
    expect(r.ok && r.refused).toEqual([
      {
        what: 'CORE_API_OTHER_TENANT_KEY',
        keyVariable: 'CORE_API_OTHER_TENANT_KEY',
        answer: 'not sent',
        likely: expect.stringMatching(/^its value ends with a newline .*; set CORE_API_OTHER_TENANT_KEY to the key alone$/),
      },
    ]);
  });

  it('a 403 to the organization key with a tenant id is the API answer, judged by the tests: a note says what to check, nothing is refused', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, otherTenantId: foreignTenantId });
    expect(r).toEqual({
      ok: true,
      refused: [],
      answered: [{ what: 'CORE_API_ORG_KEY with CORE_API_OTHER_TENANT_ID', answer: '403 FORBIDDEN', likely: expect.any(String) }],
    });
    if (!r.ok) return;
    expect(credentialNotes(r)).toEqual([
      expect.stringMatching(
        /^conformance: note CORE_API_ORG_KEY with CORE_API_OTHER_TENANT_ID answered 403 FORBIDDEN to GET \/assistants: not a refused key \(only a 401 is\), so the tests judge it against §5; .*CORE_API_OTHER_TENANT_ID names a tenant outside the organization/,
      ),
    ]);
  });

  it('an organization key given as a tenant key: its 400 is a note naming the likely mix-up, never the key', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, tenantKey: live.orgKey });
    expect(r.ok && r.answered.map((x) => `${x.what} ${x.answer}`)).toEqual(['CORE_API_TENANT_KEY 400 VALIDATION_ERROR']);
    if (!r.ok) return;
    expect(credentialNotes(r)[0]).toMatch(/looks like an organization key/);
    for (const s of secrets()) expect(credentialNotes(r).join('\n')).not.toContain(s);
  });

  it('a rotated organization key: both of its forms refused, so every principal made of it skips; the tenant keys go on', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, orgKey: rotatedAway });
    expect(r.ok).toBe(true);
    expect(r.refused.map((x) => x.what)).toEqual(['CORE_API_ORG_KEY with CORE_API_TENANT_ID', 'CORE_API_ORG_KEY with CORE_API_OTHER_TENANT_ID']);
    // The organization key without X-Tenant-Id, or with a foreign tenant's, was never checked in that form: every form of its key was refused.
    expect(refusalReason(r.refused, 'CORE_API_ORG_KEY')).toMatch(/CORE_API_ORG_KEY with CORE_API_TENANT_ID answered 401/);
    expect(refusalReason(r.refused, 'CORE_API_TENANT_KEY')).toBeUndefined();
  });

  it('every credential refused: the run stops with one line naming each, the causes said once, never a key', async () => {
    const r = await checkCredentials(sim.baseUrl, { ...live, orgKey: rotatedAway, tenantKey: rotatedAway, otherTenantKey: `${rotatedAway}x` }, { pauseMs: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const line = refusedLine(r);
    expect(line).toMatch(
      /^conformance: every credential refused: CORE_API_TENANT_KEY answered 401 UNAUTHORIZED to GET \/assistants; CORE_API_OTHER_TENANT_KEY answered 401/,
    );
    expect(line).toMatch(/, no test ran; likely: the key was rotated/);
    expect(line.match(/rotated in the dashboard/g)).toHaveLength(3);
    expect(line.split('\n')).toHaveLength(1);
    for (const s of secrets()) expect(line).not.toContain(s);
  });

  describe('a server that does not see X-Tenant-Id beside the organization key (fault auth.org-key-tenant-header-unseen)', () => {
    beforeAll(async () => {
      await new ControlClient(sim.controlUrl).config({ faults: ['auth.org-key-tenant-header-unseen'] });
    });
    afterAll(async () => {
      await new ControlClient(sim.controlUrl).config({ faults: [] });
    });

    it('its 400 VALIDATION_ERROR to a valid key is the API answer, not a refused credential: nothing skips, the run goes on', async () => {
      const r = await checkCredentials(sim.baseUrl, live);
      expect(r).toEqual({
        ok: true,
        refused: [],
        answered: [
          { what: 'CORE_API_ORG_KEY with CORE_API_TENANT_ID', answer: '400 VALIDATION_ERROR', likely: expect.any(String) },
          { what: 'CORE_API_ORG_KEY with CORE_API_OTHER_TENANT_ID', answer: '400 VALIDATION_ERROR', likely: expect.any(String) },
        ],
      });
    });
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
      url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}${new URL(sim.baseUrl).pathname.replace(/\/$/, '')}`;
    });
    afterAll(async () => {
      await new Promise((r) => gateway?.close(r));
    });

    it('waits out a 429 and still names a refused key', async () => {
      expect(await checkCredentials(url, live, { pauseMs: 1 })).toEqual({ ok: true, refused: [], answered: [] });
      expect(throttled).toBe(2);
      throttled = 0;
      const r = await checkCredentials(url, { ...live, otherTenantKey: rotatedAway }, { pauseMs: 1 });
      expect(r.refused.map((x) => `${x.what} ${x.answer}`)).toEqual(['CORE_API_OTHER_TENANT_KEY 401 UNAUTHORIZED']);
    });
  });
});
