/**
 * Response envelope (§2.1) and error model (§7) of the public API.
 *
 * Route handlers either `return ok(reply, data, status?)` or `throw new ApiError(...)` (or one of
 * the helpers `notFound()`, `validationError()`...). The error handler installed by server.ts
 * turns every thrown error into the failure envelope; anything that is not an ApiError becomes a
 * generic 500 INTERNAL_SERVER_ERROR with no internals in it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { faultOn } from './faults.ts';
import type { SimState } from './state.ts';

/** One failing field of a 400 VALIDATION_ERROR (§4.1, §7): `field` is a dotted path. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An error that maps to one failure envelope: HTTP `status`, `error.code`, `error.message` and
 * optional `error.details`. Throw it from handlers or hooks.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Message used for every 404 RESOURCE_NOT_FOUND, so unknown and foreign ids read alike (§5.7). */
export const RESOURCE_NOT_FOUND_MESSAGE = 'Resource not found';

/** 404 RESOURCE_NOT_FOUND (§7): unknown id, malformed id, or another tenant's resource (§5.7). */
export function notFound(): ApiError {
  return new ApiError(404, 'RESOURCE_NOT_FOUND', RESOURCE_NOT_FOUND_MESSAGE);
}

/** 400 VALIDATION_ERROR (§7) with `details` = one `{field, message}` per failing field. */
export function validationError(details: FieldError[]): ApiError {
  return new ApiError(400, 'VALIDATION_ERROR', 'Validation failed', details);
}

/** 401 UNAUTHORIZED (§5.6); the message never says which part of the credentials was wrong. */
export function unauthorized(): ApiError {
  return new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid credentials');
}

/** 403 FORBIDDEN (§5.6): valid key, tenant not allowed. */
export function forbidden(message = 'Not allowed for this tenant'): ApiError {
  return new ApiError(403, 'FORBIDDEN', message);
}

/** 403 ORG_SCOPE_REQUIRED (§5.6): tenant key on an organization-only route. */
export function orgScopeRequired(): ApiError {
  return new ApiError(403, 'ORG_SCOPE_REQUIRED', 'This route requires an organization key');
}

/** 500 INTERNAL_SERVER_ERROR with the generic message of §7. */
export function internalError(): ApiError {
  return new ApiError(500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
}

/** `metadata` of §2.1: ISO 8601 UTC timestamp, configured version, request path (no query). */
export function metadata(state: SimState, path: string): Record<string, string> {
  const m: Record<string, string> = { timestamp: timestampOf(state) };
  if (!faultOn(state, 'envelope.drop-version')) m.version = state.config.version;
  m.path = path;
  return m;
}

/**
 * `metadata.timestamp`: now, ISO 8601 in UTC. Faults: `envelope.timestamp-local-offset` (the same
 * instant written in UTC+02:00), `envelope.timestamp-cached` (a value five minutes old, as a cached
 * envelope would carry).
 */
function timestampOf(state: SimState): string {
  const now = Date.now();
  if (faultOn(state, 'envelope.timestamp-cached')) return new Date(now - 5 * 60_000).toISOString();
  if (faultOn(state, 'envelope.timestamp-local-offset')) return `${new Date(now + 2 * 3_600_000).toISOString().slice(0, 23)}+02:00`;
  return new Date(now).toISOString();
}

/** The URL path of a request without its query string. */
export function requestPath(request: FastifyRequest): string {
  // Fault: the router's pattern (`/assistants/:id`) instead of the path that was requested.
  const pattern = request.routeOptions?.url;
  if (pattern && faultOn(request.server.sim, 'envelope.path-route-pattern')) return pattern;
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function successValue(state: SimState, value: boolean): boolean | string {
  return faultOn(state, 'envelope.success-string') ? String(value) : value;
}

/** The success envelope object `{ success: true, data, metadata }` (§2.1). */
export function successBody(state: SimState, path: string, data: unknown): Record<string, unknown> {
  return { success: successValue(state, true), data, metadata: metadata(state, path) };
}

/** The failure envelope object `{ success: false, error: {code, message, details?}, metadata }` (§7). */
export function errorBody(state: SimState, path: string, err: ApiError): Record<string, unknown> {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.status === 404 && faultOn(state, 'envelope.not-found-without-message')) delete error.message;
  if (err.details !== undefined) error.details = err.details;
  return { success: successValue(state, false), error, metadata: metadata(state, path) };
}

/**
 * Sends a success envelope with `data` and HTTP `status` (default 200). Use as
 * `return ok(reply, data)` in an async handler.
 */
export function ok(reply: FastifyReply, data: unknown, status = 200): FastifyReply {
  const state = reply.server.sim;
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(successBody(state, requestPath(reply.request), data));
}

/** Sends the failure envelope for `err`. */
export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  const state = reply.server.sim;
  // Fault `validation.422-status`: a validation failure answers 422 (the wrong status for §7's 400).
  const status = err.status === 400 && err.code === 'VALIDATION_ERROR' && faultOn(state, 'validation.422-status') ? 422 : err.status;
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(state, requestPath(reply.request), err));
}
