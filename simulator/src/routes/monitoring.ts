/**
 * Live call monitoring (§3, §4.5, §7 exceptions 2 and 3):
 * - `POST /calls/{id}/monitor-session` (bare JSON) mints a browser join credential:
 *   201 `{ sessionId, callId, token, joinUrl, expiresAt }`. Body `{ actorLabel? }`.
 * - `DELETE /calls/{id}/monitor-session` (envelope) closes ONE session and never ends the call:
 *   the one named by `sessionId` (query or body), else the most recently opened open one.
 *   200 `data: { callId, sessionId, closedAt, callLive }` (`sessionId` null when none was open;
 *   an already closed session answers 200 again: DELETE is idempotent in effect, §8). An unknown
 *   `sessionId` of a known call → 404 RESOURCE_NOT_FOUND.
 * - `POST /calls/{id}/takeover` and `POST /calls/{id}/end` (bare JSON), body
 *   `{ actorLabel?, sessionId? }`: 200 `{ callId, action, actorLabel, at }`. Takeover leaves the
 *   call live and puts a labelled marker in the transcript (the taker-over's speech is not
 *   transcribed); end finishes the call (end-of-call report, insights later).
 * - `GET /calls/{id}/monitor-sessions` (envelope): the audit, `data` = array of
 *   `{ action: "monitor"|"takeover"|"end", sessionId, actorLabel, at, closedAt }`, during and after
 *   the call. `actorLabel` is stored verbatim (null when not sent).
 *
 * Readings:
 * - Order: auth → body parse → call lookup (404) → body validation (400, envelope) → state
 *   (409 not_live / agent_absent) → per-tenant mint rate (429) → per-call slots.
 * - 404 for an unknown, another tenant's or a deleted call is the byte-identical bare
 *   `{"error":"not_found"}` on the three bare routes, and the normal RESOURCE_NOT_FOUND envelope
 *   on the two envelope routes; all come from one lookup (`ownedCall`).
 * - `agent_absent` applies to takeover and end (the assistant is needed in the room to hand
 *   over); minting a listen-only session is allowed while the assistant is away.
 * - Per-tenant mint rate: at most `monitorMintsPerMinute` mint attempts that reach the rate check
 *   in any 60 s window; beyond that 429 bare `{ error: "rate_limited", retryAfterSeconds }`
 *   (integer seconds until the oldest attempt leaves the window, at least 1) and `Retry-After`.
 * - Per-call slots: at most `monitorSlotsPerCall` open sessions; a further mint answers 409 bare
 *   `{ error: "conflict", reason: "slots_full" }` (§7 leaves the reason set open).
 * - `actorLabel`: string or null, at most {@link ACTOR_LABEL_MAX} characters (code points);
 *   longer, or another type → 400 VALIDATION_ERROR in the envelope (§7 exception 2).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { principalOf, tenantOf } from '../auth.ts';
import { endCall } from '../control/calls.ts';
import { ApiError, errorBody, notFound, ok, requestPath, validationError } from '../envelope.ts';
import { faultOn } from '../faults.ts';
import { store, type CallRecord, type SimState } from '../state.ts';
import { isPlainObject } from '../validation/formats.ts';
import { callNotFound, isForeignCall, ownedCall } from './calls.ts';

/** Longest accepted `actorLabel`, in characters (Unicode code points). The spec names no limit. */
export const ACTOR_LABEL_MAX = 200;

/** Rate window of the per-tenant mint limit, in ms. */
const MINT_WINDOW_MS = 60_000;

type IdParams = { Params: { id: string } };

const BARE_NOT_FOUND = '{"error":"not_found"}';

