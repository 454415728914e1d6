/**
 * Entry point for every webhook event of §6: other simulator modules (calls, conversations,
 * tools, onboarding) call {@link emitEvent} and go on; delivery happens in the background.
 *
 * Readings:
 * - No URL (assistant and tenant both unset, or the tenant was removed): nothing is sent; the
 *   delivery is still logged, `state: "failed"`, `url: null`, no attempts, so a test can see an
 *   event was emitted and had nowhere to go (§6 names no behaviour for this case).
 * - The `url` of the log is the configured URL as written (before `webhookConnectTo`).
 *
 * Seams: the delivery id of an event ({@link eventDeliveryId}), its delivery model
 * ({@link deliveryModel}), its payload ({@link payload}), whether it is sent at all
 * ({@link eventSent}), whether a serverUrl write sends a test request ({@link testRequestOnSet}),
 * and what an empty 2xx answer to a voice assistant-request does ({@link emptyAnswer}).
 */
import { randomUUID } from 'node:crypto';
import { seam } from '../seam.ts';
import type { CallRecord, SimState } from '../state.ts';
import { startDelivery } from './delivery.ts';
import { rememberServerUrl, rememberTenantUrlAtClear, requestUrl, routeUrl } from './routing.ts';
import { deliveries, type DeliveryModel, type DeliveryRecord } from './store.ts';

/** One event to deliver. */
export interface WebhookEvent {
  /** Tenant whose client server secret signs it and whose URLs route it. */
  tenantId: string;
  /** Assistant whose `serverUrl` is used when set (and `url` is not given). */
  assistantId?: string;
  /** Call the event belongs to (informational; voice bodies carry `call_id` themselves). */
  callId?: string;
  /** Event type; should equal `body.type` (§6: the body carries a `type` field). */
  type: string;
  /** JSON body sent (model B: pretty-printed and signed over the exact bytes). */
  body: Record<string, unknown>;
  /** Delivery model of the event (§6 table). */
  model: DeliveryModel;
  /**
   * Overrides routing: e.g. the URL snapshotted when a call started, so a call keeps the
   * configuration it began with (§1).
   */
  url?: string;
  /** Called with the status and raw body bytes of each answer (see `PendingDelivery.onAnswer`). */
  onAnswer?: (status: number, body: Buffer) => void;
}

/**
 * §6 Model B rules 1 and 3: the delivery id of a new event of `tenantId` under `model`: a fresh
 * UUID, one per event (receivers dedupe on it).
 */
export const eventDeliveryId = seam('webhooks.delivery-id', (_state: SimState, _tenantId: string, _model: DeliveryModel): string => randomUUID());

/** §6 table: the delivery model of an event of `type`, as its emitter states it (`model`). */
export const deliveryModel = seam('webhooks.delivery-model', (_type: string, model: DeliveryModel): DeliveryModel => model);

/**
 * §6: the body sent for an event, the emitter's fields as they are (a copy: the emitter's object
 * is left as is). Every body carries `type`; voice events carry `call_id`; messaging events
 * `conversation_id`, `channel`, `customer_identifier`; the end-of-call report a boolean
 * `supervisor_answered` (Model A rule 6).
 */
export const payload = seam('webhooks.payload', (body: Record<string, unknown>): Record<string, unknown> => ({ ...body }));

/**
 * §6 table, §1: whether an event of `type` (on a messaging `channel`, for conversation events)
 * is sent: every event in the table is.
 */
export const eventSent = seam('webhooks.event-sent', (_type: string, _channel?: string): boolean => true);

/** §2.3 rule 3: whether setting an assistant's serverUrl sends a test request to it: no. */
export const testRequestOnSet = seam('webhooks.test-request', (): boolean => false);

/**
 * §6 Model A rule 4: what a 2xx answer with an empty body to a voice assistant-request does: it
 * is safe, the call proceeds.
 */
export const emptyAnswer = seam('webhooks.empty-answer', (): 'proceed' | 'end-call' => 'proceed');

