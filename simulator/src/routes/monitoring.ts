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
 *
 * Seams: the refusal of an action by the call's state ({@link stateRefusal}), the 409, 400 and 429
 * answers ({@link conflictAnswer}, {@link invalidBodyAnswer}, {@link rateLimitedAnswer}), the
 * mint's budget, slots and answer ({@link mintBudget}, {@link mintBudgetGap}, {@link slotsFull}, {@link mintAnswer}), the
 * stored label ({@link storedLabel}), and what closing a session and a supervisor's end do
 * ({@link closeSession}, {@link supervisorEnd}).
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { principalOf, tenantOf } from '../auth.ts';
import { endCall } from '../control/calls.ts';
import { notFound, ok, requestPath, validationError, type FieldError } from '../envelope.ts';
import { seam } from '../seam.ts';
import { store, type CallRecord, type MonitorAuditRecord, type SimState } from '../state.ts';
import { isPlainObject } from '../validation/formats.ts';
import { ownedCall, sendAnswer, sendUnowned, unknownCall, type CallAnswer } from './calls.ts';

/** Longest accepted `actorLabel`, in characters (Unicode code points). The spec names no limit. */
export const ACTOR_LABEL_MAX = 200;

/** Rate window of the per-tenant mint limit, in ms. */
const MINT_WINDOW_MS = 60_000;

interface IdParams {
  Params: { id: string };
}

/** §7 exception 2: the bare 404 of the monitoring actions, byte for byte. */
const BARE_NOT_FOUND: CallAnswer = { kind: 'bare', status: 404, body: '{"error":"not_found"}' };

/** A monitoring action: minting a listen-only session, taking the call over, ending it. */
export type MonitorAction = 'monitor' | 'takeover' | 'end';

/**
 * §3, §7 exception 3: the 409 reason that refuses `action` on `call`, or null when it may go on:
 * a finished call is `not_live` (final); takeover and end need the assistant in the room
 * (`agent_absent` while it is away); a listen-only session does not.
 */
export const stateRefusal = seam('monitoring.state-refusal', (call: CallRecord, action: MonitorAction): string | null => {
  if (call.endedAt !== null) return 'not_live';
  if (action !== 'monitor' && call.agentAbsent) return 'agent_absent';
  return null;
});

/** §7 exception 3: the 409 of a monitoring action, bare `{ error: "conflict", reason }`. */
export const conflictAnswer = seam('monitoring.conflict', (reason: string): CallAnswer => ({ kind: 'bare', status: 409, body: { error: 'conflict', reason } }));

/** §7 exception 2: a monitoring action's body that fails validation answers 400 VALIDATION_ERROR in the envelope. */
export const invalidBodyAnswer = seam('monitoring.invalid-body', (errors: FieldError[]): CallAnswer => ({ kind: 'error', error: validationError(errors) }));

/** §4.5: the `actorLabel` stored and shown for a sent label: verbatim. */
export const storedLabel = seam('monitoring.actor-label', (label: string): string => label);

/**
 * §4.5: the budget a mint attempt of tenant `tenantId` (with a key of `keyType`) counts against:
 * one per tenant, `monitorMintsPerMinute` attempts in any 60 s window; null for no budget at all.
 */
export const mintBudget = seam('monitoring.mint-budget', (_state: SimState, tenantId: string, _keyType: string): string | null => tenantId);

/**
 * §4.5, §7 exception 3: the 429 of a mint over its budget, `wait` seconds before a mint would
 * count again: bare `{ error: "rate_limited", retryAfterSeconds }` with `Retry-After`. `path` is
 * the request path (for a reading that answers an envelope).
 */
export const rateLimitedAnswer = seam('monitoring.rate-limited', (_state: SimState, _path: string, wait: number): CallAnswer => ({
  kind: 'bare',
  status: 429,
  body: { error: 'rate_limited', retryAfterSeconds: wait },
  headers: { 'retry-after': String(wait) },
}));

/** §4.5: whether the monitor sessions open on `call` fill its slots (`monitorSlotsPerCall`), so a further mint is refused. */
export const slotsFull = seam(
  'monitoring.slots-full',
  (state: SimState, call: CallRecord): boolean => openSessions(call.audit) >= state.config.monitorSlotsPerCall,
);

