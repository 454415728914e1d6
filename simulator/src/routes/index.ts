/**
 * Public route plugins of the simulator, one file per resource. To add a resource, write
 * `routes/<resource>.ts` exporting a `FastifyPluginAsync` and append it here (one line).
 *
 * Inside a plugin: declare `config: { scope }` on organization routes (types.ts `RouteScope`;
 * default `tenant`), read the caller with `tenantOf(request)` / `principalOf(request)` (auth.ts),
 * answer with `ok(reply, data, status?)` and fail with `throw notFound()` /
 * `throw validationError([...])` / `new Checker()` (envelope.ts, validation/checker.ts). Look up
 * tenant resources with `findOwned` (resources.ts) and keep new collections in
 * `app.sim.collection('<name>')` (state.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { assistantsRoutes } from './assistants.ts';
import { callsRoutes } from './calls.ts';
import { chatappRoutes } from './chatapp.ts';
import { insightsRoutes } from './insights.ts';
import { modelsRoutes } from './models.ts';
import { monitoringRoutes } from './monitoring.ts';
import { phoneNumbersRoutes } from './phone-numbers.ts';
import { promptsRoutes } from './prompts.ts';
import { smsRoutes } from './sms.ts';
import { testSuitesRoutes } from './test-suites.ts';
import { toolsRoutes } from './tools.ts';
import { organizationRoutes } from './organization.ts';
import { transcribersRoutes } from './transcribers.ts';
import { openApiRoutes } from './openapi.ts';

/** Registered in order by server.ts. */
export const routePlugins: FastifyPluginAsync[] = [
  assistantsRoutes,
  organizationRoutes,
  transcribersRoutes,
  callsRoutes,
  monitoringRoutes,
  insightsRoutes,
  smsRoutes,
  toolsRoutes,
  promptsRoutes,
  modelsRoutes,
  phoneNumbersRoutes,
  chatappRoutes,
  testSuitesRoutes,
  openApiRoutes,
];
