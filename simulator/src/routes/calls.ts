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
 * tenant's and a deleted call take the same path, and every miss is answered by
 * {@link sendUnowned}: the route's answer for an unknown id, whoever's the call is.
 *
 * Seams: the lookup ({@link callLookup}), the answer to a miss ({@link unownedCallAnswer}), what
 * an action on a missed id changes ({@link unownedAction}), whether a call stays readable
 * ({@link callReadable}), and the three lists ({@link callList}, {@link liveList},
 * {@link conversationList}).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { tenantOf } from '../auth.ts';
import { callSummary, recordingUrl } from '../control/calls.ts';
import { notFound, ok, type ApiError } from '../envelope.ts';
import { foreignAnswerDelay } from '../resources.ts';
import { seam } from '../seam.ts';
import { store, type CallRecord, type ConversationRecord, type SimState } from '../state.ts';

/**
 * §5.7, §4.5: the call `id` of tenant `tenantId`, or null when it is unknown, another tenant's or
 * deleted. Only the path id finds a call: the support `callId` of GET /calls/live never does.
 */
export const callLookup = seam('calls.lookup', (state: SimState, tenantId: string, id: string): CallRecord | null => {
  const call = store.calls(state).get(id);
  return call && !call.deleted && call.tenantId === tenantId ? call : null;
});

/** The call `id` of tenant `tenantId`, or null (see {@link callLookup}): the one lookup every call route uses. */
export function ownedCall(state: SimState, tenantId: string, id: string): CallRecord | null {
  return state.behaviour.of(callLookup)(state, tenantId, id);
}

/** True when `id` names a stored, not deleted call of a tenant other than `tenantId`. */
export function isForeignCall(state: SimState, tenantId: string, id: string): boolean {
  const call = store.calls(state).get(id);
  return !!call && !call.deleted && call.tenantId !== tenantId;
}

/** What a call id that names no call of the caller names: nothing, another tenant's call, or the caller's deleted call. */
export type CallMiss = 'unknown' | 'foreign' | 'deleted';

/** Which {@link CallMiss} `id` is for tenant `tenantId`. */
export function callMiss(state: SimState, tenantId: string, id: string): CallMiss {
  const call = store.calls(state).get(id);
  if (call && !call.deleted && call.tenantId !== tenantId) return 'foreign';
  if (call?.deleted && call.tenantId === tenantId) return 'deleted';
  return 'unknown';
}

/**
 * An answer of a call route (§7): an error envelope, a success envelope, or bare JSON (§7
 * exceptions 2 and 3, the monitoring actions); `headers` are set on the reply first.
 */
export type CallAnswer = (
  { kind: 'error'; error: ApiError } | { kind: 'data'; status: number; data: unknown } | { kind: 'bare'; status: number; body: unknown }
) & { headers?: Readonly<Record<string, string>> };

