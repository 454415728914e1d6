/**
 * The authorization matrix as data (§4 × §5): one row per route path §4.1–§4.5 gives, crossed
 * with the credentials of §5.2/§5.6, and the outcome §5 and §4.5 give for each cell. Read by
 * suites/authorization.test.ts, which checks every cell and writes the matrix as a table to
 * `reports/authorization-matrix.md`.
 *
 * Requests use ids that never existed, so an accepted cell answers 404 RESOURCE_NOT_FOUND (or the
 * bare `{ "error": "not_found" }` of §7 exception 2): authentication passed, nothing was touched.
 */
import { randomUUID } from 'node:crypto';
import type { Capability } from '../helpers/target/target';
import type { PrincipalName } from '../helpers/world/world';

/**
 * Who may call a route (§4.5, §5.3):
 * - `tenant`: tenant-scoped (every route not named in §5.3);
 * - `org-only`: organization-only; tenant keys get 403 ORG_SCOPE_REQUIRED (§4.5 transcriber testing, GET /organization/tenants);
 * - `org-audit`: organization-level audits: accept an organization key without X-Tenant-Id; tenant keys not addressed;
 * - `catalogue`: transcriber catalogue reads: accept an organization key without X-Tenant-Id; tenant keys not addressed.
 */
export type RouteScope = 'tenant' | 'org-only' | 'org-audit' | 'catalogue';

/** One route of §4, and how the matrix calls it. */
export interface MatrixRoute {
  /** The route as the spec writes it, e.g. `PATCH /assistants/{id}`. */
  route: string;
  /** Spec section that names it. */
  section: string;
  scope: RouteScope;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Request path with never-existed ids (a fresh UUID per call). */
  path: () => string;
  query?: () => Record<string, string>;
  body?: unknown;
  /** False where §4.5 names the path but not the method (the matrix then probes with GET). */
  methodShown: boolean;
  /** False where the request body is not shown: a 400 may then come from the body and still mean "accepted". */
  bodyShown: boolean;
  /** Capabilities an accepted call needs (it would create, bill or text); the whole row is skipped without them. */
  requires?: Capability[];
  /** Why the row needs them. */
  requiresWhy?: string;
}

const U = () => randomUUID();
/** A number in the fictional 555-01xx range: never owned, so POST /sms with it can send nothing. */
const NO_NUMBER = '+12025550199';
const CREATES = 'an accepted call creates a resource that §4 gives no way to delete';

