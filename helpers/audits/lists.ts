/**
 * Audit "isolation" (§5.7, §5.2): every list any principal reads holds nothing of another tenant
 * or organization. The audit learns which tenant owns an id from the run's own answers (an id a
 * principal of tenant T created or read as its own, helpers/target/principals.ts telling which tenant a
 * credential acts as) and judges every accepted list read: a `GET` whose `data` is an array (or an
 * object wrapping one) holds no id owned by another tenant, and `GET /organization/tenants` no
 * tenant of another organization. An id seen owned by two tenants is left out (ids are the
 * server's to choose; only a clash the run saw nothing of is judged).
 */
import type { ApiResponse, SentRequest } from '../http/client';
import type { UncheckedJson } from '../base/exchange';
import { isObject, judged, type AuditDefinition } from './audit';
import { actingAs, organizationOf } from '../target/principals';

/** The audit's name and clauses. */
export const LISTS_AUDIT: AuditDefinition = {
  name: 'lists hold nothing of another tenant',
  clauses: ['5.7/lists-own-tenant-only', '5.2/org-tenants-own-organization-only'],
  invariant: 'a list read by any principal holds no id of another tenant, and GET /organization/tenants no tenant of another organization',
};

/** The lists §5.7 names (`5.7/lists-own-tenant-only`): shared catalogues (models, transcribers) are not among them. */
const TENANT_LISTS = /^\/(assistants|calls|calls\/live|conversations|prompts)$/;

/**
 * Answers that show an id as the principal's own: a create (`POST` of a tenant resource) and a read
 * of one resource by its id. Never a list, so an entry every tenant sees (a built-in) is not owned.
 */
const OWNING = /^\/(assistants|prompts|tools|test-suites|calls|conversations)(\/[^/]+)?$/;

/** Owning tenants of each id the run saw a tenant hold as its own. */
const owners = new Map<string, Set<string>>();

/**
 * The items of a list answer: `data` itself when an array, else the first array of objects among
 * its values (`data.assistants`, §4.5); undefined for a single resource (an object with an `id`).
 */
export function listItems(data: UncheckedJson): UncheckedJson[] | undefined {
  if (Array.isArray(data)) return data;
  if (!isObject(data) || typeof data.id === 'string') return undefined;
  return Object.values(data).find((v): v is UncheckedJson[] => Array.isArray(v) && v.every(isObject));
}

function idsOf(items: UncheckedJson[]): string[] {
  return items.filter(isObject).flatMap((i) => (typeof i.id === 'string' ? [i.id] : []));
}

function own(id: string, tenant: string): void {
  const set = owners.get(id) ?? new Set<string>();
  set.add(tenant);
  owners.set(id, set);
}

/** The tenant that owns `id`, when exactly one is known. */
function ownerOf(id: string): string | undefined {
  const set = owners.get(id);
  return set && set.size === 1 ? [...set][0] : undefined;
}

function judgeTenantList(ids: string[], tenant: string, where: string): void {
  const foreign = ids.filter((id) => {
    const o = ownerOf(id);
    return o !== undefined && o !== tenant;
  });
  judged(LISTS_AUDIT, '5.7/lists-own-tenant-only', foreign.length === 0, 'a list holds nothing of another tenant', {
    expected: 'no id of another tenant',
    actual: `${where} read as tenant ${tenant}: ${foreign.map((id) => `${id} (tenant ${ownerOf(id)})`).join(', ')}`,
  });
}

function judgeOrganizationList(ids: string[], organization: string, where: string): void {
  const foreign = ids.filter((id) => {
    const o = organizationOf(id);
    return o !== undefined && o !== organization;
  });
  judged(LISTS_AUDIT, '5.2/org-tenants-own-organization-only', foreign.length === 0, 'GET /organization/tenants lists no tenant of another organization', {
    expected: 'no tenant of another organization',
    actual: `${where} read with the key of organization ${organization}: ${foreign.join(', ')}`,
  });
}

/** Observes one request (helpers/http/client.ts `onRequest`). */
export function auditLists(sent: SentRequest): (answer: ApiResponse | undefined) => void {
  const who = actingAs(sent.credentials?.key, sent.credentials?.tenantId);
  if (!who) return () => undefined;
  return (answer) => {
    if (!answer || answer.status < 200 || answer.status >= 300 || !sent.audited) return;
    const path = sent.path.split('?')[0];
    const data = answer.json?.data;
    const items = listItems(data);
    const where = `${sent.method} ${path}`;
    if (path.endsWith('/organization/tenants')) {
      if (sent.method === 'GET' && items && who.organization !== undefined && who.tenant === undefined)
        judgeOrganizationList(idsOf(items), who.organization, where);
      return;
    }
    if (who.tenant === undefined) return;
    if (items === undefined) {
      const single = OWNING.exec(path);
      const created = sent.method === 'POST' && single && single[2] === undefined;
      const read = sent.method === 'GET' && single && single[2] !== undefined;
      if ((created || read) && isObject(data) && typeof data.id === 'string') own(data.id, who.tenant);
      return;
    }
    if (sent.method === 'GET' && TENANT_LISTS.test(path)) judgeTenantList(idsOf(items), who.tenant, where);
  };
}
