/**
 * Faults of the organization-level routes and phone numbers (§1, §4.5, §5.3): each overrides one
 * seam of routes/organization.ts or routes/phone-numbers.ts. (`org.org-key-needs-tenant` is a fault
 * of the §5 authentication seams: faults/auth.ts.) Probes: simulator/test/faults/org.test.ts.
 */
import { ApiError, validationError } from '../envelope.ts';
import { auditRefusal, tenantRows } from '../routes/organization.ts';
import { inventoryAnswer, purchaseRefusal } from '../routes/phone-numbers.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The organization and phone-number faults. */
export const ORG_FAULTS = defineFaults([
  {
    name: 'org.tenants-list-first-only',
    clauses: ['1/hierarchy'],
    description: "GET /organization/tenants lists only the organization's first tenant.",
    override: override(tenantRows, (next) => (tenants, organizationId) => next(tenants, organizationId).slice(0, 1)),
  },
  {
    name: 'org.tenant-ids-prefixed',
    clauses: ['2.1/ids-uuid'],
    description: 'Tenant ids in GET /organization/tenants carry a prefix (ten_<uuid>) and are no UUID strings.',
    override: override(tenantRows, (next) => (tenants, organizationId) => next(tenants, organizationId).map((t) => ({ ...t, id: `ten_${t.id}` }))),
  },
  {
    name: 'org.tenants-list-every-org',
    clauses: ['5.2/org-tenants-own-organization-only'],
    description: "GET /organization/tenants lists the tenants of every organization (the query lost its organization filter), another organization's included.",
    override: override(tenantRows, (next) => (tenants) => [...new Set(tenants.map((t) => t.organizationId))].flatMap((org) => next(tenants, org))),
  },
  {
    name: 'org.available-numbers-bare',
    clauses: ['4.5/phone-numbers-available'],
    description: 'GET /phone-numbers/available answers a bare array instead of the envelope.',
    override: override(inventoryAnswer, () => (reply, rows) => reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(rows))),
  },
  {
    name: 'org.purchase-refused',
    clauses: ['4.5/phone-numbers-purchase'],
    description: 'POST /phone-numbers refuses every purchase with 400 VALIDATION_ERROR.',
    override: override(purchaseRefusal, () => () => validationError([{ field: 'number', message: 'purchases are paused' }])),
  },
  {
    name: 'org.audits-need-tenant',
    clauses: ['4.5/scope-org-audits', '4.5/org-audits'],
    description: 'POST /v1/retention/audits and /v1/churn/audits refuse an organization key without X-Tenant-Id (400 VALIDATION_ERROR).',
    override: override(
      auditRefusal,
      (next) => (xTenant) =>
        xTenant === undefined
          ? new ApiError(400, 'VALIDATION_ERROR', 'X-Tenant-Id is required with an organization key', [
              { field: 'X-Tenant-Id', message: 'required with an organization key' },
            ])
          : next(xTenant),
    ),
  },
]);
