/**
 * Bytes and headers of one delivery attempt under model A or model B (§6).
 *
 * Model A: compact JSON, `x-service-core-secret: <client server secret>` verbatim.
 * Model B: the body is pretty-printed (2-space indentation, trailing newline) so that any
 * re-serialisation (`JSON.stringify(JSON.parse(body))`, even with the same indentation) changes
 * the bytes; `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of exactly those bytes,
 * keyed by the client server secret>`, `X-Service-Delivery: <delivery id>`.
 *
 * Two seams: the signature of the bytes ({@link signature}) and the headers of an attempt
 * ({@link attemptHeaders}).
 */
import { createHmac } from 'node:crypto';
import { seam } from '../seam.ts';
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
  /** Configured delivery URL (no part of the spec's signature; see {@link signature}). */
  url?: string;
}

/**
 * §6 Model B rules 1, 2 and 4: the `X-Service-Signature` value for `body`, the exact bytes sent:
 * `sha256=` and the lowercase hex HMAC-SHA256 of those bytes keyed by the client server secret
 * `secret`. `url` (the configured delivery URL) takes no part: verification is independent of
 * host and URL.
 */
export const signature = seam('webhooks.signature', (secret: string, body: Buffer, _url: string | undefined): string => `sha256=${hmacHex(secret, body)}`);

/** The inputs of an attempt's headers. */
export interface HeaderInput {
  model: DeliveryModel;
  /** Client server secret of the tenant (§5.5). */
  secret: string;
  deliveryId: string;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
  /** The signature value (model B only). */
  signature?: string;
}

/**
 * §6: the headers (lower-case names, `host` aside) of one attempt. Every event is JSON
 * (`Content-Type: application/json`); model A carries `x-service-core-secret`, the client server
 * secret verbatim (rule A1); model B carries the signature and `X-Service-Delivery`, the delivery
 * id, the same on every retry (rules B1, B3).
 */
export const attemptHeaders = seam('webhooks.headers', (input: HeaderInput): Record<string, string> => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (input.model === 'A') headers['x-service-core-secret'] = input.secret;
  else {
    headers['x-service-signature'] = input.signature ?? '';
    headers['x-service-delivery'] = input.deliveryId;
  }
  return headers;
});

/** Body and headers of one attempt under the behaviour in force. */
export function buildAttempt(state: SimState, input: AttemptInput): AttemptRequest {
  const seams = state.behaviour;
  const { model, secret, deliveryId, attempt } = input;
  if (model === 'A') return { body: modelABody(input.body), headers: seams.of(attemptHeaders)({ model, secret, deliveryId, attempt }) };
  const body = modelBBody(input.body);
  const signed = seams.of(signature)(secret, body, input.url);
  return { body, headers: seams.of(attemptHeaders)({ model, secret, deliveryId, attempt, signature: signed }) };
}