/** §7 exception 2, §4.5: a minted credential is answered as bare JSON, 201. */
export const mintAnswer = seam('monitoring.mint-answer', (credential: Record<string, unknown>): CallAnswer => ({
  kind: 'bare',
  status: 201,
  body: credential,
}));

/**
 * §4.5: DELETE monitor-session closes ONE session (`session`, or none) and never ends the call;
 * an already closed session stays as it was.
 */
export const closeSession = seam('monitoring.close-session', (_state: SimState, _call: CallRecord, session: MonitorAuditRecord | undefined): void => {
  if (session && session.closedAt === null) session.closedAt = new Date().toISOString();
});

/** §4.5: POST /calls/{id}/end finishes the call like any end: end-of-call report, insights later. */
export const supervisorEnd = seam('monitoring.supervisor-end', (state: SimState, call: CallRecord): void => {
  endCall(state, call, { reason: 'ended-by-supervisor', supervisorAnswered: false });
});

/**
 * §4.5 "who held a session": the rows of the audit read of a call: every monitor session minted on
 * it (closed ones included, with when they closed), every takeover and end.
 */
export const auditRows = seam('monitoring.audit-rows', (audit: readonly MonitorAuditRecord[]): Record<string, unknown>[] => audit.map((a) => ({ ...a })));

/**
 * §4.5 per-call slots: what runs between the slot check of a mint and the session it records.
 * Nothing: the check and the record are one step, so mints sent at once cannot both take one
 * free slot.
 */
export const mintGap = seam('monitoring.mint-gap', (): Promise<void> | void => undefined);

/** Open monitor sessions among `audit` entries. */
export function openSessions(audit: readonly MonitorAuditRecord[]): number {
  return audit.filter((a) => a.action === 'monitor' && a.closedAt === null).length;
}

interface ActionBody {
  actorLabel: string | null;
  sessionId: string | null;
}

/** Validates `{ actorLabel?, sessionId? }`: the body, or the failing fields. */
function actionBody(state: SimState, body: unknown): ActionBody | { errors: FieldError[] } {
  if (body === undefined || body === null) return { actorLabel: null, sessionId: null };
  if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
  const errors: FieldError[] = [];
  const label = body.actorLabel;
  if (label !== undefined && label !== null) {
    if (typeof label !== 'string') errors.push({ field: 'actorLabel', message: 'must be a string' });
    else if ([...label].length > ACTOR_LABEL_MAX) {
      errors.push({ field: 'actorLabel', message: `must be at most ${ACTOR_LABEL_MAX} characters` });
    }
  }
  const sid = body.sessionId;
  if (sid !== undefined && sid !== null && typeof sid !== 'string') errors.push({ field: 'sessionId', message: 'must be a string' });
  if (errors.length) return { errors };
  return { actorLabel: typeof label === 'string' ? state.behaviour.of(storedLabel)(label) : null, sessionId: typeof sid === 'string' ? sid : null };
}

/**
 * §4.5 per-tenant mint rate: what runs between reading a tenant's budget for a mint and recording
 * the mint against it. Nothing: the read and the record are one step, so mints sent at once (with
 * either key type) cannot all see the budget's last unit free.
 */
export const mintBudgetGap = seam('monitoring.mint-budget-gap', (): Promise<void> | void => undefined);

/** The mint times of `bucket` still inside the rate window at `now` (ms). */
function recentMints(state: SimState, bucket: string, now: number): number[] {
  return (store.monitorMints(state).get(bucket) ?? []).filter((t) => now - t < MINT_WINDOW_MS);
}

/** Records a mint attempt; resolves to the seconds to wait when its budget is spent, else 0. */
async function mintRateWait(state: SimState, tenantId: string, keyType: string): Promise<number> {
  const bucket = state.behaviour.of(mintBudget)(state, tenantId, keyType);
  if (bucket === null) return 0;
  const now = Date.now();
  const mints = store.monitorMints(state);
  const recent = recentMints(state, bucket, now);
  if (recent.length >= state.config.monitorMintsPerMinute) {
    mints.set(bucket, recent);
    const oldest = recent[0] ?? now;
    return Math.max(1, Math.ceil((oldest + MINT_WINDOW_MS - now) / 1000));
  }
  const gap = state.behaviour.of(mintBudgetGap)();
  if (gap) await gap;
  // Without a gap nothing ran since the read: `recent` is still the bucket's.
  const current = gap ? recentMints(state, bucket, Date.now()) : recent;
  current.push(Date.now());
  mints.set(bucket, current);
  return 0;
}

