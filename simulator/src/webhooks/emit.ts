/**
 * Entry point for every webhook event of §6: other simulator modules (calls, conversations,
 * tools, onboarding) call {@link emitEvent} and go on; delivery happens in the background.
 *
 * Readings:
 * - No URL (assistant and tenant both unset, or the tenant was removed): nothing is sent; the
 *   delivery is still logged, `state: "failed"`, `url: null`, no attempts, so a test can see an
 *   event was emitted and had nowhere to go (§6 names no behaviour for this case).
 * - The `url` of the log is the configured URL as written (before `webhookConnectTo`).
 */
import { randomUUID } from 'node:crypto';
import type { SimState } from '../state.ts';
import { startDelivery } from './delivery.ts';
import { routeUrl } from './routing.ts';
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
}

/**
 * Logs a delivery of `ev` and starts sending it in the background (fire-and-forget; never throws,
 * never waits for the network). Returns the delivery id (uuid) at once; under model B it is the
 * `X-Service-Delivery` of every attempt.
 */
export function emitEvent(state: SimState, ev: WebhookEvent): { deliveryId: string } {
  const deliveryId = randomUUID();
  const tenant = state.tenants.get(ev.tenantId);
  const url = tenant ? routeUrl(state, ev) : null;
  const record: DeliveryRecord = {
    deliveryId,
    tenantId: ev.tenantId,
    type: ev.type,
    model: ev.model,
    url,
    state: url && tenant ? 'pending' : 'failed',
    attempts: [],
  };
  deliveries(state).set(deliveryId, record);
  if (url && tenant) {
    startDelivery(state, { record, url, secret: tenant.clientServerSecret, body: ev.body });
  }
  return { deliveryId };
}
