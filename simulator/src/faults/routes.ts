/**
 * Faults of the route map (§1, §9.2): which routes the API serves, at which path. Each overrides
 * one seam of request-input.ts or envelope.ts. Probes: simulator/test/faults/routes.test.ts.
 */
import { ok, requestPath, unknownRoute } from '../envelope.ts';
import { startCall } from '../control/calls.ts';
import { servedAtRoot } from '../request-input.ts';
import { callView } from '../routes/calls.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

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
]);