/** Every route path of §4.1–§4.5. */
export const MATRIX_ROUTES: MatrixRoute[] = [
  {
    route: 'PATCH /assistants/{id}',
    section: '4.1',
    scope: 'tenant',
    method: 'PATCH',
    path: () => `/assistants/${U()}`,
    body: { recordingEnabled: false },
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'GET /assistants/{id}/tasks/overrides',
    section: '4.2',
    scope: 'tenant',
    method: 'GET',
    path: () => `/assistants/${U()}/tasks/overrides`,
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'POST /sms-reasons',
    section: '4.3',
    scope: 'tenant',
    method: 'POST',
    path: () => '/sms-reasons',
    body: {},
    methodShown: true,
    bodyShown: true,
    requires: ['control'],
    requiresWhy: CREATES,
  },
  {
    route: 'POST /sms',
    section: '4.4',
    scope: 'tenant',
    method: 'POST',
    path: () => '/sms',
    body: { fromNumber: NO_NUMBER, toNumber: '+12025550143', message: 'conformance authorization check' },
    methodShown: true,
    bodyShown: true,
  },
  { route: 'GET /assistants', section: '4.5', scope: 'tenant', method: 'GET', path: () => '/assistants', methodShown: true, bodyShown: true },
  { route: 'GET /assistants/{id}', section: '4.5', scope: 'tenant', method: 'GET', path: () => `/assistants/${U()}`, methodShown: true, bodyShown: true },
  {
    route: 'POST /assistants',
    section: '4.5',
    scope: 'tenant',
    method: 'POST',
    path: () => '/assistants',
    body: { name: 'conformance-matrix' },
    methodShown: true,
    bodyShown: false,
    requires: ['control'],
    requiresWhy: CREATES,
  },
  {
    route: 'GET /phone-numbers/available',
    section: '4.5',
    scope: 'tenant',
    method: 'GET',
    path: () => '/phone-numbers/available',
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'POST /phone-numbers',
    section: '4.5',
    scope: 'tenant',
    method: 'POST',
    path: () => '/phone-numbers',
    body: {},
    methodShown: true,
    bodyShown: false,
    requires: ['billable'],
    requiresWhy: 'an accepted call purchases a number',
  },
  { route: 'GET /calls', section: '4.5', scope: 'tenant', method: 'GET', path: () => '/calls', methodShown: true, bodyShown: true },
  { route: 'GET /calls/{id}', section: '4.5', scope: 'tenant', method: 'GET', path: () => `/calls/${U()}`, methodShown: true, bodyShown: true },
  { route: 'GET /conversations', section: '4.5', scope: 'tenant', method: 'GET', path: () => '/conversations', methodShown: true, bodyShown: true },
  { route: 'GET /calls/live', section: '4.5', scope: 'tenant', method: 'GET', path: () => '/calls/live', methodShown: true, bodyShown: true },
  {
    route: 'POST /calls/{id}/monitor-session',
    section: '4.5',
    scope: 'tenant',
    method: 'POST',
    path: () => `/calls/${U()}/monitor-session`,
    body: { actorLabel: 'conformance matrix' },
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'DELETE /calls/{id}/monitor-session',
    section: '4.5',
    scope: 'tenant',
    method: 'DELETE',
    path: () => `/calls/${U()}/monitor-session`,
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'POST /calls/{id}/takeover',
    section: '4.5',
    scope: 'tenant',
    method: 'POST',
    path: () => `/calls/${U()}/takeover`,
    body: { actorLabel: 'conformance matrix' },
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'POST /calls/{id}/end',
    section: '4.5',
    scope: 'tenant',
    method: 'POST',
    path: () => `/calls/${U()}/end`,
    body: { actorLabel: 'conformance matrix' },
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'GET /calls/{id}/monitor-sessions',
    section: '4.5',
    scope: 'tenant',
    method: 'GET',
    path: () => `/calls/${U()}/monitor-sessions`,
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'GET /calls/{id}/insights',
    section: '4.5',
    scope: 'tenant',
    method: 'GET',
    path: () => `/calls/${U()}/insights`,
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'GET /calls/insights?ids=',
    section: '4.5',
    scope: 'tenant',
    method: 'GET',
    path: () => '/calls/insights',
    query: () => ({ ids: U() }),
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'PATCH /assistants/{id}/chatapp-enabled',
    section: '4.5',
    scope: 'tenant',
    method: 'PATCH',
    path: () => `/assistants/${U()}/chatapp-enabled`,
    body: { enabled: false },
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'POST /v1/retention/audits',
    section: '4.5',
    scope: 'org-audit',
    method: 'POST',
    path: () => '/v1/retention/audits',
    body: {},
    methodShown: true,
    bodyShown: false,
    requires: ['orgAudits'],
    requiresWhy: 'an accepted call creates an organization audit',
  },
  {
    route: 'POST /v1/churn/audits',
    section: '4.5',
    scope: 'org-audit',
    method: 'POST',
    path: () => '/v1/churn/audits',
    body: {},
    methodShown: true,
    bodyShown: false,
    requires: ['orgAudits'],
    requiresWhy: 'an accepted call creates an organization audit',
  },
  { route: '/turn-flags', section: '4.5', scope: 'org-only', method: 'GET', path: () => '/turn-flags', methodShown: false, bodyShown: false },
  { route: '/transcriber-banks', section: '4.5', scope: 'org-only', method: 'GET', path: () => '/transcriber-banks', methodShown: false, bodyShown: false },
  { route: '/full-call-runs', section: '4.5', scope: 'org-only', method: 'GET', path: () => '/full-call-runs', methodShown: false, bodyShown: false },
  {
    route: 'GET /organization/tenants',
    section: '4.5',
    scope: 'org-only',
    method: 'GET',
    path: () => '/organization/tenants',
    methodShown: true,
    bodyShown: true,
  },
  { route: 'GET /transcribers', section: '4.5', scope: 'catalogue', method: 'GET', path: () => '/transcribers', methodShown: true, bodyShown: true },
  {
    route: 'GET /transcribers/{id}',
    section: '4.5',
    scope: 'catalogue',
    method: 'GET',
    path: () => `/transcribers/${U()}`,
    methodShown: true,
    bodyShown: true,
  },
  { route: 'GET /models', section: '4.5', scope: 'tenant', method: 'GET', path: () => '/models', methodShown: true, bodyShown: true },
  {
    route: 'POST /prompts',
    section: '4.5',
    scope: 'tenant',
    method: 'POST',
    path: () => '/prompts',
    body: { type: 'chat', name: 'conformance-matrix', content: 'conformance matrix' },
    methodShown: true,
    bodyShown: false,
    requires: ['control'],
    requiresWhy: CREATES,
  },
  {
    route: 'GET /prompts?type=',
    section: '4.5',
    scope: 'tenant',
    method: 'GET',
    path: () => '/prompts',
    query: () => ({ type: 'chat' }),
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'POST /tools',
    section: '4.5',
    scope: 'tenant',
    method: 'POST',
    path: () => '/tools',
    body: { name: 'conformance-matrix', instruction: { title: 'matrix', description: 'matrix', steps: [] } },
    methodShown: true,
    bodyShown: false,
    requires: ['control'],
    requiresWhy: CREATES,
  },
  {
    route: 'PUT /tools/{id}',
    section: '4.5',
    scope: 'tenant',
    method: 'PUT',
    path: () => `/tools/${U()}`,
    body: { instruction: { title: 'matrix', description: 'matrix', steps: [] } },
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'PUT /tools/{id}/instruction',
    section: '4.5',
    scope: 'tenant',
    method: 'PUT',
    path: () => `/tools/${U()}/instruction`,
    body: { instruction: { title: 'matrix', description: 'matrix', steps: [] } },
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'PUT /assistants/{id}/tools/{toolId}/steps/{stepId}/text-override',
    section: '4.5',
    scope: 'tenant',
    method: 'PUT',
    path: () => `/assistants/${U()}/tools/${U()}/steps/${U()}/text-override`,
    body: { text: 'matrix' },
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'DELETE /assistants/{id}/tools/{toolId}/steps/{stepId}/text-override',
    section: '4.5',
    scope: 'tenant',
    method: 'DELETE',
    path: () => `/assistants/${U()}/tools/${U()}/steps/${U()}/text-override`,
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'PUT /assistants/{id}/tools/{toolId}/text-description-override',
    section: '4.5',
    scope: 'tenant',
    method: 'PUT',
    path: () => `/assistants/${U()}/tools/${U()}/text-description-override`,
    body: { description: 'matrix' },
    methodShown: true,
    bodyShown: false,
  },
  {
    route: 'GET /assistants/{id}/tools/{toolId}/text-override',
    section: '4.5',
    scope: 'tenant',
    method: 'GET',
    path: () => `/assistants/${U()}/tools/${U()}/text-override`,
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'DELETE /assistants/{id}/tools/{toolId}/text-override',
    section: '4.5',
    scope: 'tenant',
    method: 'DELETE',
    path: () => `/assistants/${U()}/tools/${U()}/text-override`,
    methodShown: true,
    bodyShown: true,
  },
  {
    route: 'PUT /assistants/{id}/tools/{toolId}/description-override',
    section: '4.5',
    scope: 'tenant',
    method: 'PUT',
    path: () => `/assistants/${U()}/tools/${U()}/description-override`,
    body: { description: '' },
    methodShown: true,
    bodyShown: false,
  },
  { route: '/test-suites', section: '4.5', scope: 'tenant', method: 'GET', path: () => '/test-suites', methodShown: false, bodyShown: false },
  {
    route: 'POST /test-suites/{id}/run',
    section: '4.5',
    scope: 'tenant',
    method: 'POST',
    path: () => `/test-suites/${U()}/run`,
    body: {},
    methodShown: true,
    bodyShown: false,
  },
  { route: '/test-runs', section: '4.5', scope: 'tenant', method: 'GET', path: () => '/test-runs', methodShown: false, bodyShown: false },
];