/** Plugin with the live monitoring routes. */
export const monitoringRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.post<IdParams>('/calls/:id/monitor-session', async (request, reply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call) return sendUnowned(reply, tenantId, request.params.id, BARE_NOT_FOUND, 'monitor');
    const body = actionBody(state, request.body);
    if ('errors' in body) return sendAnswer(reply, state.behaviour.of(invalidBodyAnswer)(body.errors));
    const reason = state.behaviour.of(stateRefusal)(call, 'monitor');
    if (reason) return sendAnswer(reply, state.behaviour.of(conflictAnswer)(reason));
    const wait = await mintRateWait(state, tenantId, principalOf(request).keyType);
    if (wait > 0) return sendAnswer(reply, state.behaviour.of(rateLimitedAnswer)(state, requestPath(request), wait));
    if (state.behaviour.of(slotsFull)(state, call)) return sendAnswer(reply, state.behaviour.of(conflictAnswer)('slots_full'));
    await state.behaviour.of(mintGap)();
    const now = new Date();
    const sessionId = randomUUID();
    call.audit.push({ action: 'monitor', sessionId, actorLabel: body.actorLabel, at: now.toISOString(), closedAt: null });
    return sendAnswer(
      reply,
      state.behaviour.of(mintAnswer)({
        sessionId,
        callId: call.id,
        token: `mon_${randomBytes(24).toString('base64url')}`,
        joinUrl: `https://monitor.simulator.invalid/join/${sessionId}`,
        expiresAt: new Date(now.getTime() + 15 * 60_000).toISOString(),
      }),
    );
  });

  app.delete<IdParams & { Querystring: { sessionId?: string } }>('/calls/:id/monitor-session', async (request, reply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call) return sendUnowned(reply, tenantId, request.params.id, unknownCall());
    const fromBody = isPlainObject(request.body) && typeof request.body.sessionId === 'string' ? request.body.sessionId : undefined;
    const wanted = typeof request.query.sessionId === 'string' && request.query.sessionId !== '' ? request.query.sessionId : fromBody;
    const sessions = call.audit.filter((a) => a.action === 'monitor');
    const session = wanted === undefined ? sessions.filter((a) => a.closedAt === null).at(-1) : sessions.find((a) => a.sessionId === wanted);
    if (wanted !== undefined && !session) throw notFound();
    state.behaviour.of(closeSession)(state, call, session);
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
      if (!call) return sendUnowned(reply, tenantId, request.params.id, BARE_NOT_FOUND, action);
      const body = actionBody(state, request.body);
      if ('errors' in body) return sendAnswer(reply, state.behaviour.of(invalidBodyAnswer)(body.errors));
      const reason = state.behaviour.of(stateRefusal)(call, action);
      if (reason) return sendAnswer(reply, state.behaviour.of(conflictAnswer)(reason));
      const at = new Date().toISOString();
      call.audit.push({ action, sessionId: body.sessionId, actorLabel: body.actorLabel, at, closedAt: null });
      if (action === 'takeover') {
        const label = body.actorLabel ?? 'a supervisor';
        call.transcript.push({ role: 'marker', text: `[Call taken over by ${label}; their speech is not transcribed]`, at });
      } else {
        state.behaviour.of(supervisorEnd)(state, call);
      }
      return sendAnswer(reply, { kind: 'bare', status: 200, body: { callId: call.id, action, actorLabel: body.actorLabel, at } });
    });
  }

  app.get<IdParams>('/calls/:id/monitor-sessions', async (request, reply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call) return sendUnowned(reply, tenantId, request.params.id, unknownCall());
    return ok(reply, state.behaviour.of(auditRows)(call.audit));
  });
};
