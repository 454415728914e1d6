/**
 * The deliveries log (control `GET /__control/deliveries`): one record per emitted event, kept in
 * `state.collection('webhookDeliveries')` so `POST /__control/reset` empties it with the rest of
 * the state. Records are in emission order (a Map keeps insertion order).
 */
import type { SimState } from '../state.ts';
import type { DeliveryModel } from './policy.ts';

export type { DeliveryModel } from './policy.ts';

/** One attempt as the contract lists it: when it was sent and the HTTP status answered. */
export interface DeliveryAttempt {
  /** ISO-8601 time (ms precision) at which the attempt was sent. */
  at: string;
  /** HTTP status of the answer; null when there was none (timeout, refused, unresolvable host). */
  status: number | null;
}

/** A stored delivery. Only the fields of {@link DeliveryView} leave the simulator. */
export interface DeliveryRecord {
  /** Delivery id (uuid); the `X-Service-Delivery` header of model B (§6 Model B rule 1). */
  deliveryId: string;
  /** Owning tenant (filter of the control read). */
  tenantId: string;
  /** Event `type` as carried in the body. */
  type: string;
  model: DeliveryModel;
  /** The URL the event was routed to, as configured (before `webhookConnectTo`); null when none was set. */
  url: string | null;
  /** `pending` while an attempt is in flight or a retry is scheduled. */
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
}

/** A delivery as `GET /__control/deliveries` answers it (control-api.md). */
export interface DeliveryView {
  deliveryId: string;
  type: string;
  model: DeliveryModel;
  url: string | null;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
}

const COLLECTION = 'webhookDeliveries';

/** The deliveries Map of this state (keyed by a private id; records carry the delivery id). A reset replaces it with an empty one. */
export function deliveries(state: SimState): Map<string, DeliveryRecord> {
  return state.collection<DeliveryRecord>(COLLECTION);
}

/** The control view of one record (copies; the tenant id and internals are left out). */
export function toView(rec: DeliveryRecord): DeliveryView {
  return {
    deliveryId: rec.deliveryId,
    type: rec.type,
    model: rec.model,
    url: rec.url,
    state: rec.state,
    attempts: rec.attempts.map((a) => ({ ...a })),
  };
}

/** Deliveries of one tenant in emission order, as control views. */
export function deliveriesOf(state: SimState, tenantId: string): DeliveryView[] {
  return [...deliveries(state).values()].filter((d) => d.tenantId === tenantId).map(toView);
}
