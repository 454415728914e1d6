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
 * Faults switched here (each breaks one rule; see faults.ts): `webhooks.shared-delivery-id`,
 * `webhooks.delivery-id-not-uuid` (delivery ids); `webhooks.supervisor-answered-string`,
 * `webhooks.no-call-id`, `webhooks.no-customer-identifier` (payload fields, applied to a copy of
 * the body); `webhooks.tool-event-model-b` (delivery model); `webhooks.path-dropped` (an
 * assistant serverUrl — any URL other than the tenant-level one — is requested at `/`); `webhooks.test-request-on-patch`
 * ({@link afterServerUrlPatch}); `webhooks.empty-2xx-drops-call` ({@link dropCallOnEmptyAnswer}).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { faultOn } from '../faults.ts';
import type { CallRecord, SimState } from '../state.ts';
import { startDelivery } from './delivery.ts';
import { rememberServerUrl, routeUrl } from './routing.ts';
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
   * configuration it began with (§1). Ignored under the `webhooks.ignore-server-url` fault.
   */
  url?: string;
  /** Called with the status and raw body bytes of each answer (see `PendingDelivery.onAnswer`). */
  onAnswer?: (status: number, body: Buffer) => void;
}

/**
 * Delivery id of a new event: a fresh UUID. Faults: `webhooks.delivery-id-not-uuid` gives a
 * `dlv_<24 hex>` token; `webhooks.shared-delivery-id` reuses the id of the tenant's latest
 * logged event of the same model (a fresh one when there is none).
 */
function newDeliveryId(state: SimState, tenantId: string, model: DeliveryModel): string {
  if (faultOn(state, 'webhooks.shared-delivery-id')) {
    const previous = [...deliveries(state).values()].reverse().find((d) => d.tenantId === tenantId && d.model === model);
    if (previous) return previous.deliveryId;
  }
  return faultOn(state, 'webhooks.delivery-id-not-uuid') ? `dlv_${randomBytes(12).toString('hex')}` : randomUUID();
}

/**
 * Where to send a delivery routed to `url`: `url` itself, or under the `webhooks.path-dropped`
 * fault `/` of its origin when `url` is not the tenant-level URL (§2.3 rule 5 concerns serverUrl).
 */
function sendUrl(state: SimState, url: string, tenantUrl: string | null): string | undefined {
  if (!faultOn(state, 'webhooks.path-dropped') || url === tenantUrl) return undefined;
  try {
    return new URL('/', url).href;
  } catch {
    return undefined;
  }
}

/** A copy of `body` with the payload faults applied (the emitter's object is left as is). */
function payloadWithFaults(state: SimState, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  if (faultOn(state, 'webhooks.no-call-id')) delete out.call_id;
  if (faultOn(state, 'webhooks.report-without-type') && out.type === 'end-of-call-report') delete out.type;
  if (faultOn(state, 'webhooks.no-customer-identifier')) delete out.customer_identifier;
  if (faultOn(state, 'webhooks.supervisor-answered-string') && typeof out.supervisor_answered === 'boolean') {
    out.supervisor_answered = String(out.supervisor_answered);
  }
  return out;
}

/**
 * Logs a delivery of `ev` and starts sending it in the background (fire-and-forget; never throws,
 * never waits for the network). Returns the delivery id at once (a UUID unless a fault says
 * otherwise); under model B it is the `X-Service-Delivery` of every attempt.
 */
export function emitEvent(state: SimState, ev: WebhookEvent): { deliveryId: string } {
  const model: DeliveryModel = ev.type === 'tool-invocation' && faultOn(state, 'webhooks.tool-event-model-b') ? 'B' : ev.model;
  const deliveryId = newDeliveryId(state, ev.tenantId, model);
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
  // Keyed by a private id, so records sharing a delivery id (a fault) all stay in the log.
  deliveries(state).set(randomUUID(), record);
  if (url && tenant) {
    const body = payloadWithFaults(state, ev.body);
    const sendTo = sendUrl(state, url, tenant.serverUrl);
    startDelivery(state, {
      record,
      url,
      secret: tenant.clientServerSecret,
      body,
      ...(sendTo ? { sendTo } : {}),
      ...(ev.onAnswer ? { onAnswer: ev.onAnswer } : {}),
    });
  }
  return { deliveryId };
}

/**
 * Hook for `PATCH /assistants/{id}` after a successful write: remembers the serverUrl the
 * assistant had before (`before`, see `rememberServerUrl`), and under the
 * `webhooks.test-request-on-patch` fault (a violation of §2.3 rule 3) sends one unlogged model-A
 * POST `{ "type": "test-request", "assistant_id" }` to the URL when the request body (`patch`)
 * set `serverUrl` to a string. Never throws; the POST runs in the background.
 */
export function afterServerUrlPatch(state: SimState, tenantId: string, assistantId: string, before: unknown, patch: unknown): void {
  rememberServerUrl(state, assistantId, before);
  if (!faultOn(state, 'webhooks.test-request-on-patch')) return;
  const url = (patch as { serverUrl?: unknown } | null)?.serverUrl;
  const tenant = state.tenants.get(tenantId);
  if (typeof url !== 'string' || url === '' || !tenant) return;
  const record: DeliveryRecord = { deliveryId: randomUUID(), tenantId, type: 'test-request', model: 'A', url, state: 'pending', attempts: [] };
  startDelivery(state, { record, url, secret: tenant.clientServerSecret, body: { type: 'test-request', assistant_id: assistantId } });
}

/** `endedReason` of a call ended by the `webhooks.empty-2xx-drops-call` fault. */
export const DROPPED_ON_EMPTY_ANSWER = 'assistant-request-empty-answer';

/**
 * `onAnswer` hook for a call's voice assistant-request. Normally it does nothing: §6 Model A
 * rule 4 says an empty 2xx is safe and the call proceeds. Under the `webhooks.empty-2xx-drops-call`
 * fault, a 2xx with an empty body ends the call at once (`endedAt` set, reason
 * {@link DROPPED_ON_EMPTY_ANSWER}): it is no longer live, and no end-of-call report is sent (the
 * control end of such a call answers 200 and emits nothing).
 */
export function dropCallOnEmptyAnswer(state: SimState, call: CallRecord): (status: number, body: Buffer) => void {
  return (status, body) => {
    if (!faultOn(state, 'webhooks.empty-2xx-drops-call')) return;
    if (status < 200 || status >= 300 || body.length > 0 || call.endedAt) return;
    call.endedAt = new Date().toISOString();
    call.endedReason = DROPPED_ON_EMPTY_ANSWER;
    call.agentAbsent = false;
  };
}
