/**
 * Control: calls, conversations and tool invocations (control-api.md), plus the call lifecycle
 * shared with the public monitoring routes (`startCall`, `endCall`).
 *
 * - `POST /calls { tenantId, assistantId, customerNumber? }` → 201 `{ id, callId }`; the call is
 *   live, its configuration is snapshotted (§1) and `assistant-request` is emitted (model A).
 * - `POST /calls/{id}/agent-absent { absent }` → 204.
 * - `POST /calls/{id}/end { supervisorAnswered?, customerNumber? }` → 200 `{ id, endedAt }`;
 *   `end-of-call-report` is emitted; insights exist `insightsDelayMs` later.
 * - Added: `DELETE /calls/{id}` → 204; the call counts as deleted (every public route answers it
 *   like an unknown id, §7 exception 2).
 * - `POST /conversations { tenantId, assistantId, channel, customerIdentifier }` → 201 `{ id }`;
 *   messaging `assistant-request` is emitted. `POST /conversations/{id}/end` → 200;
 *   `end-of-conversation-report` is emitted (every channel).
 * - `POST /tool-invocations { callId, toolId }` → 202 `{ deliveryId }`; `callId` may be the call's
 *   `id` or its support `callId`; the tool must be the call tenant's (or the Knowledge Base tool).
 *
 * Event bodies (payload fields are "not shown" in §6 beyond those named): voice events carry
 * `type` and `call_id` (the call's path id, readable with `GET /calls/{id}`); the end-of-call
 * report adds `customer_number` (string or null) and boolean `supervisor_answered`; messaging
 * events carry `type`, `conversation_id`, `channel`, `customer_identifier`; the tool invocation
 * carries `type: "tool-invocation"`, `call_id`, `tool_id` and `tool: { id, name }`.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { store, type CallRecord, type ConversationRecord, type SimState } from '../state.ts';
import { isE164 } from '../validation/formats.ts';
import { tenantTool } from '../routes/tools.ts';
import { DROPPED_ON_EMPTY_ANSWER, dropCallOnEmptyAnswer, emitEvent, eventSent } from '../webhooks/emit.ts';
import { assistantServerUrl, callEventRoute } from '../webhooks/routing.ts';
import { bodyObject, ControlError, optionalBoolean, optionalString, requiredString } from './common.ts';

/** Builds and stores a live call of `assistantId` (already known to belong to `tenantId`). */
export function startCall(state: SimState, tenantId: string, assistantId: string, customerNumber: string | null): CallRecord {
  const assistant = state.assistants.get(assistantId);
  if (!assistant) throw new Error('startCall: unknown assistant');
  const config = structuredClone(assistant.data);
  const start = Date.now();
  const t = (ms: number) => new Date(start + ms).toISOString();
  const first = typeof config.firstMessage === 'string' ? config.firstMessage : 'Hello, how can I help you today?';
  const call: CallRecord = {
    tenantId,
    id: randomUUID(),
    callId: randomUUID(),
    assistantId,
    customerNumber,
    config,
    serverUrl: assistantServerUrl(state, assistantId, config.serverUrl),
    startedAt: t(0),
    endedAt: null,
    agentAbsent: false,
    deleted: false,
    transcript: [
      { role: 'assistant', text: first, at: t(0) },
      { role: 'customer', text: "Hi, I'd like to check my appointment for next week.", at: t(2400) },
      { role: 'assistant', text: 'Of course. Let me look that up for you.', at: t(4100) },
    ],
    toolCalls: [],
    audit: [],
    supervisorAnswered: null,
    metricsReadyAtMs: null,
    endedReason: null,
  };
  store.calls(state).set(call.id, call);
  return call;
}

/** The routing of a call's event of `type` (§1: its start-time serverUrl, else the tenant URL). */
function callRoute(state: SimState, call: CallRecord, type: string): { url?: string; assistantId?: string } {
  return state.behaviour.of(callEventRoute)(call, type);
}

/** Emits the voice `assistant-request` of a call that just started (model A). */
export function emitCallStarted(state: SimState, call: CallRecord): string {
  return emitEvent(state, {
    tenantId: call.tenantId,
    callId: call.id,
    type: 'assistant-request',
    model: 'A',
    ...callRoute(state, call, 'assistant-request'),
    onAnswer: dropCallOnEmptyAnswer(state, call),
    body: {
      type: 'assistant-request',
      call_id: call.id,
      assistant_id: call.assistantId,
      customer_number: call.customerNumber,
      timestamp: call.startedAt,
    },
  }).deliveryId;
}

/**
 * Ends a live call: closes its open monitor sessions, appends the closing line (or nothing when a
 * supervisor ended it), schedules insights (`insightsDelayMs` from now) and emits the
 * end-of-call report to the call's snapshot URL (unless `report` is false).
 * Returns the delivery id ('' when no report was sent). The caller checks the call is live first.
 */
