/**
 * Assistant routes (§4.1, §4.2, §4.5): `GET /assistants`, `GET /assistants/{id}`,
 * `POST /assistants`, `PATCH /assistants/{id}`, `GET /assistants/{id}/tasks/overrides`.
 * Tenant-scoped (§5.7). What each route shows and acts on is a seam below, with the spec's
 * reading as its default; the order of a PATCH's checks is `patchOrder` (model/assistant.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { principalOf, tenantOf } from '../auth.ts';
import { ok } from '../envelope.ts';
import { applyAssistantInput, assistantResponse, defaultAssistant, patchOrder } from '../model/assistant.ts';
import { findOwned, listOwned, lookUpOwned } from '../resources.ts';
import { seam } from '../seam.ts';
import type { AssistantRecord, SimState } from '../state.ts';
import type { Principal } from '../types.ts';
import { afterServerUrlPatch } from '../webhooks/emit.ts';

type Obj = Record<string, unknown>;
interface IdParams {
  Params: { id: string };
}

/** Where an assistant is shown: a GET of one, a row of the list, a create's or a PATCH's answer. */
export type ShownIn = 'read' | 'list' | 'create' | 'patch';

/** §2.2: the assistant as an answer shows it (`where`): exactly the 42 response properties. */
export const shown = seam('assistants.shown', (data: Obj, _where: ShownIn): Obj => assistantResponse(data));

/**
 * §4.5, §5.7: the assistants `GET /assistants` lists for `principal` acting on `tenantId`: that
 * tenant's own, whatever the key (an organization key names its tenant in X-Tenant-Id).
 */
export const listed = seam('assistants.listed', (state: SimState, _principal: Principal, tenantId: string): AssistantRecord[] =>
  listOwned(state.assistants, tenantId),
);

/**
 * §4.5: the assistant `POST /assistants` makes from `body`: the PATCH fields of §2.2 with the
 * same rules, omitted ones at their defaults. Throws ApiError 400 VALIDATION_ERROR.
 */
export const created = seam('assistants.created', (state: SimState, body: unknown, id: string, now: string): Obj => {
  const data = applyAssistantInput(state, defaultAssistant(id, now), body, now);
  data.createdAt = now;
  return data;
});

/**
 * §4.1, §5.7: the stored assistant a PATCH of `id` writes: the tenant's own; an unknown id and
 * another tenant's answer the same 404 RESOURCE_NOT_FOUND.
 */
export const written = seam('assistants.written', (state: SimState, tenantId: string, id: string): AssistantRecord =>
  findOwned(state, state.assistants, tenantId, id, 'assistant'),
);

/**
 * §4.1 (omitted fields stay unchanged): what a PATCH merges its body into, given the stored data
 * it read and a reader of the stored data now: the stored data now, read in the same step as the
 * write, so PATCHes sent at once each merge into what the other wrote.
 */
export const mergeBase = seam('assistants.merge-base', (_read: Obj, current: () => Obj): Obj | Promise<Obj> => current());

/** §4.1: what a PATCH answers, given the stored data before and after the write: the updated assistant. */
export const patchAnswer = seam('assistants.patch-answer', (_before: Obj, after: Obj): Obj => after);

/**
 * §4.2, §2.8: what `GET /assistants/{id}/tasks/overrides` answers for the tenant's assistant
 * `id`: an array of its task overrides (each with `instructionOverride`, null included). Throws
 * ApiError 404 RESOURCE_NOT_FOUND for an id the tenant does not own.
 */
export const taskOverridesOf = seam('assistants.task-overrides', (state: SimState, tenantId: string, id: string): unknown => {
  const rec = findOwned(state, state.assistants, tenantId, id, 'assistant');
  return [...state.taskOverrides.values()]
    .filter((o) => o.tenantId === tenantId && o.assistantId === rec.data.id)
    .map(({ tenantId: _t, ...o }): Obj => ({ ...o }));
});

/** Plugin with the assistant routes. */
export const assistantsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;
  const seams = () => state.behaviour;

  // List parameters (pagination, filters) are not shown (§4.5): none are read; order is not
  // guaranteed; every item is the full object.
  app.get('/assistants', async (request, reply) => {
    const owned = seams().of(listed)(state, principalOf(request), tenantOf(request));
    return ok(reply, { assistants: owned.map((r) => seams().of(shown)(r.data, 'list')) });
  });

  app.get<IdParams>('/assistants/:id', async (request, reply) => {
    const rec = await lookUpOwned(state, state.assistants, tenantOf(request), request.params.id, 'assistant');
    return ok(reply, seams().of(shown)(rec.data, 'read'));
  });

  // The POST body is not shown (§4.5): it accepts the PATCH fields of §2.2 with the same rules;
  // omitted ones take defaults. Answers 201 with the full object.
  app.post('/assistants', async (request, reply) => {
    const tenantId = tenantOf(request);
    const id = randomUUID();
    const data = seams().of(created)(state, request.body, id, new Date().toISOString());
    state.assistants.set(id, { tenantId, data });
    return ok(reply, seams().of(shown)(data, 'create'), 201);
  });

  // §4.1: an unknown or foreign id answers 404 and an invalid body 400, and neither changes
  // anything; which is checked first is the reading's choice (patchOrder), and either way nothing
  // about another tenant's assistant shows. The answer is the updated assistant.
  app.patch<IdParams>('/assistants/:id', async (request, reply) => {
    const tenantId = tenantOf(request);
    const { id } = request.params;
    const now = new Date().toISOString();
    const rec = seams().of(patchOrder)(
      () => seams().of(written)(state, tenantId, id),
      () => applyAssistantInput(state, defaultAssistant(id, now), request.body, now),
    );
    const before = rec.data;
    const base = await seams().of(mergeBase)(before, () => rec.data);
    rec.data = applyAssistantInput(state, base, request.body, now);
    afterServerUrlPatch(state, rec.tenantId, id, before.serverUrl, request.body);
    return ok(reply, seams().of(shown)(seams().of(patchAnswer)(before, rec.data), 'patch'));
  });

  app.get<IdParams>('/assistants/:id/tasks/overrides', async (request, reply) => {
    return ok(reply, seams().of(taskOverridesOf)(state, tenantOf(request), request.params.id));
  });
};
