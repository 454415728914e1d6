/**
 * Faults of the route map (§1, §9.2): which routes the API serves, at which path. Each overrides
 * one seam of request-input.ts or envelope.ts. Probes: simulator/test/faults/routes.test.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ok, requestPath, unknownRoute } from '../envelope.ts';
import { startCall } from '../control/calls.ts';
import { servedAtRoot } from '../request-input.ts';
import { callView } from '../routes/calls.ts';
import type { CallRecord } from '../state.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** A version prefix (`/v2`, `/v1`) before a path that is not itself served under it, or null. */
function versionPrefixed(url: string): string | null {
  const m = /^\/v\d+(\/.*)$/.exec(url);
  return m ? m[1] : null;
}

/**
 * Answers a request under a version prefix as the path without it would be answered (a router
 * mounted twice, at the root and under `/v1`/`/v2`): the request is sent again, unprefixed, with
 * the same method and headers (the body of an unknown route is not read, so none is sent).
 */
async function servedWithoutPrefix(request: FastifyRequest, reply: FastifyReply, next: () => FastifyReply | Promise<FastifyReply>): Promise<FastifyReply> {
  const rest = versionPrefixed(request.raw.url ?? request.url);
  if (rest === null) return next();
  return answeredAs(request, reply, request.method, rest, next);
}

/**
 * Answers `request` with what `method` `url` answers (sent again in-process with the same
 * headers, no body: the body of an unknown route is not read); `next` when that is an unknown route too.
 */
async function answeredAs(
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
  url: string,
  next: () => FastifyReply | Promise<FastifyReply>,
): Promise<FastifyReply> {
  const headers = { ...request.headers };
  delete headers['content-length'];
  delete headers['content-type'];
  const res = await reply.server.inject({ method: method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url, headers });
  if (res.statusCode === 404 && res.json<{ error?: { code?: string } }>()?.error?.code === 'NOT_FOUND') return next();
  const type = res.headers['content-type'];
  if (typeof type === 'string') void reply.type(type);
  return reply.code(res.statusCode).send(res.body);
}

/** The route-map faults. */
export const ROUTES_FAULTS = defineFaults([
  {
    name: 'routes.root-path-404',
    clauses: ['9.2/root-path'],
    description: 'GET /assistants is not served at the root path (404 NOT_FOUND), as if it sat under a version prefix.',
    override: override(servedAtRoot, (next) => (method, path) => !(method === 'GET' && path === '/assistants') && next(method, path)),
  },
  {
    name: 'calls.outbound-accepted',
    clauses: ['1/calls-read-only'],
    description: "POST /calls answers 201 with a new call (of the caller's first assistant) instead of 404 NOT_FOUND.",
    override: override(unknownRoute, (next) => (request, reply) => {
      if (request.method !== 'POST' || requestPath(request) !== '/calls') return next(request, reply);
      const state = reply.server.sim;
      const tenantId = request.principal?.tenantId ?? null;
      const assistant = tenantId ? [...state.assistants.values()].find((a) => a.tenantId === tenantId) : undefined;
      if (!tenantId || !assistant) return next(request, reply);
      return ok(reply, callView(startCall(state, tenantId, assistant.data.id as string, null)), 201);
    }),
  },
  {
    name: 'routes.version-prefix-alias',
    clauses: ['9.2/root-path', '7/route-not-found'],
    description:
      'Every route is also served under any version prefix (/v1/assistants, /v2/calls/{id}), as a router mounted at the root and under /vN alike, instead of 404 NOT_FOUND there.',
    override: override(unknownRoute, (next) => (request, reply) => servedWithoutPrefix(request, reply, () => next(request, reply))),
  },
  {
    name: 'routes.trailing-slash-read',
    clauses: ['9.2/trailing-slash'],
    description:
      'A path with a trailing slash is aliased to the read of the path without it, whatever the method: PATCH /assistants/{id}/ answers 200 with the assistant unchanged, claiming a write it did not make.',
    override: override(unknownRoute, (next) => (request, reply) => {
      const path = requestPath(request);
      if (path.length < 2 || !path.endsWith('/') || request.method === 'GET') return next(request, reply);
      return answeredAs(request, reply, 'GET', path.slice(0, -1), () => next(request, reply));
    }),
  },
  {
    name: 'routes.calls-delete-served',
    clauses: ['1/calls-read-only'],
    description:
      "DELETE /calls/{id} is served (a framework's generated CRUD route): it deletes the tenant's call and answers 204, so the read-only calls API loses a record.",
    override: override(unknownRoute, (next) => (request, reply) => {
      const m = /^\/calls\/([^/]+)$/.exec(requestPath(request));
      const tenantId = request.principal?.tenantId;
      const call = m && tenantId && request.method === 'DELETE' ? reply.server.sim.collection<CallRecord>('calls').get(m[1]) : undefined;
      if (!call || call.tenantId !== tenantId) return next(request, reply);
      call.deleted = true;
      return reply.code(204).send();
    }),
  },
]);
