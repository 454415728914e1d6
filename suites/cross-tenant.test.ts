/**
 * §5.7 cross-tenant isolation, §4.4 (SMS fromNumber), §7 exceptions 1 and 2 (bare 404 bodies):
 * a resource of tenant B, asked for with tenant A's credentials, is indistinguishable from one that
 * never existed (same status, error.code, error.message, headers and body, compared by
 * helpers/indistinguishable.ts), writes on B's resources answer 404 and change nothing, and lists show only
 * the acting tenant's resources.
 *
 * Tenant B's resources come from B's own API calls (assistants, tools, prompts) or from the control
 * API (calls, conversations, phone numbers). On a live tenant: B's assistant is a found-or-created
 * fixture, B's finished call is CORE_API_OTHER_CALL_ID and B's number CORE_API_OTHER_SMS_FROM_NUMBER;
 * anything that would end, take over, text or litter runs only with the matching capability.
 */
import { beforeAll, describe, vi } from 'vitest';
import { randomInt, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { answerOf, documented, WHOLE } from '../helpers/documented';
import { useWorld, type PrincipalName, type World } from '../helpers/world';
import { clauseTest, skipWith, type Verify } from '../helpers/clause';
import { assistantFixture, promptFixture, toolFixture } from '../helpers/fixtures';
import { compareAnswers, explainDifferences, type BodyComparison } from '../helpers/indistinguishable';
import { hasCapability, capabilityReason, missingFixtureReason, switchReason, type Capability } from '../helpers/target';
import type { ApiClient, ApiResponse } from '../helpers/client';
import { routeNotServed as routeMissing, statusLine } from '../helpers/exchange';

const world = useWorld();

/** Tenant B's (and A's) resources used by this file; a missing one has its reason in `why`. */
interface Fixtures {
  assistantA: { id: string };
  assistantB: { id: string };
  toolB?: string;
  /** The name tenant B's tool carries (the fixture's; its PUTs keep it). */
  toolBName?: string;
  /** A live call of B (simulator only). */
  callBLive?: { id: string; callId?: string };
  /** A finished call of B whose insights have landed (simulator) or CORE_API_OTHER_CALL_ID (live). */
  callBDone?: { id: string; callId?: string };
  /** A call of A that was deleted (simulator whose control API can delete calls). */
  callADeleted?: string;
  /** An SMS-capable number of B (E.164). */
  numberB?: string;
  /** A number of A that was deleted (E.164; simulator only). */
  numberADeleted?: string;
  conversationB?: string;
  promptB?: string;
  /** Why a fixture is absent, keyed by field name. */
  why: Record<string, string>;
}
let fx: Fixtures;

/** A never-existed E.164 number: the fictional 555-01xx range (NANP reserves it for fiction), random area code. */
function fictionalNumber(): string {
  return `+1${randomInt(201, 990)}55501${String(randomInt(0, 100)).padStart(2, '0')}`;
}

/** Body of POST /tools and PUT /tools/{id}: §4.5 names `instruction` with title, description, steps; the rest is not shown. */
function toolBody(name: string) {
  return { name, instruction: { title: name, description: 'conformance isolation fixture', steps: [] } };
}


/** A fixture value, or why it could not be made on this target. */
type Made<T> = { value: T } | { why: string };

async function fixture<K extends Exclude<keyof Fixtures, 'why'>>(key: K, make: () => Promise<Made<Fixtures[K]>>): Promise<void> {
  try {
    const m = await make();
    if ('why' in m) fx.why[key] = m.why;
    else fx[key] = m.value;
  } catch (e) {
    fx.why[key] = `precondition failed: fixture ${key} could not be made (${(e as Error).message.slice(0, 200)})`;
  }
}


async function makeFixtures(w: World): Promise<void> {
  const A = w.as('tenantA');
  const B = w.as('tenantB');
  fx = {
    assistantA: await assistantFixture(w, A, 'xtenant-a'),
    assistantB: await assistantFixture(w, B, 'xtenant-b'),
    why: {},
  };
  const control = w.control;
  const noControl = (what: string) => ({ why: switchReason('control', `not applicable to this target: ${what}`) });
  // No DELETE is shown for tools or prompts: on a live tenant they are fixtures found or made once
  // (helpers/fixtures.ts); B's tool is PUT back and its overrides on B's assistant cleared at the end.
  await fixture('toolB', async () => {
    const made = await toolFixture(w, B, 'xtenant-b-tool', { instruction: toolBody('xtenant-b-tool').instruction, textInstructions: null }, () => [fx.assistantB.id]);
    fx.toolBName = made.body.name;
    return { value: made.id };
  });
  await fixture('promptB', async () => {
    const made = await promptFixture(w, B, 'xtenant-b-prompt', 'chat', 'conformance isolation fixture');
    return { value: made.id as string };
  });
  await fixture('callBLive', async () => {
    if (!control) return noControl("a live call of tenant B needs the control API");
    return { value: await control.startCall({ tenantId: w.tenantB.id, assistantId: fx.assistantB.id, customerNumber: fictionalNumber() }) };
  });
  await fixture('callBDone', async () => {
    if (!control) {
      const id = w.target.live?.otherCallId;
      return id ? { value: { id } } : { why: missingFixtureReason('otherCallId') };
    }
    const call = await control.startCall({ tenantId: w.tenantB.id, assistantId: fx.assistantB.id, customerNumber: fictionalNumber() });
    await control.endCall(call.id, { supervisorAnswered: false });
    // Insights land after the call ends (§4.5); wait for them with a deadline so the foreign call is
    // as "existing" as it can be. A target without the route simply answers NOT_FOUND.
    await vi
      .waitFor(async () => {
        const res = await B.get(`/calls/${call.id}/insights`);
        if (res.status === 404 && res.json?.error?.code !== 'NOT_FOUND') throw new Error('insights not landed yet');
      }, { timeout: 5_000, interval: 100 })
      .catch(() => undefined);
    return { value: call };
  });
  await fixture('callADeleted', async () => {
    if (!control) return noControl('deleting a call needs a control API');
    const call = await control.startCall({ tenantId: w.tenantA.id, assistantId: fx.assistantA.id, customerNumber: fictionalNumber() });
    // Not in control-api.md: neither §4 nor the contract can delete a call. A simulator that offers
    // DELETE /__control/calls/{id} lets §7 exception 2's "deleted" case run; elsewhere it is skipped.
    try {
      await control.send('DELETE', `/calls/${call.id}`);
    } catch (e) {
      await control.endCall(call.id).catch(() => undefined);
      return { why: `not testable on this target: its control API cannot delete a call (DELETE /__control/calls/{id} is not in the control contract: ${(e as Error).message.slice(0, 120)})` };
    }
    return { value: call.id };
  });
  await fixture('numberB', async () => {
    if (!control) {
      const n = w.target.live?.otherSmsFromNumber;
      return n ? { value: n } : { why: missingFixtureReason('otherSmsFromNumber') };
    }
    const n = await control.phoneNumber({ tenantId: w.tenantB.id, number: fictionalNumber(), smsEnabled: true });
    return { value: n.number };
  });
  await fixture('numberADeleted', async () => {
    if (!control) return noControl('deleting a number needs the control API (a live number is released, and billed, only by its owner)');
    const n = await control.phoneNumber({ tenantId: w.tenantA.id, number: fictionalNumber(), smsEnabled: true });
    await control.deletePhoneNumber(n.id);
    return { value: n.number };
  });
  await fixture('conversationB', async () => {
    if (!control) return noControl('a conversation of tenant B needs the control API');
    const c = await control.conversation({ tenantId: w.tenantB.id, assistantId: fx.assistantB.id, channel: 'web', customerIdentifier: `${w.runPrefix}visitor` });
    return { value: c.id };
  });
}

beforeAll(async () => {
  await makeFixtures(world());
}, 60_000);

// ---------------------------------------------------------------------------------------------
// 1. Indistinguishability: one row per route, as data.
// ---------------------------------------------------------------------------------------------

/** One request of a comparison, or the reason it cannot be formed on this target. */
type Req = { method: string; path: string; body?: unknown; query?: Record<string, string>; subject?: string } | { skip: string };

/** What the spec states the never-existed answer is. */
type Stated =
  /** 404 RESOURCE_NOT_FOUND in the envelope (§7, §5.7, §4.1, §4.4). */
  | 'RESOURCE_NOT_FOUND'
  /** 404 with the bare body { "error": "not_found" } (§7 exception 2). */
  | 'bare-not-found'
  /** 404; the code is not stated for this route. */
  | 'status-404'
  /** 2xx with the id reported as `call_not_found` (§4.5 batch insights). */
  | 'batch-call-not-found';

/** A comparison of a never-existed answer (`baseline`) with another case (`probe`). */
interface Pair {
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
interface IsolationRow {
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
const ACTOR = { actorLabel: 'conformance isolation check' };
const SMS_TO = '+12025550143';
const need = (v: string | undefined, key: keyof Fixtures): string | { skip: string } => v ?? { skip: fx.why[key] ?? `fixture ${key} missing` };

/** Pair for a route with one id: never-existed id against tenant B's id. */
function otherTenant(build: (id: string) => Omit<Exclude<Req, { skip: string }>, 'subject'>, foreign: () => string | { skip: string }, extra: Partial<Pair> = {}): Pair {
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

const toolOverride = (suffix: string, method: string, body?: unknown): IsolationRow['pairs'] => [
  {
    name: 'other-tenant',
    baseline: () => ({ method, path: `/assistants/${U()}/tools/${U()}${suffix}`, body }),
    probe: () => (fx.toolB ? { method, path: `/assistants/${fx.assistantB.id}/tools/${fx.toolB}${suffix}`, body } : { skip: fx.why.toolB }),
  },
  {
    name: "other-tenant tool in own assistant",
    baseline: () => ({ method, path: `/assistants/${fx.assistantA.id}/tools/${U()}${suffix}`, body }),
    probe: () => (fx.toolB ? { method, path: `/assistants/${fx.assistantA.id}/tools/${fx.toolB}${suffix}`, body } : { skip: fx.why.toolB }),
  },
];

const stepSuffix = () => `/steps/${STEP}/text-override`;
const STEP = randomUUID();

/** Every tenant-scoped route with an id that the spec names (§4.1, §4.2, §4.4, §4.5). */
export const ISOLATION_ROUTES: IsolationRow[] = [
  {
    route: 'GET /assistants/{id}', clause: '5.7/isolation-assistant-read', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: [otherTenant((id) => ({ method: 'GET', path: `/assistants/${id}` }), () => fx.assistantB.id)],
  },
  {
    route: 'PATCH /assistants/{id}', clause: '5.7/isolation-assistant-update', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: [otherTenant((id) => ({ method: 'PATCH', path: `/assistants/${id}`, body: { recordingEnabled: false } }), () => fx.assistantB.id)],
  },
  {
    route: 'GET /assistants/{id}/tasks/overrides', clause: '5.7/isolation-task-overrides', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: [otherTenant((id) => ({ method: 'GET', path: `/assistants/${id}/tasks/overrides` }), () => fx.assistantB.id)],
  },
  {
    route: 'PATCH /assistants/{id}/chatapp-enabled', clause: '5.7/isolation-chatapp-enabled', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: false,
    pairs: [otherTenant((id) => ({ method: 'PATCH', path: `/assistants/${id}/chatapp-enabled`, body: { enabled: false } }), () => fx.assistantB.id)],
  },
  {
    route: 'PUT /tools/{id}', clause: '5.7/isolation-tool-update', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: false,
    pairs: [otherTenant((id) => ({ method: 'PUT', path: `/tools/${id}`, body: toolBody('conformance isolation probe') }), () => need(fx.toolB, 'toolB'))],
  },
  {
    route: 'PUT /tools/{id}/instruction', clause: '5.7/isolation-tool-instruction', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: false,
    pairs: [otherTenant((id) => ({ method: 'PUT', path: `/tools/${id}/instruction`, body: { instruction: toolBody('probe').instruction } }), () => need(fx.toolB, 'toolB'))],
  },
  {
    route: 'PUT /assistants/{id}/tools/{toolId}/steps/{stepId}/text-override', clause: '5.7/isolation-step-text-override', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: false,
    pairs: toolOverride(stepSuffix(), 'PUT', { text: 'conformance isolation probe' }),
  },
  {
    route: 'DELETE /assistants/{id}/tools/{toolId}/steps/{stepId}/text-override', clause: '5.7/isolation-step-text-override', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: toolOverride(stepSuffix(), 'DELETE'),
  },
  {
    route: 'PUT /assistants/{id}/tools/{toolId}/text-description-override', clause: '5.7/isolation-text-description-override', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: false,
    pairs: toolOverride('/text-description-override', 'PUT', { description: 'conformance isolation probe' }),
  },
  {
    route: 'GET /assistants/{id}/tools/{toolId}/text-override', clause: '5.7/isolation-text-override', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: toolOverride('/text-override', 'GET'),
  },
  {
    route: 'DELETE /assistants/{id}/tools/{toolId}/text-override', clause: '5.7/isolation-text-override', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: toolOverride('/text-override', 'DELETE'),
  },
  {
    route: 'PUT /assistants/{id}/tools/{toolId}/description-override', clause: '5.7/isolation-description-override', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: false,
    pairs: toolOverride('/description-override', 'PUT', { description: 'conformance isolation probe' }),
  },
  {
    route: 'GET /calls/{id}', clause: '5.7/isolation-call-read', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: [
      otherTenant((id) => ({ method: 'GET', path: `/calls/${id}` }), () => fx.callBDone?.id ?? { skip: fx.why.callBDone }, { name: 'other-tenant finished call' }),
      otherTenant((id) => ({ method: 'GET', path: `/calls/${id}` }), () => fx.callBLive?.id ?? { skip: fx.why.callBLive }, { name: 'other-tenant live call' }),
    ],
  },
  {
    route: 'GET /calls/{id}/insights', clause: '5.7/isolation-call-insights', body: 'envelope', stated: 'status-404', bodyShown: true,
    pairs: [
      otherTenant((id) => ({ method: 'GET', path: `/calls/${id}/insights` }), () => fx.callBDone?.id ?? { skip: fx.why.callBDone }, { name: 'other-tenant call with insights' }),
      otherTenant((id) => ({ method: 'GET', path: `/calls/${id}/insights` }), () => fx.callBLive?.id ?? { skip: fx.why.callBLive }, { name: 'other-tenant live call' }),
    ],
  },
  {
    route: 'GET /calls/{id}/monitor-sessions', clause: '5.7/isolation-monitor-sessions-read', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: [
      otherTenant((id) => ({ method: 'GET', path: `/calls/${id}/monitor-sessions` }), () => fx.callBDone?.id ?? { skip: fx.why.callBDone }, { name: 'other-tenant finished call' }),
      otherTenant((id) => ({ method: 'GET', path: `/calls/${id}/monitor-sessions` }), () => fx.callBLive?.id ?? { skip: fx.why.callBLive }, { name: 'other-tenant live call' }),
    ],
  },
  {
    route: 'POST /calls/{id}/monitor-session', clause: '7/bare-404-monitor-session', body: 'bytes', stated: 'bare-not-found', bodyShown: false,
    pairs: [
      otherTenant((id) => ({ method: 'POST', path: `/calls/${id}/monitor-session`, body: ACTOR }), () => fx.callBLive?.id ?? { skip: fx.why.callBLive }, { name: 'other-tenant live call', requires: ['destructive'] }),
      { name: 'deleted call', clauses: ['7/bare-404-deleted-call', '7/bare-404-monitor-session'], baseline: () => ({ method: 'POST', path: `/calls/${U()}/monitor-session`, body: ACTOR }), probe: () => (fx.callADeleted ? { method: 'POST', path: `/calls/${fx.callADeleted}/monitor-session`, body: ACTOR } : { skip: fx.why.callADeleted }) },
    ],
  },
  {
    route: 'DELETE /calls/{id}/monitor-session', clause: '5.7/isolation-monitor-session-close', body: 'envelope', stated: 'status-404', bodyShown: false,
    pairs: [otherTenant((id) => ({ method: 'DELETE', path: `/calls/${id}/monitor-session` }), () => fx.callBLive?.id ?? { skip: fx.why.callBLive }, { name: 'other-tenant live call', requires: ['destructive'] })],
  },
  {
    route: 'POST /calls/{id}/takeover', clause: '7/bare-404-takeover', body: 'bytes', stated: 'bare-not-found', bodyShown: true,
    pairs: [
      otherTenant((id) => ({ method: 'POST', path: `/calls/${id}/takeover`, body: ACTOR }), () => fx.callBLive?.id ?? { skip: fx.why.callBLive }, { name: 'other-tenant live call', requires: ['destructive'] }),
      { name: 'deleted call', clauses: ['7/bare-404-deleted-call', '7/bare-404-takeover'], baseline: () => ({ method: 'POST', path: `/calls/${U()}/takeover`, body: ACTOR }), probe: () => (fx.callADeleted ? { method: 'POST', path: `/calls/${fx.callADeleted}/takeover`, body: ACTOR } : { skip: fx.why.callADeleted }) },
    ],
  },
  {
    route: 'POST /calls/{id}/end', clause: '7/bare-404-end', body: 'bytes', stated: 'bare-not-found', bodyShown: true,
    pairs: [
      otherTenant((id) => ({ method: 'POST', path: `/calls/${id}/end`, body: ACTOR }), () => fx.callBDone?.id ?? { skip: fx.why.callBDone }, { name: 'other-tenant finished call', requires: ['destructive'] }),
      otherTenant((id) => ({ method: 'POST', path: `/calls/${id}/end`, body: ACTOR }), () => fx.callBLive?.id ?? { skip: fx.why.callBLive }, { name: 'other-tenant live call', requires: ['destructive'] }),
      { name: 'deleted call', clauses: ['7/bare-404-deleted-call', '7/bare-404-end'], baseline: () => ({ method: 'POST', path: `/calls/${U()}/end`, body: ACTOR }), probe: () => (fx.callADeleted ? { method: 'POST', path: `/calls/${fx.callADeleted}/end`, body: ACTOR } : { skip: fx.why.callADeleted }) },
    ],
  },
  {
    route: 'GET /calls/insights?ids=', clause: '4.5/insights-batch-foreign-as-unknown', body: 'envelope', stated: 'batch-call-not-found', bodyShown: true,
    pairs: [otherTenant((id) => ({ method: 'GET', path: '/calls/insights', query: { ids: id } }), () => fx.callBDone?.id ?? { skip: fx.why.callBDone }, { name: 'other-tenant call with insights' })],
  },
  {
    route: 'POST /sms (fromNumber)', clause: '4.4/sms-from-number-indistinguishable', body: 'envelope', stated: 'RESOURCE_NOT_FOUND', bodyShown: true,
    pairs: [
      {
        name: 'other-tenant number',
        requires: ['sms'],
        baseline: () => ({ method: 'POST', path: '/sms', body: { fromNumber: fictionalNumber(), toNumber: SMS_TO, message: 'conformance isolation check' } }),
        probe: () => (fx.numberB ? { method: 'POST', path: '/sms', body: { fromNumber: fx.numberB, toNumber: SMS_TO, message: 'conformance isolation check' } } : { skip: fx.why.numberB }),
        clauses: ['4.4/sms-from-number-indistinguishable', '5.7/foreign-indistinguishable'],
      },
      {
        name: 'deleted number',
        baseline: () => ({ method: 'POST', path: '/sms', body: { fromNumber: fictionalNumber(), toNumber: SMS_TO, message: 'conformance isolation check' } }),
        probe: () => (fx.numberADeleted ? { method: 'POST', path: '/sms', body: { fromNumber: fx.numberADeleted, toNumber: SMS_TO, message: 'conformance isolation check' } } : { skip: fx.why.numberADeleted }),
        clauses: ['4.4/sms-from-number-indistinguishable'],
      },
    ],
  },
];

function send(client: ApiClient, req: Exclude<Req, { skip: string }>): Promise<ApiResponse> {
  return client.request(req.method, req.path, { body: req.body, query: req.query });
}

/** The principals that ask on behalf of tenant A: its tenant key, and the organization key naming A. */
const ASKERS: { principal: PrincipalName; words: string }[] = [
  { principal: 'tenantA', words: 'tenant key A' },
  { principal: 'orgA', words: 'organization key with X-Tenant-Id A' },
];

/** Checks the never-existed answer against what the spec states for the route, on the row's clause (through the test's `verify`). */
function checkStated(verify: Verify, row: IsolationRow, res: ApiResponse): void {
  const stated = verify.on(row.clause);
  if (!row.bodyShown && res.status === 400 && res.json?.error?.code === 'VALIDATION_ERROR') {
    stated.inform(`${row.route} validated the request body before looking the id up`, true,
      `the never-existed id answered 400 VALIDATION_ERROR (§4.5 does not show this body); the comparison below still requires the other case to answer the same`);
    return;
  }
  switch (row.stated) {
    case 'RESOURCE_NOT_FOUND':
      verify.on([row.clause, '7/resource-not-found']).error(res, 404, 'RESOURCE_NOT_FOUND', `${row.route} with an id that never existed answers 404 RESOURCE_NOT_FOUND`);
      return;
    case 'status-404':
      stated.error(res, 404, undefined, `${row.route} with an id that never existed answers 404`);
      return;
    case 'bare-not-found':
      stated.that(`${row.route} with an id that never existed answers 404 { "error": "not_found" }`, res.status === 404 && isDeepStrictEqual(res.json, { error: 'not_found' }), {
        expected: '404 {"error":"not_found"}',
        actual: `${res.status} ${res.text.slice(0, 200)}`,
        res,
      });
      return;
    case 'batch-call-not-found':
      stated.that(`${row.route} with one unknown id answers 2xx and reports it as call_not_found`, res.status >= 200 && res.status < 300 && res.text.includes('"call_not_found"'), {
        expected: '2xx naming call_not_found',
        actual: `${res.status} ${res.text.slice(0, 200)}`,
        res,
      });
  }
}

describe('a resource of another tenant is indistinguishable from one that never existed (§5.7)', () => {
  for (const row of ISOLATION_ROUTES) {
    describe(row.route, () => {
      for (const pair of row.pairs) {
        for (const asker of ASKERS) {
          const clauses = pair.clauses ?? [row.clause, '5.7/foreign-indistinguishable'];
          clauseTest(clauses, `${asker.words}: ${pair.name} answers exactly like never-existed`, async (ctx) => {
            for (const cap of pair.requires ?? []) if (!hasCapability(cap)) skipWith(ctx, capabilityReason(cap));
            const first = pair.baseline();
            const probe = pair.probe();
            if ('skip' in first) skipWith(ctx, first.skip);
            if ('skip' in probe) skipWith(ctx, probe.skip);
            const client = world().as(asker.principal);
            const base = await send(client, first);
            if (routeMissing(base)) skipWith(ctx, `precondition failed: ${row.route} is not served by the target (${statusLine(base)})`);
            // Control: two never-existed ids must already answer alike, or a difference proves nothing.
            const second = pair.baseline() as Exclude<Req, { skip: string }>;
            const again = await send(client, second);
            const control = compareAnswers(base, again, { labels: ['never-existed', 'second never-existed'], body: row.body, ids: first.subject && second.subject ? [first.subject, second.subject] : undefined });
            if (!control.same) {
              skipWith(ctx, `precondition failed: two never-existed answers already differ, so a comparison proves nothing:\n${explainDifferences(control)}`);
            }
            checkStated(ctx.verify, row, base);
            const other = await send(client, probe);
            const cmp = compareAnswers(base, other, {
              labels: ['never-existed', pair.name],
              body: row.body,
              ids: first.subject && probe.subject ? [first.subject, probe.subject] : undefined,
            });
            ctx.verify.that(`${row.route}: the ${pair.name} answer equals the never-existed answer (status, error.code, error.message, headers, body)`, cmp.same, {
              expected: `the never-existed answer: ${statusLine(base)}`,
              actual: `${statusLine(other)}, differing in:\n${explainDifferences(cmp)}`,
              res: other,
            });
            if (row.stated === 'RESOURCE_NOT_FOUND' && base.status === 404) {
              ctx.verify.on([...clauses, '5.7/foreign-resource-not-found']).error(other, 404, 'RESOURCE_NOT_FOUND', `${row.route}: the ${pair.name} id answers 404 RESOURCE_NOT_FOUND`);
            }
          });
        }
      }
    });
  }

  clauseTest('7/bare-404-embed', 'the embed-facing endpoints answer the identical bare 404 (not testable)', (ctx) => {
    skipWith(ctx, 'not testable: §7 exception 1 does not name the two embed-facing endpoints');
  });
});

// ---------------------------------------------------------------------------------------------
// 2. No cross-tenant effect: writes on B's resources with A's credentials change nothing.
// ---------------------------------------------------------------------------------------------

/** Reads a resource as tenant B; `undefined` when the read itself is not served. */
async function readAsB(path: string): Promise<ApiResponse> {
  return world().as('tenantB').get(path);
}

/**
 * Checks that tenant B reads the resource as before. For an assistant the documented fields are
 * compared (§2.2 response column; undocumented ones may change on every read, §9.4); other
 * resources, whose answers the spec shows only in part, are compared whole.
 */
function checkUnchanged(verify: Verify, what: string, before: ApiResponse, after: ApiResponse, schema?: 'assistant'): void {
  verify.unchanged(`${what} is unchanged, as tenant B reads it`, before, after, answerOf(schema ? documented(schema) : WHOLE), after);
}

/** Refused means: not 2xx, and not a route-level NOT_FOUND (which proves nothing). */
function checkRefused(verify: Verify, what: string, res: ApiResponse, ctx: any, exact404 = false): void {
  if (routeMissing(res)) skipWith(ctx, `precondition failed: ${what.split(' on ')[0]} is not served by the target (${statusLine(res)})`);
  if (exact404) verify.error(res, 404, 'RESOURCE_NOT_FOUND', `${what} answers 404 RESOURCE_NOT_FOUND`);
  else verify.that(`${what} is refused with 404`, res.status === 404, { expected: '404', actual: statusLine(res), res });
}

/**
 * Gives B's tool textInstructions and B's assistant a text override of it, so a write by another
 * tenant (a DELETE above all) would have something to change. Idempotent (PUT, §8). A target that
 * refuses leaves the read-back comparing whatever is stored.
 */
async function giveBATextOverride(): Promise<void> {
  const B = world().as('tenantB');
  const text = { title: 'B text', description: 'tenant B text instructions', steps: [] };
  await B.put(`/tools/${fx.toolB}`, { ...toolBody(fx.toolBName!), textInstructions: text });
  await B.put(`/assistants/${fx.assistantB.id}/tools/${fx.toolB}/text-description-override`, { description: "tenant B's own text description" });
}

describe("writes on another tenant's resources answer 404 and change nothing (§5.7)", () => {
  const C = ['5.7/no-cross-tenant-write'];
  for (const asker of ASKERS) {
    clauseTest(C, `${asker.words}: PATCH of B's assistant answers 404 RESOURCE_NOT_FOUND and B's assistant is unchanged`, async (ctx) => {
      const before = await readAsB(`/assistants/${fx.assistantB.id}`);
      const res = await world().as(asker.principal).patch(`/assistants/${fx.assistantB.id}`, { name: `${world().runPrefix}must-not-apply`, recordingEnabled: !before.json?.data?.recordingEnabled });
      checkRefused(ctx.verify, "PATCH /assistants/{id} on B's assistant", res, ctx, true);
      checkUnchanged(ctx.verify, "B's assistant", before, await readAsB(`/assistants/${fx.assistantB.id}`), 'assistant');
    });

    clauseTest(C, `${asker.words}: PATCH chatapp-enabled on B's assistant is refused and B's assistant is unchanged`, async (ctx) => {
      const before = await readAsB(`/assistants/${fx.assistantB.id}`);
      const res = await world().as(asker.principal).patch(`/assistants/${fx.assistantB.id}/chatapp-enabled`, { enabled: true });
      checkRefused(ctx.verify, "PATCH /assistants/{id}/chatapp-enabled on B's assistant", res, ctx);
      checkUnchanged(ctx.verify, "B's assistant", before, await readAsB(`/assistants/${fx.assistantB.id}`), 'assistant');
    });

    clauseTest(C, `${asker.words}: PUT of B's tool is refused with 404 and B's tool keeps its textInstructions`, async (ctx) => {
      if (!fx.toolB) skipWith(ctx, fx.why.toolB);
      const marker = { title: `${world().runPrefix}must-not-apply`, description: 'written by another tenant', steps: [] };
      const res = await world().as(asker.principal).put(`/tools/${fx.toolB}`, { ...toolBody(`${world().runPrefix}must-not-apply`), textInstructions: marker });
      checkRefused(ctx.verify, "PUT /tools/{id} on B's tool", res, ctx);
      // §4.5 names no read of a single tool. Read-back through the owner's own PUT instead: "on PUT
      // omitting textInstructions keeps the stored value", so B's PUT without it shows what is stored.
      const own = await world().as('tenantB').put(`/tools/${fx.toolB}`, toolBody(fx.toolBName!));
      if (own.status >= 300 || own.json?.data === undefined) {
        return ctx.verify.inform("read-back of B's tool not possible", true, `tenant B's own PUT /tools/{id} answered ${statusLine(own)} without a tool in data`);
      }
      ctx.verify.that("B's tool does not carry the textInstructions another tenant tried to write", !JSON.stringify(own.json.data).includes(marker.title), {
        expected: `textInstructions without ${JSON.stringify(marker.title)}`,
        actual: JSON.stringify(own.json.data.textInstructions ?? null).slice(0, 300),
        res: own,
      });
    });

    for (const [method, suffix, body] of [
      ['PUT', '/text-description-override', { description: 'must not apply' }],
      ['DELETE', '/text-override', undefined],
      ['PUT', stepSuffix(), { text: 'must not apply' }],
      ['DELETE', stepSuffix(), undefined],
      ['PUT', '/description-override', { description: '' }],
    ] as const) {
      clauseTest(C, `${asker.words}: ${method} /assistants/{id}/tools/{toolId}${suffix.replace(STEP, '{stepId}')} on B's assistant and tool is refused and B's text override is unchanged`, async (ctx) => {
        if (!fx.toolB) skipWith(ctx, fx.why.toolB);
        const overridePath = `/assistants/${fx.assistantB.id}/tools/${fx.toolB}/text-override`;
        await giveBATextOverride();
        const before = await readAsB(overridePath);
        const res = await world().as(asker.principal).request(method, `/assistants/${fx.assistantB.id}/tools/${fx.toolB}${suffix}`, { body });
        checkRefused(ctx.verify, `${method} ${suffix} on B's assistant`, res, ctx);
        if (routeMissing(before)) return ctx.verify.inform('read-back of the text override not possible', true, `GET /assistants/{id}/tools/{toolId}/text-override answered ${statusLine(before)}`);
        checkUnchanged(ctx.verify, "B's text override", before, await readAsB(overridePath));
      });
    }

    clauseTest(C, `${asker.words}: DELETE /calls/{id}/monitor-session on B's live call is refused and B's monitor audit is unchanged`, async (ctx) => {
      if (!fx.callBLive) skipWith(ctx, fx.why.callBLive);
      const audit = `/calls/${fx.callBLive.id}/monitor-sessions`;
      const before = await readAsB(audit);
      const res = await world().as(asker.principal).delete(`/calls/${fx.callBLive.id}/monitor-session`);
      checkRefused(ctx.verify, "DELETE /calls/{id}/monitor-session on B's call", res, ctx);
      checkUnchanged(ctx.verify, "B's monitor-session audit", before, await readAsB(audit));
    }, { requires: ['destructive'] });

    for (const action of ['end', 'takeover'] as const) {
      clauseTest([...C, `7/bare-404-${action}`], `${asker.words}: POST /calls/{id}/${action} on B's live call answers the bare 404 and the call stays live`, async (ctx) => {
        const w = world();
        let call: { id: string };
        try {
          call = await w.control!.startCall({ tenantId: w.tenantB.id, assistantId: fx.assistantB.id, customerNumber: fictionalNumber() });
        } catch (e) {
          skipWith(ctx, `precondition failed: a live call of tenant B could not be made (${(e as Error).message.slice(0, 200)})`);
        }
        w.cleanup.add(`end B's call ${call.id}`, () => w.control!.endCall(call.id).catch(() => undefined));
        const liveBefore = await readAsB('/calls/live');
        const auditBefore = await readAsB(`/calls/${call.id}/monitor-sessions`);
        const res = await w.as(asker.principal).post(`/calls/${call.id}/${action}`, ACTOR);
        if (routeMissing(res)) skipWith(ctx, `precondition failed: POST /calls/{id}/${action} is not served by the target (${statusLine(res)})`);
        ctx.verify.that(`POST /calls/{id}/${action} on B's call answers 404 { "error": "not_found" }`, res.status === 404 && isDeepStrictEqual(res.json, { error: 'not_found' }), {
          expected: '404 {"error":"not_found"}',
          actual: `${res.status} ${res.text.slice(0, 200)}`,
          res,
        });
        if (!routeMissing(liveBefore) && liveBefore.text.includes(call.id)) {
          const liveAfter = await readAsB('/calls/live');
          ctx.verify.on(C).that("B's call is still listed in B's GET /calls/live", liveAfter.text.includes(call.id), { expected: `a row with ${call.id}`, actual: liveAfter.text.slice(0, 300), res: liveAfter });
        }
        if (!routeMissing(auditBefore)) checkUnchanged(ctx.verify.on(C), "B's monitor-session audit", auditBefore, await readAsB(`/calls/${call.id}/monitor-sessions`));
      }, { requires: ['destructive', 'control'] });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// 3. Lists show the acting tenant only.
// ---------------------------------------------------------------------------------------------

/** Lists of §4.5, the B ids each must never show to A, and the capability that makes them. */
const LISTS: { route: string; path: string; query?: Record<string, string>; ids: () => string[] | { skip: string }; ownId?: () => string | undefined }[] = [
  { route: 'GET /assistants', path: '/assistants', ids: () => [fx.assistantB.id], ownId: () => fx.assistantA.id },
  {
    route: 'GET /calls', path: '/calls',
    ids: () => {
      const calls = [fx.callBLive, fx.callBDone].filter((c): c is { id: string; callId?: string } => !!c);
      return calls.length ? calls.flatMap((c) => [c.id, ...(c.callId ? [c.callId] : [])]) : { skip: fx.why.callBDone ?? fx.why.callBLive };
    },
  },
  { route: 'GET /calls/live', path: '/calls/live', ids: () => (fx.callBLive ? [fx.callBLive.id, ...(fx.callBLive.callId ? [fx.callBLive.callId] : [])] : { skip: fx.why.callBLive }) },
  { route: 'GET /conversations', path: '/conversations', ids: () => (fx.conversationB ? [fx.conversationB] : { skip: fx.why.conversationB }) },
  { route: 'GET /prompts?type=chat', path: '/prompts', query: { type: 'chat' }, ids: () => (fx.promptB ? [fx.promptB] : { skip: fx.why.promptB }) },
];

describe("lists never show another tenant's resources (§5.7, §5.2)", () => {
  for (const list of LISTS) {
    for (const asker of ASKERS) {
      const clauses = asker.principal === 'orgA' ? ['5.7/lists-own-tenant-only', '5.2/org-key-acts-on-named-tenant-only'] : ['5.7/lists-own-tenant-only'];
      clauseTest(clauses, `${asker.words}: ${list.route} never contains tenant B's ids`, async (ctx) => {
        const ids = list.ids();
        if (!Array.isArray(ids)) skipWith(ctx, ids.skip);
        // Positive control: B's own list shows its ids, otherwise their absence from A's proves nothing.
        const own = await world().as('tenantB').get(list.path, { query: list.query });
        if (routeMissing(own)) skipWith(ctx, `precondition failed: ${list.route} is not served by the target (${statusLine(own)})`);
        if (!ids.some((id) => own.text.includes(id))) {
          skipWith(ctx, `precondition failed: tenant B's own ${list.route} does not show its ids (the list may be paginated or filtered), so their absence from A's list proves nothing`);
        }
        const res = await world().as(asker.principal).get(list.path, { query: list.query });
        ctx.verify.that(`${list.route} as ${asker.words} answers 2xx`, res.status >= 200 && res.status < 300, { expected: '2xx', actual: statusLine(res), res });
        const leaked = ids.filter((id) => res.text.includes(id));
        ctx.verify.that(`${list.route} as ${asker.words} contains none of tenant B's ids`, leaked.length === 0, {
          expected: "no id of tenant B's resources",
          actual: `tenant B's ids present: ${leaked.join(', ')}`,
          res,
        });
        const ownId = list.ownId?.();
        if (ownId) {
          ctx.verify.that(`${list.route} as ${asker.words} shows tenant A's own resource`, res.text.includes(ownId), { expected: `a row with ${ownId}`, actual: res.text.slice(0, 300), res });
        }
      });
    }
  }

  clauseTest('5.2/org-key-acts-on-named-tenant-only', "the organization key with X-Tenant-Id A reads A's assistant and not B's", async ({ verify }) => {
    const org = world().as('orgA');
    const mine = await org.get(`/assistants/${fx.assistantA.id}`);
    verify.that("GET of A's assistant with X-Tenant-Id A answers 200", mine.status === 200, { expected: '200', actual: statusLine(mine), res: mine });
    const theirs = await org.get(`/assistants/${fx.assistantB.id}`);
    verify.on(['5.2/org-key-acts-on-named-tenant-only', '5.7/foreign-resource-not-found']).error(theirs, 404, 'RESOURCE_NOT_FOUND', "GET of B's assistant with X-Tenant-Id A answers 404 RESOURCE_NOT_FOUND");
  });
});
