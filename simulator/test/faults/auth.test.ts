/** Probes of the §5 authentication faults (simulator/src/faults/auth.ts). */
import { AUTH_FAULTS } from '../../src/faults/auth.ts';
import { probeArea, st } from './probe.ts';

const NEVER_EXISTED = '11111111-1111-4111-8111-111111111111';

probeArea('auth', AUTH_FAULTS, {
  'auth.accept-bearer': async (w) => st(await w.req('GET', '/assistants', { headers: { authorization: `Bearer ${w.A.apiKey}` } })),
  'auth.scheme-case-insensitive': async (w) => st(await w.req('GET', '/assistants', { headers: { authorization: `apikey ${w.A.apiKey}` } })),
  'auth.bare-key-accepted': async (w) => st(await w.req('GET', '/assistants', { headers: { authorization: w.A.apiKey } })),
  'auth.x-api-key-accepted': async (w) => st(await w.req('GET', '/assistants', { headers: { 'x-api-key': w.A.apiKey } })),
  'auth.missing-header-403': async (w) => st(await w.req('GET', '/assistants')),
  'auth.lenient-header-parser': {
    // A key followed by a bare LF: the strict HTTP parser refuses the request (400) before any route.
    probe: async (w) =>
      w.rawStatus(`GET /assistants HTTP/1.1\r\nHost: x\r\nAuthorization: ApiKey ${w.A.apiKey}\nAccept: application/json\r\nConnection: close\r\n\r\n`),
    spec: 400,
  },
  'auth.accept-rotated-key': async (w) => {
    const old = w.A.apiKey;
    await w.ctl('POST', '/keys/rotate', { apiKey: old });
    return st(await w.req('GET', '/assistants', { key: old }));
  },
  'auth.rotated-org-key-accepted': async (w) => {
    const old = w.orgKey;
    await w.ctl('POST', '/keys/rotate', { apiKey: old });
    return st(await w.req('GET', '/assistants', { key: old, headers: { 'x-tenant-id': w.A.id } }));
  },
  'auth.client-secret-accepted': async (w) => st(await w.req('GET', '/assistants', { key: w.A.clientServerSecret })),
  'auth.org-only-tenant-key-ok': async (w) => st(await w.req('GET', '/organization/tenants', { key: w.A.apiKey })),
  'auth.org-scope-as-forbidden': async (w) => st(await w.req('GET', '/organization/tenants', { key: w.A.apiKey })),
  'auth.tenant-key-own-header-refused': async (w) => st(await w.req('GET', '/assistants', { key: w.A.apiKey, headers: { 'x-tenant-id': w.A.id } })),
  'org.org-key-needs-tenant': async (w) => st(await w.req('GET', '/organization/tenants', { key: w.orgKey })),
  'auth.org-key-no-tenant-ok': async (w) => st(await w.req('GET', '/assistants', { key: w.orgKey })),
  'auth.org-key-no-tenant-401': async (w) => st(await w.req('GET', '/assistants', { key: w.orgKey })),
  'auth.org-key-tenant-header-unseen': async (w) => st(await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.A.id } })),
  'auth.foreign-tenant-403-as-404': async (w) => st(await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.F.id } })),
  'auth.unknown-tenant-404': async (w) => st(await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': NEVER_EXISTED } })),
  'auth.removed-tenant-404': {
    probe: async (w) => {
      await w.ctl('DELETE', `/tenants/${w.B.id}`);
      return st(await w.req('GET', '/assistants', { key: w.orgKey, headers: { 'x-tenant-id': w.B.id } }))[0];
    },
    spec: 403,
  },
  'auth.removed-tenant-key-accepted': async (w) => {
    await w.ctl('DELETE', `/tenants/${w.B.id}`);
    return st(await w.req('GET', '/assistants', { key: w.B.apiKey }))[0];
  },
  'auth.key-case-insensitive': { probe: async (w) => st(await w.req('GET', '/assistants', { key: w.A.apiKey.toUpperCase() }))[0], spec: 401 },
  'auth.header-name-case': {
    // Over a real socket: an injected request's header names arrive lower-cased.
    probe: (w) => w.rawStatus(`GET /assistants HTTP/1.1\r\nHost: x\r\nAUTHORIZATION: ApiKey ${w.A.apiKey}\r\nConnection: close\r\n\r\n`),
    spec: 200,
  },
  'auth.tenant-before-key': {
    probe: async (w) => st(await w.req('GET', '/assistants', { key: 'not-a-key', headers: { 'x-tenant-id': NEVER_EXISTED } })),
    spec: [401, 'UNAUTHORIZED', 'Missing or invalid credentials'],
  },
  'auth.rotation-revokes-first-key-only': {
    // Rotated twice: the key the first rotation issued is the one to try (the first key is refused either way).
    probe: async (w) => {
      const first = w.A.apiKey;
      const second = (await w.ctl('POST', '/keys/rotate', { apiKey: first })).body.apiKey;
      await w.ctl('POST', '/keys/rotate', { apiKey: second });
      return st(await w.req('GET', '/assistants', { key: second }));
    },
    spec: [401, 'UNAUTHORIZED', 'Missing or invalid credentials'],
  },
});
