/**
 * Bytes and headers of one delivery attempt under model A or model B (§6).
 *
 * Model A: compact JSON, `x-service-core-secret: <client server secret>` verbatim.
 * Model B: the body is pretty-printed (2-space indentation, trailing newline) so that any
 * re-serialisation (`JSON.stringify(JSON.parse(body))`, even with the same indentation) changes
 * the bytes; `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of exactly those bytes,
 * keyed by the client server secret>`, `X-Service-Delivery: <delivery id>`.
 *
 * Faults (each breaks one §6 rule): `webhooks.sign-reserialised`, `webhooks.wrong-secret`,
 * `webhooks.drop-sha256-prefix`, `webhooks.new-delivery-id-on-retry`,
 * `webhooks.model-a-secret-missing`, `webhooks.text-plain` (§6: events are JSON bodies).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { faultOn } from '../faults.ts';
import type { SimState } from '../state.ts';
import type { DeliveryModel } from './store.ts';

/** Model B body bytes: 2-space indented JSON plus a trailing newline (UTF-8). */
export function modelBBody(body: Record<string, unknown>): Buffer {
  return Buffer.from(`${JSON.stringify(body, null, 2)}\n`, 'utf8');
}

/** Model A body bytes: compact JSON (UTF-8). */
export function modelABody(body: Record<string, unknown>): Buffer {
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/** Lowercase hex HMAC-SHA256 of `bytes` keyed by `secret` (§6 Model B rule 1). */
export function hmacHex(secret: string, bytes: Buffer): string {
  return createHmac('sha256', secret).update(bytes).digest('hex');
}

/** What one attempt sends. */
export interface AttemptRequest {
  /** Raw body bytes sent. */
  body: Buffer;
  /** Headers (lower-case names) besides `host`. */
  headers: Record<string, string>;
}

/** Inputs of {@link buildAttempt}. */
export interface AttemptInput {
  model: DeliveryModel;
  deliveryId: string;
  /** Client server secret of the tenant (§5.5). */
  secret: string;
  /** Event body (carries `type`). */
  body: Record<string, unknown>;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
  /** Configured delivery URL (read only by the fault `webhooks.sign-with-host`). */
  url?: string;
}

/** Body and headers of one attempt, with the switched-on faults applied. */
export function buildAttempt(state: SimState, input: AttemptInput): AttemptRequest {
  const headers: Record<string, string> = { 'content-type': faultOn(state, 'webhooks.text-plain') ? 'text/plain' : 'application/json' };
  if (input.model === 'A') {
    if (!faultOn(state, 'webhooks.model-a-secret-missing')) headers['x-service-core-secret'] = input.secret;
    return { body: modelABody(input.body), headers };
  }
  const retry = input.attempt > 1;
  const body = modelBBody(input.body);
  const signed = faultOn(state, 'webhooks.sign-reserialised') ? Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))), 'utf8') : body;
  const key = faultOn(state, 'webhooks.wrong-secret') ? `${input.secret}x` : input.secret;
  // Fault: the host name is signed with the body, so verification breaks behind a tunnel.
  const withHost = faultOn(state, 'webhooks.sign-with-host') && input.url ? Buffer.concat([Buffer.from(new URL(input.url).host, 'utf8'), signed]) : signed;
  const hex = hmacHex(key, withHost);
  headers['x-service-signature'] = faultOn(state, 'webhooks.drop-sha256-prefix') ? hex : `sha256=${hex}`;
  headers['x-service-delivery'] = retry && faultOn(state, 'webhooks.new-delivery-id-on-retry') ? randomUUID() : input.deliveryId;
  return { body, headers };
}
