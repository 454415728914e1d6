/**
 * What the run knows of principals, independently of any test: which tenant a key belongs to,
 * which organization a tenant belongs to, and which credentials were revoked (a key rotated away,
 * §5.4; a tenant removed, §5.6). Told by the world and the control client as they provision
 * (helpers/world/world.ts, helpers/target/control.ts); read by the invariant audits (helpers/audits/). Keys are
 * kept in memory only and never written anywhere.
 */

/** Tenant of each tenant key. */
const tenantOfKey = new Map<string, string>();
/** Organization of each organization key. */
const orgOfKey = new Map<string, string>();
/** Organization of each tenant, when known. */
const orgOfTenant = new Map<string, string>();
/** Keys rotated away (§5.4), with the order of the rotation. */
const rotatedKeys = new Set<string>();
/** Tenants removed (§5.6 "moved or removed"). */
const removedTenants = new Set<string>();

/** Tells the ledger a tenant key and its tenant (and the tenant's organization, when known). */
export function noteTenantKey(key: string, tenantId: string, organizationId?: string): void {
  tenantOfKey.set(key, tenantId);
  if (organizationId !== undefined) noteTenant(tenantId, organizationId);
}

/** Tells the ledger an organization key and its organization. */
export function noteOrganizationKey(key: string, organizationId: string): void {
  orgOfKey.set(key, organizationId);
}

/** Tells the ledger that a tenant belongs to an organization. */
export function noteTenant(tenantId: string, organizationId: string): void {
  orgOfTenant.set(tenantId, organizationId);
}

/** Tells the ledger that `oldKey` was rotated away and `newKey` replaces it (same tenant or organization). */
export function noteRotation(oldKey: string, newKey?: string): void {
  rotatedKeys.add(oldKey);
  if (newKey === undefined) return;
  const tenant = tenantOfKey.get(oldKey);
  if (tenant !== undefined) tenantOfKey.set(newKey, tenant);
  const org = orgOfKey.get(oldKey);
  if (org !== undefined) orgOfKey.set(newKey, org);
}

/** Tells the ledger that a tenant was removed. */
export function noteRemoval(tenantId: string): void {
  removedTenants.add(tenantId);
}

/**
 * The principal a credential acts as (§5.2): `{ tenant }` for a tenant key (with no X-Tenant-Id
 * or its own) or an organization key naming a tenant of its organization; `{ organization }` for
 * an organization key without X-Tenant-Id; undefined when the ledger cannot tell or the pair is
 * not one §5.2 accepts.
 */
export function actingAs(key: string | undefined, tenantIdHeader: string | undefined): { tenant?: string; organization?: string } | undefined {
  if (key === undefined) return undefined;
  const tenant = tenantOfKey.get(key);
  if (tenant !== undefined) return tenantIdHeader === undefined || tenantIdHeader === tenant ? { tenant } : undefined;
  const org = orgOfKey.get(key);
  if (org === undefined) return undefined;
  if (tenantIdHeader === undefined) return { organization: org };
  return orgOfTenant.get(tenantIdHeader) === org ? { tenant: tenantIdHeader, organization: org } : undefined;
}

/** The organization a tenant belongs to, when known. */
export function organizationOf(tenantId: string): string | undefined {
  return orgOfTenant.get(tenantId);
}

/**
 * Why a credential must be refused (§5.4, §5.6), with the clause that says so, or undefined:
 * a rotated-away key; a removed tenant's own key; an organization key naming a removed tenant.
 */
export function revocation(key: string | undefined, tenantIdHeader: string | undefined): { clause: string; words: string } | undefined {
  if (key === undefined) return undefined;
  if (rotatedKeys.has(key)) return { clause: '5.4/rotated-key-invalid', words: 'a key rotated away earlier in the run' };
  const tenant = tenantOfKey.get(key);
  if (tenant !== undefined && removedTenants.has(tenant))
    return { clause: '5.6/removed-tenant-key-refused', words: 'the key of a tenant removed earlier in the run' };
  if (orgOfKey.has(key) && tenantIdHeader !== undefined && removedTenants.has(tenantIdHeader))
    return { clause: '5.6/403-removed-tenant', words: 'an organization key naming a tenant removed earlier in the run' };
  return undefined;
}
