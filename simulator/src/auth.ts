/**
 * §5 authentication, run as an `onRequest` hook on every public route (before the body is parsed,
 * so bad credentials win over a bad body: 401 before 400 PARSE).
 *
 * Route authors do not call `authenticate` themselves: they declare `config: { scope }` on the
 * route (types.ts `RouteScope`) and read the result with `tenantOf(request)` /
 * `principalOf(request)`.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError, forbidden, orgScopeRequired, unauthorized } from './envelope.ts';
import { seam } from './seam.ts';
import type { KeyOwner, SimState } from './state.ts';
import type { Principal, RouteScope } from './types.ts';

/** The credential headers of a request (§5.1): `Authorization`, and `X-Api-Key`, which the spec does not accept. */
export interface CredentialHeaders {
  authorization: string | undefined;
  xApiKey: string | undefined;
  /** The header names as the client spelled them (RFC 9110 §5.1: names are case-insensitive, so the spelling decides nothing). */
  names?: readonly string[];
}

/**
 * §5.1: the key of a request, or null when it sent none in the stated form. Exactly `ApiKey`,
 * one space, then a key without whitespace: `Bearer`, `apikey`, a bare key, extra spaces, a
 * trailing newline or a key in `X-Api-Key` give null.
 */
export const credentials = seam('auth.credentials', (headers: CredentialHeaders): string | null => {
  const m = /^(\S+) (\S+)$/.exec(headers.authorization ?? '');
  return m && m[1] === 'ApiKey' ? m[2] : null;
});

/**
 * §5.6: a header line ends at CRLF only, so a key followed by a stray LF or CR byte is not a key
 * (401). `lenient` makes the HTTP parser end a header line at a bare LF or CR as well.
 */
export const headerParser = seam('auth.header-parser', (): 'strict' | 'lenient' => 'strict');

/** §5.1: a request without an `Authorization` header is 401 UNAUTHORIZED. */
export const missingCredentials = seam('auth.missing-credentials', (): ApiError => unauthorized());

/**
 * §5.2, §5.4, §5.5: the owner of an active key, or null (unknown, rotated away, a client server
 * secret, a key with stray characters).
 */
export const keyOwner = seam('auth.key-owner', (state: SimState, key: string): KeyOwner | null => state.keys.get(key) ?? null);

/**
 * §5.6: what a tenant key on a route of `scope` is refused with, or null when it may go on: an
 * organization-only route answers 403 ORG_SCOPE_REQUIRED; §5.2 a tenant key naming another
 * tenant in X-Tenant-Id answers 403 FORBIDDEN, its own tenant is unnecessary but allowed. Ids are
 * opaque: exact comparison.
 */
export const tenantKeyRefusal = seam(
  'auth.tenant-key-refusal',
  (scope: RouteScope, xTenant: string | undefined, owner: Extract<KeyOwner, { type: 'tenant' }>): ApiError | null => {
    if (scope === 'organization') return orgScopeRequired();
    if (xTenant !== undefined && xTenant !== owner.tenantId) return forbidden();
    return null;
  },
);

/**
 * §5.6: an organization key on an organization-level route acts on the organization itself;
 * X-Tenant-Id is not needed and, when sent, ignored. Answers the refusal, or null.
 */
export const orgRouteRefusal = seam('auth.org-route-refusal', (_xTenant: string | undefined): ApiError | null => null);

/**
 * §5.2: the tenant an organization key names on a tenant-scoped route, read from its `X-Tenant-Id`
 * header (undefined when none was sent).
 */
export const orgKeyTenantHeader = seam('auth.org-key-tenant-header', (xTenant: string | undefined): string | undefined => xTenant);

/**
 * §5.6: an organization key without X-Tenant-Id on a tenant-scoped route is 400 VALIDATION_ERROR.
 * Answers the refusal, or (a reading that picks a tenant) the tenant to act on.
 */
export const orgKeyWithoutTenant = seam(
  'auth.org-key-without-tenant',
  (_state: SimState, _organizationId: string): ApiError | { tenantId: string } =>
    new ApiError(400, 'VALIDATION_ERROR', 'X-Tenant-Id is required with an organization key', [
      { field: 'X-Tenant-Id', message: 'required with an organization key on a tenant-scoped route' },
    ]),
);

