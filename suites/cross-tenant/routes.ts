/**
 * The tenant-scoped routes with an id that §4 names, as data (suites/cross-tenant/indistinguishable.ts
 * runs one comparison per row, pair and asker): what the never-existed answer must be (§7, §5.7,
 * §4.1, §4.4, §4.5), and which case of tenant B (or deleted, §7 exception 2) is compared with it.
 */
import { randomUUID } from 'node:crypto';
import type { BodyComparison } from '../../helpers/checks/indistinguishable';
import type { Capability } from '../../helpers/target/target';
import { ACTOR, fictionalNumber, stepSuffix, toolBody, type Fixtures } from './fixture';

/** One request of a comparison, or the reason it cannot be formed on this target. */
export type Req = { method: string; path: string; body?: unknown; query?: Record<string, string>; subject?: string } | { skip: string };

/** What the spec states the never-existed answer is. */
export type Stated =
  /** 404 RESOURCE_NOT_FOUND in the envelope (§7, §5.7, §4.1, §4.4). */
  | 'RESOURCE_NOT_FOUND'
  /** 404 with the bare body { "error": "not_found" } (§7 exception 2). */
  | 'bare-not-found'
  /** 404; the code is not stated for this route. */
  | 'status-404'
  /** 2xx with the id reported as `call_not_found` (§4.5 batch insights). */
  | 'batch-call-not-found';

/** A comparison of a never-existed answer (`baseline`) with another case (`probe`). */
export interface Pair {
  /** What the probe asks about, in reports: `other-tenant`, `deleted`, `other-tenant tool in own assistant`. */
  name: string;
  baseline: () => Req;
  probe: () => Req;
  /** Capabilities the probe needs (it could end, take over or text if isolation were broken). */
  requires?: Capability[];
  /** Clause ids of the comparison, when not the row's. */
  clauses?: string[];
}

/** One tenant-scoped route with an id, and what its never-existed answer must be. */
export interface IsolationRow {
  route: string;
  /** The route's own isolation clause. */
  clause: string;
  body: BodyComparison;
  stated: Stated;
  /** False where §4.5 does not show the request body: a 400 before the lookup is then a reading we accept. */
  bodyShown: boolean;
  pairs: Pair[];
}

const U = () => randomUUID();
const SMS_TO = '+12025550143';

/** Pair for a route with one id: never-existed id against tenant B's id. */
function otherTenant(
  build: (id: string) => Omit<Exclude<Req, { skip: string }>, 'subject'>,
  foreign: () => string | { skip: string },
  extra: Partial<Pair> = {},
): Pair {
  return {
    name: 'other-tenant',
    baseline: () => {
      const id = U();
      return { ...build(id), subject: id };
    },
    probe: () => {
      const f = foreign();
      return typeof f === 'string' ? { ...build(f), subject: f } : f;
    },
    ...extra,
  };
}

/**
 * Every tenant-scoped route with an id that the spec names (§4.1, §4.2, §4.4, §4.5), its cases
 * reading tenant B's resources from `fx` when a test runs.
 */
