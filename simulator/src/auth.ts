/**
 * §5 authentication, run as an `onRequest` hook on every public route (before the body is parsed,
 * so bad credentials win over a bad body: 401 before 400 PARSE).
 *
 * Route authors do not call `authenticate` themselves: they declare `config: { scope }` on the
 * route (types.ts `RouteScope`) and read the result with `tenantOf(request)` /
 * `principalOf(request)`.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError, forbidden, notFound, orgScopeRequired, unauthorized } from './envelope.ts';
import { faultOn } from './faults.ts';
import type { KeyOwner, SimState } from './state.ts';
import type { Principal, RouteScope } from './types.ts';

/**
 * The key of an `Authorization` header value, or null when the header is missing or malformed.
 * Exactly `ApiKey`, one space, then a key without whitespace (§5.1): `Bearer`, `apikey`, a bare
 * key, extra spaces or a trailing newline all give null. (Faults: `auth.accept-bearer` also takes
 * `Bearer`, `auth.scheme-case-insensitive` any spelling of ApiKey, `auth.bare-key-accepted` a key
 * with no scheme.)
 */
export function parseAuthorization(state: SimState, header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  const m = /^(\S+) (\S+)$/.exec(header);
  if (!m) return faultOn(state, 'auth.bare-key-accepted') && /^\S+$/.test(header) ? header : null;
  const [, scheme, key] = m;
  if (scheme === 'ApiKey') return key;
  if (scheme === 'Bearer' && faultOn(state, 'auth.accept-bearer')) return key;
  if (scheme.toLowerCase() === 'apikey' && faultOn(state, 'auth.scheme-case-insensitive')) return key;
  return null;
}

/**
 * The owner of an active key, or null (unknown, rotated, a client server secret, a key with
 * stray characters). Faults: `auth.accept-rotated-key` also maps rotated keys,
 * `auth.client-secret-accepted` a tenant's client server secret to that tenant.
 */
export function lookupKey(state: SimState, key: string): KeyOwner | null {
  const owner = state.keys.get(key);
  if (owner) return owner;
  if (faultOn(state, 'auth.accept-rotated-key')) return state.rotatedKeys.get(key) ?? null;
  if (faultOn(state, 'auth.rotated-org-key-accepted')) {
    const former = state.rotatedKeys.get(key);
    if (former && former.type !== 'tenant') return former;
  }
  if (faultOn(state, 'auth.client-secret-accepted')) {
    const t = [...state.tenants.values()].find((x) => x.clientServerSecret === key);
    if (t) return { type: 'tenant', tenantId: t.id, organizationId: t.organizationId };
  }
  return null;
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  if (Array.isArray(v)) return v.join(', ');
  return v === undefined || v === '' ? undefined : v;
}

/**
 * Authenticates a request for a route of the given scope and returns the principal.
 * `scope` null means "unknown route": only the key is checked (so an unknown route answers 401
 * without credentials and 404 NOT_FOUND with valid ones).
 *
 * Throws ApiError: 401 UNAUTHORIZED (bad header or key), 400 VALIDATION_ERROR (organization key
 * without X-Tenant-Id on a tenant route), 403 FORBIDDEN (tenant not in the key's organization,
 * unknown/removed tenant, tenant key with another tenant's X-Tenant-Id), 403 ORG_SCOPE_REQUIRED
 * (tenant key on an organization-only route).
 */
export function authenticate(state: SimState, request: FastifyRequest, scope: RouteScope | null): Principal {
  const authorization = headerValue(request, 'authorization');
  const xApiKey = faultOn(state, 'auth.x-api-key-accepted') && authorization === undefined ? headerValue(request, 'x-api-key') : undefined;
  const key = xApiKey ?? parseAuthorization(state, authorization);
  if (key === null) throw authorization === undefined && faultOn(state, 'auth.missing-header-403') ? forbidden() : unauthorized();
  const owner = lookupKey(state, key);
  if (!owner) throw unauthorized();
  const xTenant = headerValue(request, 'x-tenant-id');

  if (owner.type === 'tenant') {
    if (scope === 'organization' && !faultOn(state, 'auth.org-only-tenant-key-ok')) {
      throw faultOn(state, 'auth.org-scope-as-forbidden') ? forbidden() : orgScopeRequired();
    }
    // §5.2: sending X-Tenant-Id with a tenant key is unnecessary; naming any other tenant is 403
    // (§5.6 "tenant key with another tenant's X-Tenant-Id"). Ids are opaque: exact comparison.
    if (scope !== null && xTenant !== undefined && xTenant !== owner.tenantId) throw forbidden();
    if (scope !== null && xTenant !== undefined && faultOn(state, 'auth.tenant-key-own-header-refused')) {
      throw new ApiError(400, 'VALIDATION_ERROR', 'X-Tenant-Id is only for organization keys');
    }
    return { keyType: 'tenant', organizationId: owner.organizationId, tenantId: owner.tenantId };
  }

  // Organization key.
  if (scope === null || scope === 'organization' || scope === 'organization-or-tenant') {
    if (scope !== null && xTenant === undefined && faultOn(state, 'org.org-key-needs-tenant')) {
      throw new ApiError(400, 'VALIDATION_ERROR', 'X-Tenant-Id is required with an organization key');
    }
    // Organization-level routes act on the organization itself; X-Tenant-Id is not needed and,
    // when sent, ignored.
    return { keyType: 'organization', organizationId: owner.organizationId, tenantId: null };
  }
  if (xTenant === undefined) {
    if (faultOn(state, 'auth.org-key-no-tenant-ok')) {
      const first = state.tenantsOf(owner.organizationId)[0];
      if (first) return { keyType: 'organization', organizationId: owner.organizationId, tenantId: first.id };
    }
    if (faultOn(state, 'auth.org-key-no-tenant-401')) throw unauthorized();
    throw new ApiError(400, 'VALIDATION_ERROR', 'X-Tenant-Id is required with an organization key', [
      { field: 'X-Tenant-Id', message: 'required with an organization key on a tenant-scoped route' },
    ]);
  }
  // A value that names no tenant of this organization (another organization's tenant, a removed
  // or unknown tenant, or not a uuid at all) is 403 FORBIDDEN: the key is valid, the tenant is
  // not allowed (§5.6).
  const tenant = state.tenants.get(xTenant);
  if (!tenant || tenant.organizationId !== owner.organizationId) {
    if (faultOn(state, 'auth.foreign-tenant-403-as-404')) throw notFound();
    if (!tenant && faultOn(state, 'auth.unknown-tenant-404')) throw notFound();
    throw forbidden();
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
