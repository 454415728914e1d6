/**
 * Calls and conversations (§1, §4.5): `GET /calls`, `GET /calls/{id}`, `GET /calls/live`,
 * `GET /conversations`. The calls API is read-only; records are created through the control API.
 *
 * Shapes (not shown in the spec beyond "transcript, summary, analysis, recording link"):
 * - call: `{ id, callId, assistantId, status: "live"|"ended", customerNumber, startedAt, endedAt,
 *   durationSeconds, endedReason, transcript: [{ role, text, at }], summary, analysis:
 *   { categories, structuredData, successEvaluation }, recordingUrl, supervisorAnswered }`;
 *   `summary`, `analysis`, `recordingUrl` are null while the call is live.
 * - live row: `{ id, callId, assistantId, customerNumber, startedAt, agentAbsent,
 *   monitorSessionsOpen }`; `id` is the path id, `callId` only correlates with support and is
 *   never accepted in a path (it answers as an unknown id everywhere).
 * - conversation: `{ id, assistantId, channel, customerIdentifier, status: "active"|"ended",
 *   startedAt, endedAt, messages: [{ role, text, at }] }`. Conversations are never under /calls.
 * - Lists are `data` arrays (order: creation); no list parameters are read (not shown).
 *
 * Tenant isolation (§5.7): every lookup goes through {@link ownedCall}, so an unknown, another
 * tenant's and a deleted call take the same path.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { tenantOf } from '../auth.ts';
import { callSummary, recordingUrl, startCall } from '../control/calls.ts';
import { ApiError, forbidden, notFound, ok, sendError } from '../envelope.ts';
import { faultOn } from '../faults.ts';
import { store, type CallRecord, type SimState } from '../state.ts';

/**
 * The call `id` of tenant `tenantId`, or null when it is unknown, another tenant's or deleted:
 * the one lookup every call route uses (§5.7, §7 exception 2). Under the `monitoring.callid-in-path`
 * fault a support `callId` is also accepted.
 */
export function ownedCall(state: SimState, tenantId: string, id: string): CallRecord | null {
  const calls = store.calls(state);
  let call = calls.get(id);
  if (!call && faultOn(state, 'monitoring.callid-in-path')) call = [...calls.values()].find((c) => c.callId === id);
  if (!call || call.deleted || call.tenantId !== tenantId) return null;
  return call;
}

/** True when `id` names a stored, not deleted call of a tenant other than `tenantId` (fault switches only). */
export function isForeignCall(state: SimState, tenantId: string, id: string): boolean {
  const call = store.calls(state).get(id);
  return !!call && !call.deleted && call.tenantId !== tenantId;
}

/**
 * The 404 RESOURCE_NOT_FOUND for a call id that {@link ownedCall} refused (envelope routes).
 * Fault switches (`xtenant.foreign-call-*`) change it for another tenant's call only; the
 * extra-header fault sets its header on `reply`.
 */
export function callNotFound(reply: FastifyReply, tenantId: string, id: string): ApiError {
  const state = reply.server.sim;
  if (isForeignCall(state, tenantId, id)) {
    if (faultOn(state, 'xtenant.foreign-call-header')) reply.header('x-resource-owner', 'another-tenant');
    if (faultOn(state, 'xtenant.foreign-call-403')) return forbidden();
    if (faultOn(state, 'xtenant.foreign-call-message-differs')) {
      return new ApiError(404, 'RESOURCE_NOT_FOUND', 'Call belongs to another tenant');
    }
  }
  return notFound();
}

/** The public view of a call record. */
export function callView(call: CallRecord): Record<string, unknown> {
  const ended = call.endedAt !== null;
  const categories = Array.isArray(call.config.categories) ? call.config.categories : [];
  return {
    id: call.id,
    callId: call.callId,
    assistantId: call.assistantId,
    status: ended ? 'ended' : 'live',
    customerNumber: call.customerNumber,
    startedAt: call.startedAt,
    endedAt: call.endedAt,
    durationSeconds: ended ? Math.max(0, Math.round((Date.parse(call.endedAt!) - Date.parse(call.startedAt)) / 1000)) : null,
    endedReason: call.endedReason,
    transcript: call.transcript.map((l) => ({ ...l })),
    summary: callSummary(call),
    analysis: ended
      ? {
          categories: categories.length ? [categories[0]] : [],
          structuredData: { intent: 'appointment_check' },
          successEvaluation: true,
        }
      : null,
    recordingUrl: recordingUrl(call),
    supervisorAnswered: call.supervisorAnswered,
  };
}

/** Plugin with the call and conversation read routes. */
export const callsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.get('/calls', async (request, reply) => {
    const tenantId = tenantOf(request);
    const leak = faultOn(state, 'xtenant.calls-list-leaks');
    const calls = [...store.calls(state).values()]
      .filter((c) => !c.deleted && (leak || c.tenantId === tenantId))
      .map(callView);
    if (faultOn(state, 'calls.conversations-in-calls')) {
      for (const c of store.conversations(state).values()) {
        if (c.tenantId === tenantId) calls.push({ id: c.id, assistantId: c.assistantId, status: c.endedAt ? 'ended' : 'live', channel: c.channel });
      }
    }
    return ok(reply, calls);
  });

  app.get('/calls/live', async (request, reply) => {
    const tenantId = tenantOf(request);
    const rows = [...store.calls(state).values()]
      .filter((c) => !c.deleted && (c.tenantId === tenantId || faultOn(state, 'xtenant.live-list-leaks')) && c.endedAt === null)
      .map((c) => ({
        id: c.id,
        callId: faultOn(state, 'monitoring.live-list-callid-only') ? c.id : c.callId,
        assistantId: c.assistantId,
        customerNumber: c.customerNumber,
        startedAt: c.startedAt,
        agentAbsent: c.agentAbsent,
        monitorSessionsOpen: c.audit.filter((a) => a.action === 'monitor' && a.closedAt === null).length,
      }));
    return ok(reply, rows);
  });

  app.get<{ Params: { id: string } }>('/calls/:id', async (request, reply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call) throw callNotFound(reply, tenantId, request.params.id);
    if (call.endedAt && faultOn(state, 'calls.call-missing-after-end')) throw notFound();
    return ok(reply, callView(call));
  });

  app.get('/conversations', async (request, reply) => {
    const tenantId = tenantOf(request);
    const rows = [...store.conversations(state).values()]
      .filter((c) => c.tenantId === tenantId || faultOn(state, 'xtenant.conversations-list-leaks'))
      .map((c) => ({
        id: c.id,
        assistantId: c.assistantId,
        channel: c.channel,
        customerIdentifier: c.customerIdentifier,
        status: c.endedAt ? 'ended' : 'active',
        startedAt: c.startedAt,
        endedAt: c.endedAt,
        messages: c.messages.map((m) => ({ ...m })),
      }));
    return ok(reply, rows);
  });
};

/**
 * Fault `calls.outbound-accepted` only (§1 "no endpoint places an outbound call"): answers
 * `POST /calls` 201 with a new live call of the caller's first assistant (or 404 NOT_FOUND when
 * it has none or no tenant is named). Called from server.ts's not-found handler.
 */
export async function outboundCallFault(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const state = reply.server.sim;
  const tenantId = request.principal?.tenantId ?? null;
  const assistant = tenantId ? [...state.assistants.values()].find((a) => a.tenantId === tenantId) : undefined;
  if (!tenantId || !assistant) return sendError(reply, new ApiError(404, 'NOT_FOUND', 'Route not found'));
  return ok(reply, callView(startCall(state, tenantId, assistant.data.id as string, null)), 201);
}
