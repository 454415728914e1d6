/**
 * Assistant routes (§4.1, §4.2, §4.5): `GET /assistants`, `GET /assistants/{id}`,
 * `POST /assistants`, `PATCH /assistants/{id}`, `GET /assistants/{id}/tasks/overrides`.
 * Tenant-scoped (§5.7).
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { tenantOf } from '../auth.ts';
import { ok } from '../envelope.ts';
import { applyAssistantInput, assistantResponse, defaultAssistant } from '../model/assistant.ts';
import { findOwned, listOwned } from '../resources.ts';

type IdParams = { Params: { id: string } };

/** Plugin with the assistant routes. */
export const assistantsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  // List parameters (pagination, filters) are not shown (§4.5): none are read; order is not
  // guaranteed; every item is the full object.
  app.get('/assistants', async (request, reply) => {
    const tenantId = tenantOf(request);
    const assistants = listOwned(state.assistants, tenantId).map((r) => assistantResponse(r.data));
    return ok(reply, { assistants });
  });

  app.get<IdParams>('/assistants/:id', async (request, reply) => {
    const rec = findOwned(state, state.assistants, tenantOf(request), request.params.id, 'assistant');
    return ok(reply, assistantResponse(rec.data));
  });

  // The POST body is not shown (§4.5): it accepts the PATCH fields of §2.2 with the same rules;
  // omitted ones take defaults. Answers 201 with the full object.
  app.post('/assistants', async (request, reply) => {
    const tenantId = tenantOf(request);
    const now = new Date().toISOString();
    const id = randomUUID();
    const data = applyAssistantInput(state, defaultAssistant(id, now), request.body, now);
    data.createdAt = now;
    state.assistants.set(id, { tenantId, data });
    return ok(reply, assistantResponse(data), 201);
  });

  // The id is looked up before the body is validated: an unknown or foreign id answers 404 even
  // with an invalid body, so validation never reveals another tenant's assistant.
  app.patch<IdParams>('/assistants/:id', async (request, reply) => {
    const rec = findOwned(state, state.assistants, tenantOf(request), request.params.id, 'assistant');
    rec.data = applyAssistantInput(state, rec.data, request.body, new Date().toISOString());
    return ok(reply, assistantResponse(rec.data));
  });

  app.get<IdParams>('/assistants/:id/tasks/overrides', async (request, reply) => {
    const tenantId = tenantOf(request);
    const rec = findOwned(state, state.assistants, tenantId, request.params.id, 'assistant');
    const overrides = [...state.taskOverrides.values()]
      .filter((o) => o.tenantId === tenantId && o.assistantId === rec.data.id)
      .map(({ tenantId: _t, ...o }) => o);
    return ok(reply, overrides);
  });
};