/**
 * An outcome of §5.6 as the matrix records it. `accepted` means authentication passed: 2xx, or
 * 404 RESOURCE_NOT_FOUND / bare not_found for the never-existed ids, 409 (and a 400 on a
 * route whose body is not shown). A 429 is never an outcome: the client waits it out and resends.
 */
export type Outcome = 'accepted' | '400 VALIDATION_ERROR' | '401 UNAUTHORIZED' | '403 FORBIDDEN' | '403 ORG_SCOPE_REQUIRED';

/** One credential of §5 (a column of the matrix). */
export interface CredentialColumn {
  /** Column heading. */
  name: string;
  principal: PrincipalName;
}

/** The credentials of §5.2 and §5.6, in table order. */
export const MATRIX_COLUMNS: CredentialColumn[] = [
  { name: 'tenant key', principal: 'tenantA' },
  { name: 'org key + X-Tenant-Id', principal: 'orgA' },
  { name: 'org key, no X-Tenant-Id', principal: 'org' },
  { name: 'org key + tenant of another org', principal: 'orgForeign' },
  { name: "tenant key + other tenant's X-Tenant-Id", principal: 'tenantAasB' },
  { name: 'no key', principal: 'anonymous' },
];

/** What a cell must answer: any of `outcomes`, and the clause ids the cell proves. */
export interface Expectation {
  outcomes: Outcome[];
  clauses: string[];
}

