/**
 * Fastify type augmentation shared by every simulator module: the store on the instance, the
 * authenticated principal on the request, and the auth scope in a route's `config`.
 */
import type { SimState } from './state.ts';

/**
 * Auth scope of a route (§5.2, §5.3, §4.5), given as `config: { scope }` in the route options.
 * - `tenant` (default when absent): tenant-scoped; a tenant key acts on its tenant, an
 *   organization key needs `X-Tenant-Id`.
 * - `organization`: organization-only; organization key without X-Tenant-Id; tenant key → 403
 *   ORG_SCOPE_REQUIRED.
 * - `organization-or-tenant`: both key types; an organization key needs no X-Tenant-Id (the
 *   transcriber catalogue reads).
 */
export type RouteScope = 'tenant' | 'organization' | 'organization-or-tenant';

/**
 * Who is calling, after §5 authentication.
 * `tenantId` is the tenant acted on: always set on `tenant` routes, null for an organization key
 * on `organization` / `organization-or-tenant` routes.
 */
export interface Principal {
  keyType: 'tenant' | 'organization';
  organizationId: string;
  tenantId: string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The simulator's in-memory store (state.ts). */
    sim: SimState;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every public route; null only on control routes. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Auth scope of the route; `tenant` when absent. */
    scope?: RouteScope;
  }
}