export function endCall(
  state: SimState,
  call: CallRecord,
  opts: { reason: string; supervisorAnswered: boolean; customerNumber?: string | null; report?: boolean },
): string {
  const now = Date.now();
  const endedAt = new Date(now).toISOString();
  if (opts.reason !== 'ended-by-supervisor') {
    const closing =
      typeof call.config.endOfCallMessage === 'string' && call.config.endOfCallMessage !== ''
        ? call.config.endOfCallMessage
        : 'Thank you for calling. Goodbye!';
    call.transcript.push({ role: 'assistant', text: closing, at: endedAt });
  }
  for (const a of call.audit) if (a.action === 'monitor' && a.closedAt === null) a.closedAt = endedAt;
  if (opts.customerNumber !== undefined) call.customerNumber = opts.customerNumber;
  call.endedAt = endedAt;
  call.endedReason = opts.reason;
  // agentAbsent keeps what was true when the call ended (no live row shows it any more); §3 makes
  // an ended call not_live whatever it says (routes/monitoring.ts `stateRefusal`).
  call.supervisorAnswered = opts.supervisorAnswered;
  call.metricsReadyAtMs = now + state.config.insightsDelayMs;
  if (opts.report === false) return '';
  return emitEvent(state, {
    tenantId: call.tenantId,
    callId: call.id,
    type: 'end-of-call-report',
    model: 'A',
    ...callRoute(state, call, 'end-of-call-report'),
    body: {
      type: 'end-of-call-report',
      call_id: call.id,
      assistant_id: call.assistantId,
      customer_number: call.customerNumber,
      supervisor_answered: opts.supervisorAnswered,
      ended_reason: opts.reason,
      started_at: call.startedAt,
      ended_at: endedAt,
      transcript: call.transcript.map((l) => ({ role: l.role, text: l.text })),
      summary: callSummary(call),
      recording_url: recordingUrl(call),
    },
  }).deliveryId;
}

/** The call summary once ended (null while live). Shape of summaries: not shown; a sentence. */
export function callSummary(call: CallRecord): string | null {
  if (!call.endedAt) return null;
  const turns = call.transcript.filter((l) => l.role === 'customer').length;
  return `The caller asked about an appointment; ${turns} caller turn(s); the call ended (${call.endedReason}).`;
}

/** Recording link: set when the snapshot had `recordingEnabled` and the call ended; else null. */
export function recordingUrl(call: CallRecord): string | null {
  if (!call.endedAt || call.config.recordingEnabled !== true) return null;
  return `https://recordings.simulator.invalid/calls/${call.id}.wav`;
}

function liveCall(state: SimState, id: string): CallRecord {
  const call = store.calls(state).get(id);
  if (!call || call.deleted) throw new ControlError(404, 'unknown call');
  return call;
}

/** The call control endpoints: start a call, mark its agent absent, end it, delete it. */
function registerCallControl(app: FastifyInstance, state: SimState): void {
  app.post('/calls', async (request, reply) => {
    const body = bodyObject(request.body);
    const tenantId = requiredString(body, 'tenantId');
    const assistantId = requiredString(body, 'assistantId');
    const customerNumber = optionalString(body, 'customerNumber') ?? null;
    if (customerNumber !== null && !isE164(customerNumber)) throw new ControlError(400, 'customerNumber must be E.164');
    if (!state.tenants.has(tenantId)) throw new ControlError(404, 'unknown tenant');
    const a = state.assistants.get(assistantId);
    if (!a || a.tenantId !== tenantId) throw new ControlError(404, 'unknown assistant of that tenant');
    const call = startCall(state, tenantId, assistantId, customerNumber);
    emitCallStarted(state, call);
    return reply.code(201).send({ id: call.id, callId: call.callId });
  });

  app.post<{ Params: { id: string } }>('/calls/:id/agent-absent', async (request, reply) => {
    const call = liveCall(state, request.params.id);
    const body = bodyObject(request.body);
    if (typeof body.absent !== 'boolean') throw new ControlError(400, 'absent is required (boolean)');
    if (call.endedAt) throw new ControlError(400, 'call is not live');
    call.agentAbsent = body.absent;
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string } }>('/calls/:id/end', async (request) => {
    const call = liveCall(state, request.params.id);
    const body = bodyObject(request.body);
    const supervisorAnswered = optionalBoolean(body, 'supervisorAnswered', false);
    const customerNumber = optionalString(body, 'customerNumber');
    if (customerNumber !== undefined && !isE164(customerNumber)) throw new ControlError(400, 'customerNumber must be E.164');
    if (call.endedReason === DROPPED_ON_EMPTY_ANSWER) return { id: call.id, endedAt: call.endedAt, deliveryId: null }; // a call an empty answer ended sends no report
    if (call.endedAt) throw new ControlError(400, 'call already ended');
    const deliveryId = endCall(state, call, { reason: 'customer-ended-call', supervisorAnswered, customerNumber });
    return { id: call.id, endedAt: call.endedAt, deliveryId };
  });

  app.delete<{ Params: { id: string } }>('/calls/:id', async (request, reply) => {
    const call = store.calls(state).get(request.params.id);
    if (!call) throw new ControlError(404, 'unknown call');
    call.deleted = true;
    return reply.code(204).send();
  });
}