export function isolationRoutes(fx: Fixtures): IsolationRow[] {
  const need = (v: string | undefined, key: keyof Fixtures): string | { skip: string } => v ?? { skip: fx.why[key] ?? `fixture ${key} missing` };
  const toolOverride = (suffix: string, method: string, body?: unknown): IsolationRow['pairs'] => [
    {
      name: 'other-tenant',
      baseline: () => ({ method, path: `/assistants/${U()}/tools/${U()}${suffix}`, body }),
      probe: () => (fx.toolB ? { method, path: `/assistants/${fx.assistantB.id}/tools/${fx.toolB}${suffix}`, body } : { skip: fx.why.toolB }),
    },
    {
      name: 'other-tenant tool in own assistant',
      baseline: () => ({ method, path: `/assistants/${fx.assistantA.id}/tools/${U()}${suffix}`, body }),
      probe: () => (fx.toolB ? { method, path: `/assistants/${fx.assistantA.id}/tools/${fx.toolB}${suffix}`, body } : { skip: fx.why.toolB }),
    },
  ];

  return [
    {
      route: 'GET /assistants/{id}',
      clause: '5.7/isolation-assistant-read',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'GET', path: `/assistants/${id}` }),
          () => fx.assistantB.id,
        ),
      ],
    },
    {
      route: 'PATCH /assistants/{id}',
      clause: '5.7/isolation-assistant-update',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'PATCH', path: `/assistants/${id}`, body: { recordingEnabled: false } }),
          () => fx.assistantB.id,
        ),
      ],
    },
    {
      route: 'GET /assistants/{id}/tasks/overrides',
      clause: '5.7/isolation-task-overrides',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'GET', path: `/assistants/${id}/tasks/overrides` }),
          () => fx.assistantB.id,
        ),
      ],
    },
    {
      route: 'PATCH /assistants/{id}/chatapp-enabled',
      clause: '5.7/isolation-chatapp-enabled',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: false,
      pairs: [
        otherTenant(
          (id) => ({ method: 'PATCH', path: `/assistants/${id}/chatapp-enabled`, body: { enabled: false } }),
          () => fx.assistantB.id,
        ),
      ],
    },
    {
      route: 'PUT /tools/{id}',
      clause: '5.7/isolation-tool-update',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: false,
      pairs: [
        otherTenant(
          (id) => ({ method: 'PUT', path: `/tools/${id}`, body: toolBody('conformance isolation probe') }),
          () => need(fx.toolB, 'toolB'),
        ),
      ],
    },
    {
      route: 'PUT /tools/{id}/instruction',
      clause: '5.7/isolation-tool-instruction',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: false,
      pairs: [
        otherTenant(
          (id) => ({ method: 'PUT', path: `/tools/${id}/instruction`, body: { instruction: toolBody('probe').instruction } }),
          () => need(fx.toolB, 'toolB'),
        ),
      ],
    },
    {
      route: 'PUT /assistants/{id}/tools/{toolId}/steps/{stepId}/text-override',
      clause: '5.7/isolation-step-text-override',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: false,
      pairs: toolOverride(stepSuffix(), 'PUT', { text: 'conformance isolation probe' }),
    },
    {
      route: 'DELETE /assistants/{id}/tools/{toolId}/steps/{stepId}/text-override',
      clause: '5.7/isolation-step-text-override',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: toolOverride(stepSuffix(), 'DELETE'),
    },
    {
      route: 'PUT /assistants/{id}/tools/{toolId}/text-description-override',
      clause: '5.7/isolation-text-description-override',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: false,
      pairs: toolOverride('/text-description-override', 'PUT', { description: 'conformance isolation probe' }),
    },
    {
      route: 'GET /assistants/{id}/tools/{toolId}/text-override',
      clause: '5.7/isolation-text-override',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: toolOverride('/text-override', 'GET'),
    },
    {
      route: 'DELETE /assistants/{id}/tools/{toolId}/text-override',
      clause: '5.7/isolation-text-override',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: toolOverride('/text-override', 'DELETE'),
    },
    {
      route: 'PUT /assistants/{id}/tools/{toolId}/description-override',
      clause: '5.7/isolation-description-override',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: false,
      pairs: toolOverride('/description-override', 'PUT', { description: 'conformance isolation probe' }),
    },
    {
      route: 'GET /calls/{id}',
      clause: '5.7/isolation-call-read',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'GET', path: `/calls/${id}` }),
          () => fx.callBDone?.id ?? { skip: fx.why.callBDone },
          { name: 'other-tenant finished call' },
        ),
        otherTenant(
          (id) => ({ method: 'GET', path: `/calls/${id}` }),
          () => fx.callBLive?.id ?? { skip: fx.why.callBLive },
          { name: 'other-tenant live call' },
        ),
      ],
    },
    {
      route: 'GET /calls/{id}/insights',
      clause: '5.7/isolation-call-insights',
      body: 'envelope',
      stated: 'status-404',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'GET', path: `/calls/${id}/insights` }),
          () => fx.callBDone?.id ?? { skip: fx.why.callBDone },
          { name: 'other-tenant call with insights' },
        ),
        otherTenant(
          (id) => ({ method: 'GET', path: `/calls/${id}/insights` }),
          () => fx.callBLive?.id ?? { skip: fx.why.callBLive },
          { name: 'other-tenant live call' },
        ),
      ],
    },
    {
      route: 'GET /calls/{id}/monitor-sessions',
      clause: '5.7/isolation-monitor-sessions-read',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'GET', path: `/calls/${id}/monitor-sessions` }),
          () => fx.callBDone?.id ?? { skip: fx.why.callBDone },
          { name: 'other-tenant finished call' },
        ),
        otherTenant(
          (id) => ({ method: 'GET', path: `/calls/${id}/monitor-sessions` }),
          () => fx.callBLive?.id ?? { skip: fx.why.callBLive },
          { name: 'other-tenant live call' },
        ),
      ],
    },
    {
      route: 'POST /calls/{id}/monitor-session',
      clause: '7/bare-404-monitor-session',
      body: 'bytes',
      stated: 'bare-not-found',
      bodyShown: false,
      pairs: [
        otherTenant(
          (id) => ({ method: 'POST', path: `/calls/${id}/monitor-session`, body: ACTOR }),
          () => fx.callBLive?.id ?? { skip: fx.why.callBLive },
          { name: 'other-tenant live call' },
        ),
        {
          name: 'deleted call',
          clauses: ['7/bare-404-deleted-call', '7/bare-404-monitor-session'],
          baseline: () => ({ method: 'POST', path: `/calls/${U()}/monitor-session`, body: ACTOR }),
          probe: () => (fx.callADeleted ? { method: 'POST', path: `/calls/${fx.callADeleted}/monitor-session`, body: ACTOR } : { skip: fx.why.callADeleted }),
        },
      ],
    },
    {
      route: 'DELETE /calls/{id}/monitor-session',
      clause: '5.7/isolation-monitor-session-close',
      body: 'envelope',
      stated: 'status-404',
      bodyShown: false,
      pairs: [
        otherTenant(
          (id) => ({ method: 'DELETE', path: `/calls/${id}/monitor-session` }),
          () => fx.callBLive?.id ?? { skip: fx.why.callBLive },
          { name: 'other-tenant live call' },
        ),
      ],
    },
    {
      route: 'POST /calls/{id}/takeover',
      clause: '7/bare-404-takeover',
      body: 'bytes',
      stated: 'bare-not-found',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'POST', path: `/calls/${id}/takeover`, body: ACTOR }),
          () => fx.callBLive?.id ?? { skip: fx.why.callBLive },
          { name: 'other-tenant live call' },
        ),
        {
          name: 'deleted call',
          clauses: ['7/bare-404-deleted-call', '7/bare-404-takeover'],
          baseline: () => ({ method: 'POST', path: `/calls/${U()}/takeover`, body: ACTOR }),
          probe: () => (fx.callADeleted ? { method: 'POST', path: `/calls/${fx.callADeleted}/takeover`, body: ACTOR } : { skip: fx.why.callADeleted }),
        },
      ],
    },
    {
      route: 'POST /calls/{id}/end',
      clause: '7/bare-404-end',
      body: 'bytes',
      stated: 'bare-not-found',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'POST', path: `/calls/${id}/end`, body: ACTOR }),
          // A finished call the suite started and ended itself: one it did not start is never sent an end.
          () => fx.callBEnded?.id ?? { skip: fx.why.callBEnded },
          { name: 'other-tenant finished call' },
        ),
        otherTenant(
          (id) => ({ method: 'POST', path: `/calls/${id}/end`, body: ACTOR }),
          () => fx.callBLive?.id ?? { skip: fx.why.callBLive },
          { name: 'other-tenant live call' },
        ),
        {
          name: 'deleted call',
          clauses: ['7/bare-404-deleted-call', '7/bare-404-end'],
          baseline: () => ({ method: 'POST', path: `/calls/${U()}/end`, body: ACTOR }),
          probe: () => (fx.callADeleted ? { method: 'POST', path: `/calls/${fx.callADeleted}/end`, body: ACTOR } : { skip: fx.why.callADeleted }),
        },
      ],
    },
    {
      route: 'GET /calls/insights?ids=',
      clause: '4.5/insights-batch-foreign-as-unknown',
      body: 'envelope',
      stated: 'batch-call-not-found',
      bodyShown: true,
      pairs: [
        otherTenant(
          (id) => ({ method: 'GET', path: '/calls/insights', query: { ids: id } }),
          () => fx.callBDone?.id ?? { skip: fx.why.callBDone },
          { name: 'other-tenant call with insights' },
        ),
      ],
    },
    {
      route: 'POST /sms (fromNumber)',
      clause: '4.4/sms-from-number-indistinguishable',
      body: 'envelope',
      stated: 'RESOURCE_NOT_FOUND',
      bodyShown: true,
      pairs: [
        {
          name: 'other-tenant number',
          requires: ['sms'],
          baseline: () => ({ method: 'POST', path: '/sms', body: { fromNumber: fictionalNumber(), toNumber: SMS_TO, message: 'conformance isolation check' } }),
          probe: () =>
            fx.numberB
              ? { method: 'POST', path: '/sms', body: { fromNumber: fx.numberB, toNumber: SMS_TO, message: 'conformance isolation check' } }
              : { skip: fx.why.numberB },
          clauses: ['4.4/sms-from-number-indistinguishable', '5.7/foreign-indistinguishable'],
        },
        {
          name: 'deleted number',
          baseline: () => ({ method: 'POST', path: '/sms', body: { fromNumber: fictionalNumber(), toNumber: SMS_TO, message: 'conformance isolation check' } }),
          probe: () =>
            fx.numberADeleted
              ? { method: 'POST', path: '/sms', body: { fromNumber: fx.numberADeleted, toNumber: SMS_TO, message: 'conformance isolation check' } }
              : { skip: fx.why.numberADeleted },
          clauses: ['4.4/sms-from-number-indistinguishable'],
        },
      ],
    },
  ];
}