/**
 * Logs a delivery of `ev` and starts sending it in the background (fire-and-forget; never throws,
 * never waits for the network). Returns the delivery id at once (a UUID in the spec's
 * reading); under model B it is the `X-Service-Delivery` of every attempt.
 */
export function emitEvent(state: SimState, ev: WebhookEvent): { deliveryId: string } {
  const seams = state.behaviour;
  const model = seams.of(deliveryModel)(ev.type, ev.model);
  const deliveryId = seams.of(eventDeliveryId)(state, ev.tenantId, model);
  const tenant = state.tenants.get(ev.tenantId);
  const url = tenant ? routeUrl(state, ev) : null;
  const record: DeliveryRecord = {
    deliveryId,
    tenantId: ev.tenantId,
    type: ev.type,
    model,
    url,
    state: url && tenant ? 'pending' : 'failed',
    attempts: [],
  };
  // Keyed by a private id, so records sharing a delivery id (a reading that reuses ids) all stay in the log.
  deliveries(state).set(randomUUID(), record);
  if (url && tenant) {
    const sendTo = seams.of(requestUrl)(url, tenant.serverUrl);
    startDelivery(state, {
      record,
      url,
      secret: tenant.clientServerSecret,
      body: seams.of(payload)(ev.body),
      ...(sendTo !== url ? { sendTo } : {}),
      ...(ev.onAnswer ? { onAnswer: ev.onAnswer } : {}),
    });
  }
  return { deliveryId };
}

/**
 * Hook for `PATCH /assistants/{id}` after a successful write: remembers the serverUrl the
 * assistant had before (`before`, see `rememberServerUrl`) and, when the body cleared it, the
 * tenant-level URL then (`rememberTenantUrlAtClear`), and, in a reading that sends a test
 * request ({@link testRequestOnSet}), sends one unlogged model-A POST
 * `{ "type": "test-request", "assistant_id" }` to the URL when the request body (`patch`) set
 * `serverUrl` to a string. Never throws; the POST runs in the background.
 */
export function afterServerUrlPatch(state: SimState, tenantId: string, assistantId: string, before: unknown, patch: unknown): void {
  rememberServerUrl(state, assistantId, before);
  rememberTenantUrlAtClear(state, tenantId, assistantId, patch);
  if (!state.behaviour.of(testRequestOnSet)()) return;
  const url = (patch as { serverUrl?: unknown } | null)?.serverUrl;
  const tenant = state.tenants.get(tenantId);
  if (typeof url !== 'string' || url === '' || !tenant) return;
  const record: DeliveryRecord = { deliveryId: randomUUID(), tenantId, type: 'test-request', model: 'A', url, state: 'pending', attempts: [] };
  startDelivery(state, { record, url, secret: tenant.clientServerSecret, body: { type: 'test-request', assistant_id: assistantId } });
}

/** `endedReason` of a call that an empty answer ended ({@link emptyAnswer} `end-call`). */
export const DROPPED_ON_EMPTY_ANSWER = 'assistant-request-empty-answer';

/**
 * `onAnswer` hook for a call's voice assistant-request: a 2xx with an empty body does what
 * {@link emptyAnswer} says. The call proceeds (§6 Model A rule 4), or, in a reading that ends it,
 * it ends at once (`endedAt` set, reason {@link DROPPED_ON_EMPTY_ANSWER}): it is no longer live,
 * and no end-of-call report is sent (the control end of such a call answers 200 and emits nothing).
 */
export function dropCallOnEmptyAnswer(state: SimState, call: CallRecord): (status: number, body: Buffer) => void {
  return (status, body) => {
    if (status < 200 || status >= 300 || body.length > 0 || call.endedAt) return;
    if (state.behaviour.of(emptyAnswer)() !== 'end-call') return;
    call.endedAt = new Date().toISOString();
    call.endedReason = DROPPED_ON_EMPTY_ANSWER;
    call.agentAbsent = false;
  };
}