const SCOPE_CLAUSE: Record<RouteScope, string> = {
  tenant: '4.5/scope-tenant-routes',
  'org-only': '4.5/scope-org-only-routes',
  'org-audit': '4.5/scope-org-audits',
  catalogue: '4.5/scope-transcriber-catalogue',
};

/**
 * The outcome(s) §5.6 and §4.5 give for a route scope and a credential. Several outcomes where
 * the spec allows more than one reading (recorded as `ambiguity` in spec/clauses/cross-tenant.json).
 */
export function expectedOutcome(scope: RouteScope, principal: PrincipalName): Expectation {
  const scopeClause = SCOPE_CLAUSE[scope];
  const orgLevel = scope !== 'tenant';
  switch (principal) {
    case 'tenantA':
      if (scope === 'tenant') return { outcomes: ['accepted'], clauses: ['5.2/tenant-key-no-tenant-header', scopeClause] };
      if (scope === 'org-only') return { outcomes: ['403 ORG_SCOPE_REQUIRED'], clauses: ['5.6/403-org-scope-required', scopeClause] };
      return { outcomes: ['accepted', '403 ORG_SCOPE_REQUIRED'], clauses: [scopeClause] };
    case 'orgA':
      return { outcomes: ['accepted'], clauses: orgLevel ? [scopeClause] : ['5.2/org-key-with-tenant-header', scopeClause] };
    case 'org':
      return orgLevel
        ? { outcomes: ['accepted'], clauses: ['5.3/org-routes-without-tenant-header', scopeClause] }
        : { outcomes: ['400 VALIDATION_ERROR'], clauses: ['5.6/400-org-key-without-tenant', scopeClause] };
    case 'orgForeign':
      return orgLevel
        ? { outcomes: ['403 FORBIDDEN', 'accepted'], clauses: ['5.6/403-foreign-org-tenant', scopeClause] }
        : { outcomes: ['403 FORBIDDEN'], clauses: ['5.6/403-foreign-org-tenant', scopeClause] };
    case 'tenantAasB':
      return orgLevel
        ? { outcomes: ['403 FORBIDDEN', '403 ORG_SCOPE_REQUIRED'], clauses: ['5.6/403-tenant-key-other-tenant', scopeClause] }
        : { outcomes: ['403 FORBIDDEN'], clauses: ['5.6/403-tenant-key-other-tenant', scopeClause] };
    case 'anonymous':
      return { outcomes: ['401 UNAUTHORIZED'], clauses: ['5.1/missing-header-401', scopeClause] };
    default:
      throw new Error(`no matrix column for principal ${principal}`);
  }
}

/** The principal expected to be accepted on a row: the tenant key on tenant routes, the organization key alone otherwise. */
export function acceptedPrincipal(scope: RouteScope): PrincipalName {
  return scope === 'tenant' ? 'tenantA' : 'org';
}
