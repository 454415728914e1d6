/**
 * Organization-level routes (§5.3, §4.5): `GET /organization/tenants`, the audits under `/v1`
 * (§9.2) and the transcriber testing resources `/turn-flags`, `/transcriber-banks`,
 * `/full-call-runs` (GET list, POST create, GET one). All take an organization key without
 * X-Tenant-Id; a tenant key answers 403 ORG_SCOPE_REQUIRED. Their shapes are "not shown": the
 * bodies here are minimal and plausible, and only the numeric limits of §8 that name a field
 * plainly are enforced (8 bank candidates, 10 calls per full-call run).
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { principalOf } from '../auth.ts';
import { type ApiError, ok } from '../envelope.ts';
import { findOwned } from '../resources.ts';
import { seam } from '../seam.ts';
import type { Tenant } from '../state.ts';
import { Checker } from '../validation/checker.ts';
import { isPlainObject } from '../validation/formats.ts';

/** A stored organization-level item; `tenantId` holds the organization id so findOwned applies. */
interface OrgItem {
  tenantId: string;
  data: Record<string, unknown>;
}

const ORG = { config: { scope: 'organization' as const } };

/**
 * §1, §4.5, §5.2: `GET /organization/tenants` lists every tenant of the key's organization
 * (`organizationId`) out of all tenants (`tenants`), each with its id (a UUID, §2.1) and name, and
 * no tenant of another organization.
 */
export const tenantRows = seam('org.tenant-rows', (tenants: readonly Tenant[], organizationId: string): { id: string; name: string }[] =>
  tenants.filter((t) => t.organizationId === organizationId).map((t) => ({ id: t.id, name: t.name })),
);

/**
 * §4.5, §5.3: the audits take an organization key without X-Tenant-Id, so an audit request has no
 * precondition on that header: answers the refusal, or null.
 */
export const auditRefusal = seam('org.audit-refusal', (_xTenant: string | string[] | undefined): ApiError | null => null);

function bodyOf(body: unknown): Record<string, unknown> {
  const c = new Checker();
  if (body === undefined) return {};
  if (!isPlainObject(body)) c.fail('body', 'must be a JSON object');
  c.throwIfAny();
  return body as Record<string, unknown>;
}

/** Plugin with the organization-level routes. */
export const organizationRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.get('/organization/tenants', ORG, async (request, reply) => {
    const { organizationId } = principalOf(request);
    return ok(reply, state.behaviour.of(tenantRows)([...state.tenants.values()], organizationId));
  });

  for (const kind of ['retention', 'churn'] as const) {
    app.post(`/v1/${kind}/audits`, ORG, async (request, reply) => {
      const refusal = state.behaviour.of(auditRefusal)(request.headers['x-tenant-id']);
      if (refusal) throw refusal;
      const body = bodyOf(request.body);
      const { organizationId } = principalOf(request);
      const data = {
        id: randomUUID(),
        type: kind,
        organizationId,
        status: 'queued',
        parameters: body,
        createdAt: new Date().toISOString(),
      };
      state.collection<OrgItem>(`${kind}Audits`).set(data.id, { tenantId: organizationId, data });
      return ok(reply, data, 202);
    });
  }

  const collections: { path: string; limit?: { field: string[]; max: number } }[] = [
    { path: 'turn-flags' },
    { path: 'transcriber-banks', limit: { field: ['candidates'], max: 8 } },
    { path: 'full-call-runs', limit: { field: ['calls', 'callIds'], max: 10 } },
  ];
  for (const { path, limit } of collections) {
    const store = () => state.collection<OrgItem>(path);
    app.get(`/${path}`, ORG, async (request, reply) => {
      const { organizationId } = principalOf(request);
      const items = [...store().values()].filter((i) => i.tenantId === organizationId).map((i) => i.data);
      return ok(reply, items);
    });
    app.post(`/${path}`, ORG, async (request, reply) => {
      const body = bodyOf(request.body);
      const c = new Checker();
      for (const f of limit?.field ?? []) {
        const v = body[f];
        if (v === undefined) continue;
        c.check(f, Array.isArray(v) && v.length <= limit!.max, `must be an array of at most ${limit!.max} items`);
      }
      c.throwIfAny();
      const { organizationId } = principalOf(request);
      const data = { ...body, id: randomUUID(), organizationId, createdAt: new Date().toISOString() };
      store().set(data.id, { tenantId: organizationId, data });
      return ok(reply, data, 201);
    });
    app.get<{ Params: { id: string } }>(`/${path}/:id`, ORG, async (request, reply) => {
      const { organizationId } = principalOf(request);
      return ok(reply, findOwned(state, store(), organizationId, request.params.id, path).data);
    });
  }
};
