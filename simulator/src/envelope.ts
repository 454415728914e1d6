/**
 * Response envelope (§2.1) and error model (§7) of the public API.
 *
 * Route handlers either `return ok(reply, data, status?)` or `throw new ApiError(...)` (or one of
 * the helpers `notFound()`, `validationError()`...). The error handler installed by server.ts
 * turns every thrown error into the failure envelope; anything that is not an ApiError becomes a
 * generic 500 INTERNAL_SERVER_ERROR with no internals in it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { seam } from './seam.ts';
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
    // An answer, not a defect: no stack trace is captured (the robustness phase makes thousands).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
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

/** §2.1: `metadata.timestamp`, the time the server answered (`now`, epoch ms), ISO 8601 in UTC. */
export const answerTime = seam('envelope.timestamp', (now: number): string => new Date(now).toISOString());

/** §2.1, §9.1: `metadata` of every envelope: the answer's time, the configured version, the requested path. */
export const envelopeMetadata = seam('envelope.metadata', (timestamp: string, version: string, path: string): Record<string, string> => ({
  timestamp,
  version,
  path,
}));

/** §2.1: `success` is the boolean `true` on a success envelope and `false` on a failure envelope. */
export const successFlag = seam('envelope.success', (value: boolean): boolean | string => value);

/**
 * §2.1: `metadata.path` is the path the client requested (`requested`, without the query), not
 * the router's pattern (`pattern`, e.g. `/assistants/:id`; undefined before routing).
 */
export const answeredPath = seam('envelope.path', (requested: string, _pattern: string | undefined): string => requested);

/** §7: the `error` object of a failure envelope: `code`, `message`, and `details` when the error has them. */
export const errorObject = seam('envelope.error', (err: ApiError): Record<string, unknown> => {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.details !== undefined) error.details = err.details;
  return error;
});

/** §7: the HTTP status of a failure: the error's own (400 for VALIDATION_ERROR and PARSE, 404 for both not-found codes, …). */
export const errorStatus = seam('envelope.error-status', (err: ApiError): number => err.status);

/** §7: a body that is not valid JSON is 400 PARSE. */
export const unparsableBody = seam('envelope.parse-error', (): ApiError => new ApiError(400, 'PARSE', 'Request body is not valid JSON'));

/** §7, §9.2: a request no route serves is 404 NOT_FOUND (a known path with a method not served included). */
export const unknownRoute = seam('envelope.unknown-route', (_request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> =>
  sendError(reply, new ApiError(404, 'NOT_FOUND', 'Route not found')),
);

/** §1 "responses are JSON": the Content-Type of an envelope, success (`success`) or failure (`error`). */
export const envelopeMediaType = seam('envelope.media-type', (_kind: 'success' | 'error'): string => 'application/json; charset=utf-8');

/** `metadata` of §2.1: ISO 8601 UTC timestamp, configured version, request path (no query). */
export function metadata(state: SimState, path: string): Record<string, string> {
  const seams = state.behaviour;
  return seams.of(envelopeMetadata)(seams.of(answerTime)(Date.now()), state.config.version, path);
}

/** The URL path of a request without its query string (§2.1 `metadata.path`). */
export function requestPath(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return request.server.sim.behaviour.of(answeredPath)(q === -1 ? url : url.slice(0, q), request.routeOptions?.url);
}

/** The success envelope object `{ success: true, data, metadata }` (§2.1). */
export function successBody(state: SimState, path: string, data: unknown): Record<string, unknown> {
  return { success: state.behaviour.of(successFlag)(true), data, metadata: metadata(state, path) };
}

/** The failure envelope object `{ success: false, error: {code, message, details?}, metadata }` (§7). */
export function errorBody(state: SimState, path: string, err: ApiError): Record<string, unknown> {
  const seams = state.behaviour;
  return { success: seams.of(successFlag)(false), error: seams.of(errorObject)(err), metadata: metadata(state, path) };
}

/**
 * Sends a success envelope with `data` and HTTP `status` (default 200). Use as
 * `return ok(reply, data)` in an async handler.
 */
export function ok(reply: FastifyReply, data: unknown, status = 200): FastifyReply {
  const state = reply.server.sim;
  return typed(reply.code(status), state.behaviour.of(envelopeMediaType)('success'), successBody(state, requestPath(reply.request), data));
}

/** Sends `body` as `type`: an object is serialised by Fastify under a JSON type, as its JSON text under any other. */
function typed(reply: FastifyReply, type: string, body: Record<string, unknown>): FastifyReply {
  return reply.type(type).send(/[/+]json\b/i.test(type) ? body : JSON.stringify(body));
}

/** Sends the failure envelope for `err`. */
export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  const state = reply.server.sim;
  return typed(
    reply.code(state.behaviour.of(errorStatus)(err)),
    state.behaviour.of(envelopeMediaType)('error'),
    errorBody(state, requestPath(reply.request), err),
  );
}