/**
 * Starts a conversation from `{ tenantId, assistantId, channel, customerIdentifier }` and sends
 * its assistant-request (§6 model A).
 * @throws ControlError 400 on a bad field, 404 on an unknown tenant or assistant.
 */
function startConversation(state: SimState, body: Record<string, unknown>): ConversationRecord {
  const tenantId = requiredString(body, 'tenantId');
  const assistantId = requiredString(body, 'assistantId');
  const channel = requiredString(body, 'channel');
  const customerIdentifier = requiredString(body, 'customerIdentifier');
  if (channel !== 'sms' && channel !== 'web' && channel !== 'chatapp') {
    throw new ControlError(400, 'channel must be sms, web or chatapp');
  }
  if (!state.tenants.has(tenantId)) throw new ControlError(404, 'unknown tenant');
  const a = state.assistants.get(assistantId);
  if (!a || a.tenantId !== tenantId) throw new ControlError(404, 'unknown assistant of that tenant');
  const now = new Date().toISOString();
  const conv: ConversationRecord = {
    tenantId,
    id: randomUUID(),
    assistantId,
    channel,
    customerIdentifier,
    startedAt: now,
    endedAt: null,
    messages: [
      { role: 'customer', text: 'Hi, are you open on Saturday?', at: now },
      { role: 'assistant', text: 'Yes, we are open from 9am to 1pm on Saturdays.', at: now },
    ],
  };
  store.conversations(state).set(conv.id, conv);
  emitEvent(state, {
    tenantId,
    assistantId,
    type: 'assistant-request',
    model: 'A',
    body: {
      type: 'assistant-request',
      conversation_id: conv.id,
      channel,
      customer_identifier: customerIdentifier,
      assistant_id: assistantId,
      timestamp: now,
    },
  });
  return conv;
}

/**
 * Ends a conversation and sends its end-of-conversation-report (unless a seam holds it back).
 * @throws ControlError 404 on an unknown conversation, 400 on one already ended.
 */
function endConversation(state: SimState, id: string): { id: string; endedAt: string | null; deliveryId: string | null } {
  const conv = store.conversations(state).get(id);
  if (!conv) throw new ControlError(404, 'unknown conversation');
  if (conv.endedAt) throw new ControlError(400, 'conversation already ended');
  conv.endedAt = new Date().toISOString();
  if (!state.behaviour.of(eventSent)('end-of-conversation-report', conv.channel)) return { id: conv.id, endedAt: conv.endedAt, deliveryId: null };
  const { deliveryId } = emitEvent(state, {
    tenantId: conv.tenantId,
    assistantId: conv.assistantId,
    type: 'end-of-conversation-report',
    model: 'A',
    body: {
      type: 'end-of-conversation-report',
      conversation_id: conv.id,
      channel: conv.channel,
      customer_identifier: conv.customerIdentifier,
      assistant_id: conv.assistantId,
      started_at: conv.startedAt,
      ended_at: conv.endedAt,
      messages: conv.messages.map((m) => ({ role: m.role, text: m.text })),
    },
  });
  return { id: conv.id, endedAt: conv.endedAt, deliveryId };
}

/** The conversation control endpoints: start one, end one. */
function registerConversationControl(app: FastifyInstance, state: SimState): void {
  app.post('/conversations', async (request, reply) => {
    const conv = startConversation(state, bodyObject(request.body));
    return reply.code(201).send({ id: conv.id });
  });

  app.post<{ Params: { id: string } }>('/conversations/:id/end', async (request) => endConversation(state, request.params.id));
}

/**
 * Records a tool invocation on a call from `{ callId, toolId }` (call id or its callId) and sends
 * its tool-invocation event (§6 model A); answers the delivery id.
 * @throws ControlError 400 on a bad field, 404 on an unknown call or a tool not the call's tenant's.
 */
function invokeTool(state: SimState, body: Record<string, unknown>): { deliveryId: string | null } {
  const ref = requiredString(body, 'callId');
  const toolId = requiredString(body, 'toolId');
  const calls = store.calls(state);
  const call = calls.get(ref) ?? [...calls.values()].find((c) => c.callId === ref);
  if (!call || call.deleted) throw new ControlError(404, 'unknown call');
  const tool = tenantTool(state, call.tenantId, toolId);
  if (!tool) throw new ControlError(404, 'unknown tool of that tenant');
  call.toolCalls.push({ toolId, toolName: tool.name, at: new Date().toISOString(), resultAfterMs: 180 });
  const { deliveryId } = emitEvent(state, {
    tenantId: call.tenantId,
    callId: call.id,
    type: 'tool-invocation',
    model: 'A',
    ...callRoute(state, call, 'tool-invocation'),
    body: {
      type: 'tool-invocation',
      call_id: call.id,
      tool_id: toolId,
      tool: { id: toolId, name: tool.name },
      arguments: {},
    },
  });
  return { deliveryId };
}

/** Plugin with the call, conversation and tool-invocation control endpoints. */
export const callsControl: FastifyPluginAsync = async (app) => {
  const state = app.sim;
  registerCallControl(app, state);
  registerConversationControl(app, state);
  app.post('/tool-invocations', async (request, reply) => reply.code(202).send(invokeTool(state, bodyObject(request.body))));
};
