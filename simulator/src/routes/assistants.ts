/**
 * Assistant routes (§4.1, §4.2, §4.5): `GET /assistants`, `GET /assistants/{id}`,
 * `POST /assistants`, `PATCH /assistants/{id}`, `GET /assistants/{id}/tasks/overrides`.
 * Tenant-scoped (§5.7).
 */
import { isAlt } from '../personality.ts';
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { principalOf, tenantOf } from '../auth.ts';
import { faultOn } from '../faults.ts';
import { forbidden, ok } from '../envelope.ts';
import { applyAssistantInput, assistantResponse, defaultAssistant } from '../model/assistant.ts';
import { findOwned, foreignAnswerDelay, listOwned } from '../resources.ts';
import { afterServerUrlPatch } from '../webhooks/emit.ts';

type IdParams = { Params: { id: string } };

/** Plugin with the assistant routes. */
export const assistantsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;

  /** The §2.2 response column of `data`, bent by the response-shape faults. */
  const shown = (data: Record<string, unknown>): Record<string, unknown> => {
    const out = assistantResponse(data);
    if (faultOn(state, 'assistants.updated-at-missing')) delete out.updatedAt;
    if (faultOn(state, 'assistants.created-at-text')) out.createdAt = 'recently';
    if (faultOn(state, 'assistants.feature-flags-strings')) out.featureFlags = { betaVoice: 'true' };
    if (faultOn(state, 'assistants.transfer-settings-as-string') && out.transferSettings !== null) out.transferSettings = JSON.stringify(out.transferSettings);
    return out;
  };

  // List parameters (pagination, filters) are not shown (§4.5): none are read; order is not
  // guaranteed; every item is the full object.
  app.get('/assistants', async (request, reply) => {
    const tenantId = tenantOf(request);
    const p = principalOf(request);
    const leak = p.keyType === 'organization' && faultOn(state, 'xtenant.list-leak');
    const owned = leak
      ? [...state.assistants.values()].filter((r) => state.tenants.get(r.tenantId)?.organizationId === p.organizationId)
      : listOwned(state.assistants, tenantId);
    const assistants = owned.map((r) => assistantResponse(r.data));
    if (faultOn(state, 'assistants.list-without-name')) for (const a of assistants) delete (a as Record<string, unknown>).name;
    return ok(reply, { assistants });
  });

  app.get<IdParams>('/assistants/:id', async (request, reply) => {
    const other = state.assistants.get(request.params.id);
    const delayMs = other && other.tenantId !== tenantOf(request) ? state.behaviour.of(foreignAnswerDelay)('assistant', 'envelope') : 0;
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    const rec = findOwned(state, state.assistants, tenantOf(request), request.params.id, 'assistant');
    return ok(reply, shown(rec.data));
  });

  // The POST body is not shown (§4.5): it accepts the PATCH fields of §2.2 with the same rules;
  // omitted ones take defaults. Answers 201 with the full object.
  app.post('/assistants', async (request, reply) => {
    const tenantId = tenantOf(request);
    const now = new Date().toISOString();
    const id = randomUUID();
    const body = request.body;
    let input = body;
    if (faultOn(state, 'assistants.create-ignores-transfer-settings') && body && typeof body === 'object') {
      const { transferSettings: _dropped, ...rest } = body as Record<string, unknown>;
      input = rest;
    }
    const data = applyAssistantInput(state, defaultAssistant(id, now), input, now);
    data.createdAt = now;
    state.assistants.set(id, { tenantId, data });
    return ok(reply, assistantResponse(data), 201);
  });

  // The id is looked up before the body is validated: an unknown or foreign id answers 404 even
  // with an invalid body, so validation never reveals another tenant's assistant.
  // The alt personality validates first (the spec orders neither way): an invalid body answers 400
  // for every id, so it still reveals nothing about another tenant's assistant.
  app.patch<IdParams>('/assistants/:id', async (request, reply) => {
    if (isAlt(state)) applyAssistantInput(state, defaultAssistant(request.params.id, new Date().toISOString()), request.body, new Date().toISOString());
    const other = state.assistants.get(request.params.id);
    if (other && other.tenantId !== tenantOf(request) && faultOn(state, 'xtenant.foreign-assistant-write')) {
      other.data = applyAssistantInput(state, other.data, request.body, new Date().toISOString());
      return ok(reply, assistantResponse(other.data));
    }
    if (!other && faultOn(state, 'assistants.unknown-patch-403')) throw forbidden();
    const rec = findOwned(state, state.assistants, tenantOf(request), request.params.id, 'assistant');
    const before = rec.data.serverUrl;
    const stale = shown(rec.data);
    rec.data = applyAssistantInput(state, rec.data, request.body, new Date().toISOString());
    afterServerUrlPatch(state, rec.tenantId, request.params.id, before, request.body);
    // Faults: the answer is the assistant as it was before the write, or lacks serverUrl.
    const answer = faultOn(state, 'assistants.patch-returns-stale') ? stale : shown(rec.data);
    if (faultOn(state, 'assistants.patch-omits-server-url')) delete answer.serverUrl;
    return ok(reply, answer);
  });

  app.get<IdParams>('/assistants/:id/tasks/overrides', async (request, reply) => {
    const tenantId = tenantOf(request);
    if (!state.assistants.has(request.params.id) && faultOn(state, 'taskoverrides.unknown-assistant-empty')) return ok(reply, []);
    const rec = findOwned(state, state.assistants, tenantId, request.params.id, 'assistant');
    const overrides = [...state.taskOverrides.values()]
      .filter((o) => o.tenantId === tenantId && o.assistantId === rec.data.id)
      .map(({ tenantId: _t, ...o }) => {
        const out: Record<string, unknown> = { ...o };
        if (o.instructionOverride === null && faultOn(state, 'taskoverrides.null-dropped')) delete out.instructionOverride;
        return out;
      });
    return ok(reply, faultOn(state, 'taskoverrides.object-not-array') ? { overrides } : overrides);
  });
};