/** Sends a bare JSON body (§7 exception 2) with `status`; a string body is sent as it is. */
export function bare(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Sends `answer`. Throws its ApiError for an error envelope (the error handler sends it). */
export function sendAnswer(reply: FastifyReply, answer: CallAnswer): FastifyReply {
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
  if (answer.kind === 'error') throw answer.error;
  if (answer.kind === 'data') return ok(reply, answer.data, answer.status);
  return bare(reply, answer.status, answer.body);
}

/**
 * §5.7, §7 exception 2: the answer to a call id that names no call of the caller (`miss`), given
 * the route's answer for an unknown id (`unknown`): that same answer, byte for byte, so nothing
 * about another tenant's or a deleted call shows.
 */
export const unownedCallAnswer = seam('calls.unowned-answer', (_miss: CallMiss, unknown: CallAnswer): CallAnswer => unknown);

/**
 * §5.7: what an action (`monitor`, `takeover`, `end`) naming a call id that is not the caller's
 * changes: nothing.
 */
export const unownedAction = seam('calls.unowned-action', (_state: SimState, _tenantId: string, _id: string, _action: string): void => undefined);

/**
 * Answers a request about call `id`, which names no call of tenant `tenantId` (§5.7, §7
 * exception 2): `unknown` is the route's answer for an unknown id; `action` the action the
 * request asked for, if any. Throws the ApiError of an error envelope.
 */
export async function sendUnowned(reply: FastifyReply, tenantId: string, id: string, unknown: CallAnswer, action?: string): Promise<FastifyReply> {
  const state = reply.server.sim;
  if (action !== undefined) state.behaviour.of(unownedAction)(state, tenantId, id, action);
  const miss = callMiss(state, tenantId, id);
  if (miss === 'foreign') {
    const ms = state.behaviour.of(foreignAnswerDelay)('call', unknown.kind === 'bare' ? 'bare' : 'envelope');
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  }
  return sendAnswer(reply, state.behaviour.of(unownedCallAnswer)(miss, unknown));
}

/** The 404 RESOURCE_NOT_FOUND envelope of an unknown call: the envelope call routes' answer to any miss. */
export function unknownCall(): CallAnswer {
  return { kind: 'error', error: notFound() };
}

/** §1, §4.5: a call record exists from dial and stays readable after the call ended. */
export const callReadable = seam('calls.readable', (_call: CallRecord): boolean => true);

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

/** A row of GET /calls/live (see the module comment). */
export function liveRow(call: CallRecord): Record<string, unknown> {
  return {
    id: call.id,
    callId: call.callId,
    assistantId: call.assistantId,
    customerNumber: call.customerNumber,
    startedAt: call.startedAt,
    agentAbsent: call.agentAbsent,
    monitorSessionsOpen: call.audit.filter((a) => a.action === 'monitor' && a.closedAt === null).length,
  };
}

/** The public view of a conversation (see the module comment). */
export function conversationView(c: ConversationRecord): Record<string, unknown> {
  return {
    id: c.id,
    assistantId: c.assistantId,
    channel: c.channel,
    customerIdentifier: c.customerIdentifier,
    status: c.endedAt ? 'ended' : 'active',
    startedAt: c.startedAt,
    endedAt: c.endedAt,
    messages: c.messages.map((m) => ({ ...m })),
  };
}

/** Every stored call but the deleted ones, in creation order. */
export function storedCalls(state: SimState): CallRecord[] {
  return [...store.calls(state).values()].filter((c) => !c.deleted);
}

/** §4.5, §5.7, §1: GET /calls lists the tenant's calls (not its conversations, which are separate). */
export const callList = seam('calls.call-list', (state: SimState, tenantId: string): Record<string, unknown>[] =>
  storedCalls(state)
    .filter((c) => c.tenantId === tenantId)
    .map(callView),
);

/** §4.5, §5.7: GET /calls/live lists the tenant's calls in progress, each row with its id and a separate `callId`. */
export const liveList = seam('calls.live-list', (state: SimState, tenantId: string): Record<string, unknown>[] =>
  storedCalls(state)
    .filter((c) => c.tenantId === tenantId && c.endedAt === null)
    .map(liveRow),
);

/** §4.5, §5.7: GET /conversations lists the tenant's conversations. */
export const conversationList = seam('calls.conversation-list', (state: SimState, tenantId: string): Record<string, unknown>[] =>
  [...store.conversations(state).values()].filter((c) => c.tenantId === tenantId).map(conversationView),
);

/** Plugin with the call and conversation read routes. */
export const callsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  app.get('/calls', async (request, reply) => ok(reply, state.behaviour.of(callList)(state, tenantOf(request))));

  app.get('/calls/live', async (request, reply) => ok(reply, state.behaviour.of(liveList)(state, tenantOf(request))));

  app.get<{ Params: { id: string } }>('/calls/:id', async (request, reply) => {
    const tenantId = tenantOf(request);
    const call = ownedCall(state, tenantId, request.params.id);
    if (!call || !state.behaviour.of(callReadable)(call)) return sendUnowned(reply, tenantId, request.params.id, unknownCall());
    return ok(reply, callView(call));
  });

  app.get('/conversations', async (request, reply) => ok(reply, state.behaviour.of(conversationList)(state, tenantOf(request))));
};