/** Sends a bare JSON body (§7 exception 2) with `status`. */
function bare(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * The bare 404 of §7 exception 2 for a call id `ownedCall` refused: byte-identical for unknown,
 * foreign and deleted calls, apart from the cross-tenant fault switches.
 */
async function bareNotFound(reply: FastifyReply, tenantId: string, id: string): Promise<FastifyReply> {
  const state = reply.server.sim;
  if (isForeignCall(state, tenantId, id)) {
    if (faultOn(state, 'xtenant.foreign-slow')) await new Promise((r) => setTimeout(r, 20));
    if (faultOn(state, 'xtenant.foreign-call-header')) reply.header('x-resource-owner', 'another-tenant');
    if (faultOn(state, 'xtenant.foreign-call-403')) return bare(reply, 403, { error: 'forbidden' });
    if (faultOn(state, 'xtenant.foreign-bare-body')) return bare(reply, 404, { error: 'not_found', reason: 'other_tenant' });
  }
  if (faultOn(state, 'monitoring.unknown-call-envelope')) throw notFound();
  const rec = store.calls(state).get(id);
  if (rec?.deleted && rec.tenantId === tenantId && faultOn(state, 'xtenant.deleted-call-gone')) {
    return bare(reply, 410, { error: 'gone' });
  }
  return bare(reply, 404, BARE_NOT_FOUND);
}

/** The §7 bare 409, or the envelope under the `monitoring.conflict-in-envelope` fault. */
function conflict(reply: FastifyReply, reason: string): FastifyReply {
  const state = reply.server.sim;
  if (faultOn(state, 'monitoring.conflict-in-envelope')) throw new ApiError(409, 'CONFLICT', `Call action refused: ${reason}`);
  return bare(reply, 409, { error: 'conflict', reason });
}

interface ActionBody {
  actorLabel: string | null;
  sessionId: string | null;
}

/**
 * Validates `{ actorLabel?, sessionId? }`. Throws ApiError 400 VALIDATION_ERROR (envelope), or
 * sends a bare 400 under the `monitoring.over-length-bare` fault (returns null then).
 */
function actionBody(reply: FastifyReply, body: unknown): ActionBody | null {
  const state = reply.server.sim;
  if (body === undefined || body === null) return { actorLabel: null, sessionId: null };
  if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
  const errors: { field: string; message: string }[] = [];
  const label = body.actorLabel;
  if (label !== undefined && label !== null) {
    if (typeof label !== 'string') errors.push({ field: 'actorLabel', message: 'must be a string' });
    else if ([...label].length > ACTOR_LABEL_MAX) {
      errors.push({ field: 'actorLabel', message: `must be at most ${ACTOR_LABEL_MAX} characters` });
    }
  }
  const sid = body.sessionId;
  if (sid !== undefined && sid !== null && typeof sid !== 'string') errors.push({ field: 'sessionId', message: 'must be a string' });
  if (errors.length) {
    if (faultOn(state, 'monitoring.over-length-bare')) {
      bare(reply, 400, { error: 'invalid_request', field: errors[0].field });
      return null;
    }
    throw validationError(errors);
  }
  let actorLabel = typeof label === 'string' ? label : null;
  if (actorLabel !== null && faultOn(state, 'monitoring.actor-label-altered')) {
    actorLabel = actorLabel.trim().replace(/[<>"'&]/g, '');
  }
  return { actorLabel, sessionId: typeof sid === 'string' ? sid : null };
}

/** 409 reason for an action on `call`, or null when it may proceed. */
function refusal(state: SimState, call: CallRecord, needsAgent: boolean): string | null {
  if (call.endedAt !== null) return faultOn(state, 'monitoring.not-live-as-agent-absent') ? 'agent_absent' : 'not_live';
  if (needsAgent && call.agentAbsent && !faultOn(state, 'monitoring.agent-absent-ignored')) return 'agent_absent';
  return null;
}

/** Records a mint attempt; returns seconds to wait when the tenant is over its rate, else 0. */
function mintRateWait(state: SimState, tenantId: string, keyType: string): number {
  if (faultOn(state, 'monitoring.no-rate-limit')) return 0;
  const now = Date.now();
  const mints = store.monitorMints(state);
  // Faults: the budget is kept per key type (another credential of the tenant starts afresh), or
  // per organization (one tenant throttles its siblings).
  const bucket = faultOn(state, 'monitoring.rate-per-key')
    ? `${tenantId}:${keyType}`
    : faultOn(state, 'monitoring.rate-per-organization')
      ? `org:${state.tenants.get(tenantId)?.organizationId ?? tenantId}`
      : tenantId;
  const recent = (mints.get(bucket) ?? []).filter((t) => now - t < MINT_WINDOW_MS);
  if (recent.length >= state.config.monitorMintsPerMinute) {
    mints.set(bucket, recent);
    const oldest = recent[0] ?? now;
    return Math.max(1, Math.ceil((oldest + MINT_WINDOW_MS - now) / 1000));
  }
  recent.push(now);
  mints.set(bucket, recent);
  return 0;
}

/** Plugin with the live monitoring routes. */
export const monitoringRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.post<IdParams>('/calls/:id/monitor-session', async (request, reply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call) return bareNotFound(reply, tenantId, request.params.id);
    const body = actionBody(reply, request.body);
    if (!body) return reply;
    const reason = refusal(state, call, false);
    if (reason) return conflict(reply, reason);
    const wait = mintRateWait(state, tenantId, principalOf(request).keyType);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      if (faultOn(state, 'monitoring.retry-after-in-error')) {
        const env = errorBody(state, requestPath(request), new ApiError(429, 'RATE_LIMITED', 'Too many monitor sessions minted'));
        (env.error as Record<string, unknown>).retryAfterSeconds = wait;
        return bare(reply, 429, env);
      }
      return bare(reply, 429, { error: 'rate_limited', retryAfterSeconds: wait });
    }
    // Fault monitoring.slots-per-tenant: the open sessions of every call of the tenant share the slots.
    const audits = faultOn(state, 'monitoring.slots-per-tenant') ? [...store.calls(state).values()].filter((c) => c.tenantId === tenantId).flatMap((c) => c.audit) : call.audit;
    const open = audits.filter((a) => a.action === 'monitor' && a.closedAt === null).length;
    if (open >= state.config.monitorSlotsPerCall && !faultOn(state, 'monitoring.no-slot-limit')) {
      return conflict(reply, 'slots_full');
    }
    const now = new Date();
    const sessionId = randomUUID();
    call.audit.push({ action: 'monitor', sessionId, actorLabel: body.actorLabel, at: now.toISOString(), closedAt: null });
    const credential = {
      sessionId,
      callId: call.id,
      token: `mon_${randomBytes(24).toString('base64url')}`,
      joinUrl: `https://monitor.simulator.invalid/join/${sessionId}`,
      expiresAt: new Date(now.getTime() + 15 * 60_000).toISOString(),
    };
    if (faultOn(state, 'monitoring.mint-in-envelope')) return ok(reply, credential, 201);
    return bare(reply, 201, credential);
  });

  app.delete<IdParams & { Querystring: { sessionId?: string } }>('/calls/:id/monitor-session', async (request, reply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call) throw callNotFound(reply, tenantId, request.params.id);
    const fromBody = isPlainObject(request.body) && typeof request.body.sessionId === 'string' ? request.body.sessionId : undefined;
    const wanted = typeof request.query.sessionId === 'string' && request.query.sessionId !== '' ? request.query.sessionId : fromBody;
    const sessions = call.audit.filter((a) => a.action === 'monitor');
    let session = wanted === undefined ? sessions.filter((a) => a.closedAt === null).at(-1) : sessions.find((a) => a.sessionId === wanted);
    if (wanted !== undefined && !session) throw notFound();
    if (session && session.closedAt === null) session.closedAt = new Date().toISOString();
    if (session && faultOn(state, 'monitoring.delete-closes-all')) {
      for (const a of sessions) if (a.closedAt === null) a.closedAt = session.closedAt;
    }
    if (faultOn(state, 'monitoring.delete-ends-call') && call.endedAt === null) {
      endCall(state, call, { reason: 'ended-by-supervisor', supervisorAnswered: false });
    }
    return ok(reply, {
      callId: call.id,
      sessionId: session?.sessionId ?? null,
      closedAt: session?.closedAt ?? null,
      callLive: call.endedAt === null,
    });
  });

  for (const action of ['takeover', 'end'] as const) {
    app.post<IdParams>(`/calls/:id/${action}`, async (request, reply) => {
      const tenantId = tenantOf(request);
      const call = ownedCall(state, tenantId, request.params.id);
      if (!call) {
        const foreign = store.calls(state).get(request.params.id);
        if (action === 'end' && foreign && !foreign.endedAt && isForeignCall(state, tenantId, foreign.id) && faultOn(state, 'xtenant.foreign-call-end')) {
          endCall(state, foreign, { reason: 'ended-by-supervisor', supervisorAnswered: false });
        }
        return bareNotFound(reply, tenantId, request.params.id);
      }
      const body = actionBody(reply, request.body);
      if (!body) return reply;
      const reason = refusal(state, call, true);
      if (reason) return conflict(reply, reason);
      const at = new Date().toISOString();
      call.audit.push({ action, sessionId: body.sessionId, actorLabel: body.actorLabel, at, closedAt: null });
      if (action === 'takeover') {
        const label = body.actorLabel ?? 'a supervisor';
        call.transcript.push({ role: 'marker', text: `[Call taken over by ${label}; their speech is not transcribed]`, at });
      } else {
        endCall(state, call, { reason: 'ended-by-supervisor', supervisorAnswered: false, report: !faultOn(state, 'monitoring.end-route-no-report') });
      }
      return bare(reply, 200, { callId: call.id, action, actorLabel: body.actorLabel, at });
    });
  }

  app.get<IdParams>('/calls/:id/monitor-sessions', async (request, reply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call) throw callNotFound(reply, tenantId, request.params.id);
    return ok(reply, call.audit.map((a) => ({ ...a })));
  });
};