/**
 * Why X-Tenant-Id names no tenant of the key's organization: the tenant exists in another
 * organization, it was removed (§5.6 "moved or removed"), or no such tenant ever existed (not a
 * uuid at all included).
 */
export type ForeignTenantKind = 'other-organization' | 'removed' | 'unknown';

/**
 * §5.6: X-Tenant-Id naming no tenant of the key's organization (another organization's tenant, a
 * removed or unknown tenant, not a uuid at all) is 403 FORBIDDEN: the key is valid, the tenant
 * is not allowed. `kind` tells which of them it is.
 */
export const foreignTenantRefusal = seam('auth.foreign-tenant-refusal', (_kind: ForeignTenantKind): ApiError => forbidden());

/**
 * §5.6: what is judged of a request before its key is looked up, given its X-Tenant-Id: nothing
 * (a tenant is judged only against a valid key's organization, so an invalid key is 401 whatever
 * X-Tenant-Id names). Throws the refusal.
 */
export const beforeKey = seam('auth.before-key', (_state: SimState, _xTenant: string | undefined): void => undefined);

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  if (Array.isArray(v)) return v.join(', ');
  return v === undefined || v === '' ? undefined : v;
}

/**
 * Authenticates a request for a route of the given scope and returns the principal (§5).
 * `scope` null means "unknown route": only the key is checked (so an unknown route answers 401
 * without credentials and 404 NOT_FOUND with valid ones).
 *
 * Throws ApiError: 401 UNAUTHORIZED (bad header or key), 400 VALIDATION_ERROR (organization key
 * without X-Tenant-Id on a tenant route), 403 FORBIDDEN (tenant not in the key's organization,
 * unknown/removed tenant, tenant key with another tenant's X-Tenant-Id), 403 ORG_SCOPE_REQUIRED
 * (tenant key on an organization-only route).
 */
export function authenticate(state: SimState, request: FastifyRequest, scope: RouteScope | null): Principal {
  const seams = state.behaviour;
  const authorization = headerValue(request, 'authorization');
  seams.of(beforeKey)(state, headerValue(request, 'x-tenant-id'));
  const names = request.raw.rawHeaders.filter((_, i) => i % 2 === 0);
  const key = seams.of(credentials)({ authorization, xApiKey: headerValue(request, 'x-api-key'), names });
  if (key === null) throw authorization === undefined ? seams.of(missingCredentials)() : unauthorized();
  const owner = seams.of(keyOwner)(state, key);
  if (!owner) throw unauthorized();
  const xTenant = headerValue(request, 'x-tenant-id');

  if (owner.type === 'tenant') {
    const refusal = scope === null ? null : seams.of(tenantKeyRefusal)(scope, xTenant, owner);
    if (refusal) throw refusal;
    return { keyType: 'tenant', organizationId: owner.organizationId, tenantId: owner.tenantId };
  }

  if (scope === null || scope === 'organization' || scope === 'organization-or-tenant') {
    const refusal = scope === null ? null : seams.of(orgRouteRefusal)(xTenant);
    if (refusal) throw refusal;
    return { keyType: 'organization', organizationId: owner.organizationId, tenantId: null };
  }
  const named = seams.of(orgKeyTenantHeader)(xTenant);
  if (named === undefined) {
    const answer = seams.of(orgKeyWithoutTenant)(state, owner.organizationId);
    if (answer instanceof ApiError) throw answer;
    return { keyType: 'organization', organizationId: owner.organizationId, tenantId: answer.tenantId };
  }
  const tenant = state.tenants.get(named);
  if (!tenant || tenant.organizationId !== owner.organizationId) {
    throw seams.of(foreignTenantRefusal)(tenant ? 'other-organization' : state.removedTenants.has(named) ? 'removed' : 'unknown');
  }
  return { keyType: 'organization', organizationId: owner.organizationId, tenantId: tenant.id };
}

/** The principal set by the auth hook. Throws (→ 500) if called on a route without auth. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principal missing: route is not behind the auth hook');
  return request.principal;
}

/**
 * The tenant id a tenant-scoped request acts on (§5.2). Throws (→ 500) when there is none, which
 * only happens if a route with scope `organization` calls it.
 */
export function tenantOf(request: FastifyRequest): string {
  const p = principalOf(request);
  if (!p.tenantId) throw new Error('tenantOf called on a request with no tenant');
  return p.tenantId;
}
