/**
 * Faults of §5 authentication: each overrides one seam of auth.ts. Probes:
 * simulator/test/faults/auth.test.ts.
 */
import { ApiError, forbidden, notFound, unauthorized } from '../envelope.ts';
import {
  beforeKey,
  credentials,
  foreignTenantRefusal,
  headerParser,
  keyOwner,
  missingCredentials,
  orgKeyTenantHeader,
  orgKeyWithoutTenant,
  orgRouteRefusal,
  tenantKeyRefusal,
} from '../auth.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The authentication faults. */
export const AUTH_FAULTS = defineFaults([
  {
    name: 'auth.accept-bearer',
    clauses: ['5.1/bearer-401'],
    description: '`Authorization: Bearer <key>` is accepted like `ApiKey <key>`.',
    override: override(credentials, (next) => (h) => /^Bearer (\S+)$/.exec(h.authorization ?? '')?.[1] ?? next(h)),
  },
  {
    name: 'auth.scheme-case-insensitive',
    clauses: ['5.1/scheme-exact'],
    description: 'The scheme is matched case-insensitively, so `apikey <key>` authenticates.',
    override: override(credentials, (next) => (h) => /^apikey (\S+)$/i.exec(h.authorization ?? '')?.[1] ?? next(h)),
  },
  {
    name: 'auth.bare-key-accepted',
    clauses: ['5.1/bare-key-401'],
    description: 'A bare key in Authorization (no scheme) authenticates.',
    override: override(credentials, (next) => (h) => /^\S+$/.exec(h.authorization ?? '')?.[0] ?? next(h)),
  },
  {
    name: 'auth.x-api-key-accepted',
    clauses: ['5.1/x-api-key-401'],
    description: 'A key in an X-Api-Key header (no Authorization) authenticates.',
    override: override(credentials, (next) => (h) => (h.authorization === undefined && h.xApiKey !== undefined ? h.xApiKey : next(h))),
  },
  {
    name: 'auth.missing-header-403',
    clauses: ['5.1/missing-header-401'],
    description: 'A request without an Authorization header answers 403 FORBIDDEN instead of 401 UNAUTHORIZED.',
    override: override(missingCredentials, () => () => forbidden()),
  },
  {
    name: 'auth.lenient-header-parser',
    clauses: ['5.6/401-trailing-newline'],
    description:
      'The HTTP parser is lenient: a bare LF or CR ends a header line, so a key followed by a stray newline byte authenticates (2xx) instead of 401.',
    override: override(headerParser, () => () => 'lenient'),
  },
  {
    name: 'auth.accept-rotated-key',
    clauses: ['5.4/rotated-key-invalid'],
    description: 'A key that was rotated away keeps authenticating as its former owner.',
    override: override(keyOwner, (next) => (state, key) => next(state, key) ?? state.rotatedKeys.get(key) ?? null),
  },
  {
    name: 'auth.rotated-org-key-accepted',
    clauses: ['5.4/rotated-key-invalid'],
    description: 'A rotated-away organization key keeps authenticating (rotation invalidates tenant keys only).',
    override: override(keyOwner, (next) => (state, key) => {
      const former = state.rotatedKeys.get(key);
      return next(state, key) ?? (former && former.type !== 'tenant' ? former : null);
    }),
  },
  {
    name: 'auth.client-secret-accepted',
    clauses: ['5.5/secret-not-a-key'],
    description: "The client server secret authenticates as its tenant's key.",
    override: override(keyOwner, (next) => (state, key) => {
      const t = [...state.tenants.values()].find((x) => x.clientServerSecret === key);
      return next(state, key) ?? (t ? { type: 'tenant', tenantId: t.id, organizationId: t.organizationId } : null);
    }),
  },
  {
    name: 'auth.org-only-tenant-key-ok',
    clauses: ['4.5/scope-org-only-routes', '5.6/403-org-scope-required'],
    description: 'A tenant key is accepted on organization-only routes (e.g. GET /organization/tenants) instead of 403 ORG_SCOPE_REQUIRED.',
    override: override(tenantKeyRefusal, (next) => (scope, xTenant, owner) => (scope === 'organization' ? null : next(scope, xTenant, owner))),
  },
  {
    name: 'auth.org-scope-as-forbidden',
    clauses: ['5.6/403-org-scope-required'],
    description: 'A tenant key on an organization-only route answers 403 FORBIDDEN instead of 403 ORG_SCOPE_REQUIRED.',
    override: override(tenantKeyRefusal, (next) => (scope, xTenant, owner) => (scope === 'organization' ? forbidden() : next(scope, xTenant, owner))),
  },
  {
    name: 'auth.tenant-key-own-header-refused',
    clauses: ['5.2/tenant-key-own-tenant-header'],
    description: "A tenant key sent with its own tenant's X-Tenant-Id is refused with 400 VALIDATION_ERROR.",
    override: override(
      tenantKeyRefusal,
      (next) => (scope, xTenant, owner) =>
        next(scope, xTenant, owner) ?? (xTenant !== undefined ? new ApiError(400, 'VALIDATION_ERROR', 'X-Tenant-Id is only for organization keys') : null),
    ),
  },
  {
    name: 'org.org-key-needs-tenant',
    clauses: ['5.3/org-routes-without-tenant-header', '4.5/scope-transcriber-catalogue'],
    description: 'An organization key without X-Tenant-Id is refused (400 VALIDATION_ERROR) on organization-only routes and transcriber reads.',
    override: override(
      orgRouteRefusal,
      (next) => (xTenant) =>
        xTenant === undefined ? new ApiError(400, 'VALIDATION_ERROR', 'X-Tenant-Id is required with an organization key') : next(xTenant),
    ),
  },
  {
    name: 'auth.org-key-no-tenant-ok',
    clauses: ['5.6/400-org-key-without-tenant'],
    description:
      'An organization key without X-Tenant-Id on a tenant-scoped route acts as the first tenant of the organization instead of answering 400 VALIDATION_ERROR.',
    override: override(orgKeyWithoutTenant, (next) => (state, organizationId) => {
      const first = state.tenantsOf(organizationId)[0];
      return first ? { tenantId: first.id } : next(state, organizationId);
    }),
  },
  {
    name: 'auth.org-key-no-tenant-401',
    clauses: ['5.6/400-org-key-without-tenant'],
    description: 'An organization key without X-Tenant-Id on a tenant-scoped route answers 401 UNAUTHORIZED instead of 400 VALIDATION_ERROR.',
    override: override(orgKeyWithoutTenant, () => () => unauthorized()),
  },
  {
    name: 'auth.org-key-tenant-header-unseen',
    clauses: ['5.2/org-key-with-tenant-header'],
    description:
      'The organization key with X-Tenant-Id of its own tenant answers 400 VALIDATION_ERROR on tenant-scoped routes, as if no X-Tenant-Id had been sent: the key is accepted, the header is not seen (a gateway that drops it). Every key is valid; the API is not.',
    override: override(orgKeyTenantHeader, () => () => undefined),
  },
  {
    name: 'auth.foreign-tenant-403-as-404',
    clauses: ['5.6/403-foreign-org-tenant'],
    description: 'An organization key naming a tenant outside its organization (or an unknown tenant) answers 404 RESOURCE_NOT_FOUND instead of 403 FORBIDDEN.',
    override: override(foreignTenantRefusal, () => () => notFound()),
  },
  {
    name: 'auth.unknown-tenant-404',
    clauses: ['5.6/403-unknown-tenant'],
    description: "An organization key naming a tenant that never existed answers 404 RESOURCE_NOT_FOUND (another organization's tenant still answers 403).",
    override: override(foreignTenantRefusal, (next) => (kind) => (kind === 'unknown' ? notFound() : next(kind))),
  },
  {
    name: 'auth.removed-tenant-404',
    clauses: ['5.6/403-removed-tenant'],
    description:
      'A soft-deleting tenant lookup: an organization key naming a tenant of its organization that was removed answers 404 RESOURCE_NOT_FOUND instead of 403 FORBIDDEN.',
    override: override(foreignTenantRefusal, (next) => (kind) => (kind === 'removed' ? notFound() : next(kind))),
  },
  {
    name: 'auth.removed-tenant-key-accepted',
    clauses: ['5.6/removed-tenant-key-refused'],
    description: "A removed tenant's own key keeps authenticating (the key rows outlive the soft-deleted tenant).",
    override: override(keyOwner, (next) => (state, key) => next(state, key) ?? state.removedKeys.get(key) ?? null),
  },
  {
    name: 'auth.key-case-insensitive',
    clauses: ['5.6/401-unknown-key'],
    description:
      'Keys are looked up case-insensitively (a key column with a case-insensitive collation, as MySQL utf8mb4_general_ci or citext): the issued key with its letters upper-cased authenticates.',
    override: override(keyOwner, (next) => (state, key) => {
      const folded = key.toLowerCase();
      return next(state, key) ?? [...state.keys].find(([k]) => k.toLowerCase() === folded)?.[1] ?? null;
    }),
  },
  {
    name: 'auth.header-name-case',
    clauses: ['5.1/header-name-case'],
    description:
      'The key is read only from a header spelled `Authorization` or `authorization` (a handler reading a case-sensitive header map, as behind some gateways): `AUTHORIZATION: ApiKey <key>` answers 401.',
    override: override(credentials, (next) => (h) => {
      const spelled = !h.names || h.authorization === undefined || h.names.some((n) => n === 'Authorization' || n === 'authorization');
      return spelled ? next(h) : null;
    }),
  },
  {
    name: 'auth.tenant-before-key',
    clauses: ['7/error-pairs'],
    description:
      'A tenant-resolving step runs before the key check: an X-Tenant-Id naming no tenant answers 403 FORBIDDEN even with no key or an invalid one, instead of 401 UNAUTHORIZED.',
    override: override(beforeKey, (next) => (state, xTenant) => {
      if (xTenant !== undefined && !state.tenants.has(xTenant)) throw forbidden();
      next(state, xTenant);
    }),
  },
  {
    name: 'auth.rotation-revokes-first-key-only',
    clauses: ['5.4/rotated-key-invalid'],
    description:
      "Rotation revokes only the owner's first key (a revocation row keyed by the original key): a key issued by a rotation keeps working after the next rotation.",
    override: override(keyOwner, (next) => (state, key) => {
      const current = next(state, key);
      const former = state.rotatedKeys.get(key);
      if (current || !former) return current;
      const first = [...state.rotatedKeys].find(([, owner]) => JSON.stringify(owner) === JSON.stringify(former))?.[0];
      return first === key ? null : former;
    }),
  },
]);
