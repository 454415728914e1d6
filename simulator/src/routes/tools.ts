/**
 * Tools and per-assistant tool overrides (§4.5).
 *
 * Tool shape (`data` of every tool answer): `{ id, name, type: "function"|"knowledge_base",
 * instruction, textInstructions, createdAt, updatedAt }`. `instruction` and `textInstructions`
 * share one shape `{ title, description, steps }` (§4.5); `textInstructions` is null when the tool
 * has none. A step may be sent as a string (stored as `{ id, text }`) or an object (kept as sent);
 * a step without a string `id` gets a generated one, so send your own ids to keep step overrides
 * attached across PUTs.
 *
 * - `POST /tools { name?, instruction, textInstructions? }` → 201.
 * - `PUT /tools/{id} { name?, instruction?, textInstructions? }` → 200. Omitted fields stay;
 *   `textInstructions: null` removes it, omitting it keeps the stored value.
 * - `PUT /tools/{id}/instruction`: body is the instruction itself `{ title, description, steps }`
 *   (or `{ instruction: {...} }`), plus optional `textInstructions` (same keep/remove rules). On the
 *   built-in Knowledge Base tool ({@link KNOWLEDGE_BASE_TOOL_ID}) the first write makes the
 *   caller's tenant copy; other tenants keep the default. Works on the caller's own tools too.
 * - Added (not in the spec): `GET /tools` (the caller's tools plus the Knowledge Base tool as
 *   that tenant sees it) and `GET /tools/{id}`.
 *
 * Per-assistant overrides (voice and text independent; the tool must be the caller's or the
 * Knowledge Base tool, the assistant the caller's; otherwise 404 RESOURCE_NOT_FOUND):
 * - `PUT .../tools/{toolId}/description-override { description }`: voice description.
 * - `PUT .../tools/{toolId}/text-description-override { description }`: text description.
 * - `PUT .../tools/{toolId}/steps/{stepId}/text-override { text }` (alias `description`): text of
 *   one step; `stepId` must be a step id of the tool's instruction or textInstructions (else 404).
 *   `DELETE` of the same path removes it (idempotent).
 * - `GET .../tools/{toolId}/text-override`: the effective view below. `DELETE` removes every text
 *   override (description and steps) of that assistant and tool; voice stays.
 * An empty description or text (`''`, or null) removes that override: the default is restored.
 * Every override route answers the view:
 * `{ assistantId, toolId,
 *    voice: { descriptionOverride, effective: <instruction with the voice override> },
 *    text: { hasTextInstructions, applied, descriptionOverride, stepOverrides: [{ stepId, text }],
 *            effective: <what text channels use> } }`.
 * Reading: text overrides apply only while the tool has textInstructions (`applied`); without
 * textInstructions text channels fall back to the voice `effective` instruction, and stored text
 * overrides wait (they apply again once textInstructions is set).
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { tenantOf } from '../auth.ts';
import { type ApiError, notFound, ok, validationError } from '../envelope.ts';
import { findOwned } from '../resources.ts';
import { seam } from '../seam.ts';
import { store, type SimState, type ToolInstruction, type ToolOverrideRecord, type ToolRecord } from '../state.ts';
import { Checker } from '../validation/checker.ts';
import { isPlainObject } from '../validation/formats.ts';

/**
 * §4.5: what a PUT that sends no textInstructions leaves of the stored ones (`stored`): omitted
 * (`absent`) keeps them, `null` removes them.
 */
export const unsentTextInstructions = seam(
  'tools.unsent-text-instructions',
  (sent: 'absent' | 'null', stored: ToolInstruction | null): ToolInstruction | null => (sent === 'absent' ? stored : null),
);

/**
 * §4.5, §8: an instruction document a PUT sends (`sent`) replaces the stored one (`stored`; null
 * when the tool has none), steps included, so a replayed PUT converges ("PATCH and PUT converge
 * when replayed").
 */
export const writtenInstruction = seam('tools.written-instruction', (_stored: ToolInstruction | null, sent: ToolInstruction): ToolInstruction => sent);

/**
 * §4.5: what a PUT stores of textInstructions is what it answers (`answered`: the document written,
 * the stored one kept when omitted, null when removed); `previous` is what was stored before.
 */
export const storedTextInstructions = seam(
  'tools.stored-text-instructions',
  (answered: ToolInstruction | null, _previous: ToolInstruction | null): ToolInstruction | null => answered,
);

/** §4.5: overrides are per assistant: the key of one assistant's overrides of one tool. */
export const overrideKey = seam('tools.override-key', (assistantId: string, toolId: string): string => `${assistantId}:${toolId}`);

/**
 * §4.5: the step text overrides a PUT …/steps/{stepId}/text-override writes its one step into,
 * given those it read (`read`) and a reader of the stored ones now: the stored ones now, read in
 * the same step as the write, so PUTs on different steps sent at once each keep the other's.
 */
export const stepOverridesBase = seam(
  'tools.step-overrides-base',
  (_read: Record<string, string>, current: () => Record<string, string>): Record<string, string> | Promise<Record<string, string>> => current(),
);

/** §4.5: DELETE …/steps/{stepId}/text-override removes that step's text override, and no other. */
export const deleteStepOverride = seam('tools.delete-step-override', (o: ToolOverrideRecord, stepId: string): void => {
  delete o.textSteps[stepId];
});

/** §4.5: an override text as stored: an empty one restores the default (null). */
export const storedOverrideText = seam('tools.override-text', (v: string | null): string | null => (v === '' ? null : v));

/** §4.5: voice and text overrides are independent: a text description override sets the text description only. */
export const setTextDescription = seam('tools.text-description-override', (o: ToolOverrideRecord, v: string | null): void => {
  o.textDescription = v;
});

/** §5.7: what a write to another tenant's tool answers: 404 RESOURCE_NOT_FOUND, as for an unknown id. */
export const foreignToolAnswer = seam('tools.foreign-tool-answer', (): ApiError => notFound());

/**
 * §5.7: a write aimed at another tenant's tool (`tool`: PUT /tools/{id}) or at the overrides of
 * another tenant's assistant (`text-overrides`: DELETE …/text-override) changes nothing: `write`,
 * what the request would do there, is not run.
 */
export const foreignWrite = seam('tools.foreign-write', (_target: 'tool' | 'text-overrides', _write: () => void): void => undefined);

/**
 * §5.7: on the per-assistant override routes, another tenant's assistant or tool answers as an
 * unknown one, through the lookups themselves: nothing to refuse beforehand (null).
 */
export const foreignOverrideRefusal = seam('tools.foreign-override-refusal', (): ApiError | null => null);

/** Id of the built-in Knowledge Base tool, the same for every tenant. */
export const KNOWLEDGE_BASE_TOOL_ID = '0b5e1c2d-4a6f-4e8b-9c1d-2e3f4a5b6c7d';

const KB_CREATED_AT = '2024-01-01T00:00:00.000Z';

function kbDefault(tenantId: string): ToolRecord {
  return {
    tenantId,
    id: KNOWLEDGE_BASE_TOOL_ID,
    name: 'knowledge_base',
    kind: 'knowledge_base',
    instruction: {
      title: 'Knowledge Base',
      description: 'Search the documents attached to the assistant before answering a factual question.',
      steps: [
        { id: 'kb-search', text: 'Search the attached documents with the caller’s question.' },
        { id: 'kb-answer', text: 'Answer only from what the documents say; say so when they do not cover it.' },
      ],
    },
    textInstructions: null,
    createdAt: KB_CREATED_AT,
    updatedAt: KB_CREATED_AT,
  };
}

/** The tool `id` as tenant `tenantId` sees it (own tool, or its Knowledge Base view), or null. */
export function tenantTool(state: SimState, tenantId: string, id: string): ToolRecord | null {
  if (id === KNOWLEDGE_BASE_TOOL_ID) return store.knowledgeBaseCopies(state).get(tenantId) ?? kbDefault(tenantId);
  const t = store.tools(state).get(id);
  return t && t.tenantId === tenantId ? t : null;
}

/** Like {@link tenantTool} for a write: the Knowledge Base tool is copied into the tenant first. */
function writableTool(state: SimState, tenantId: string, id: string): ToolRecord | null {
  if (id !== KNOWLEDGE_BASE_TOOL_ID) return tenantTool(state, tenantId, id);
  const copies = store.knowledgeBaseCopies(state);
  let copy = copies.get(tenantId);
  if (!copy) {
    copy = kbDefault(tenantId);
    copies.set(tenantId, copy);
  }
  return copy;
}

/** Validates an instruction document `{ title, description, steps }`; records failures under `field`. */
function parseInstruction(c: Checker, field: string, v: unknown): ToolInstruction | undefined {
  if (!isPlainObject(v)) {
    c.fail(field, 'must be an object { title, description, steps }');
    return undefined;
  }
  let okAll = c.check(`${field}.title`, typeof v.title === 'string', 'must be a string');
  okAll = c.check(`${field}.description`, typeof v.description === 'string', 'must be a string') && okAll;
  const steps: ToolInstruction['steps'] = [];
  if (!Array.isArray(v.steps)) {
    c.fail(`${field}.steps`, 'must be an array of steps (strings or objects)');
    okAll = false;
  } else {
    v.steps.forEach((s, i) => {
      if (typeof s === 'string') steps.push({ id: randomUUID(), text: s });
      else if (isPlainObject(s)) {
        const copy = structuredClone(s);
        steps.push({ ...copy, id: typeof copy.id === 'string' && copy.id !== '' ? copy.id : randomUUID() });
      } else {
        c.fail(`${field}.steps[${i}]`, 'must be a string or an object');
        okAll = false;
      }
    });
  }
  return okAll ? { title: v.title as string, description: v.description as string, steps } : undefined;
}

/** The public tool object. */
export function toolView(t: ToolRecord): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    type: t.kind,
    instruction: structuredClone(t.instruction),
    textInstructions: t.textInstructions ? structuredClone(t.textInstructions) : null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** Applies `textInstructions` of a write body to `next`: an object replaces; absent or null as {@link unsentTextInstructions} says. */
function applyTextInstructions(state: SimState, c: Checker, body: Record<string, unknown>, next: ToolRecord): void {
  if (body.textInstructions === undefined || body.textInstructions === null) {
    next.textInstructions = state.behaviour.of(unsentTextInstructions)(body.textInstructions === null ? 'null' : 'absent', next.textInstructions);
    return;
  }
  const ti = parseInstruction(c, 'textInstructions', body.textInstructions);
  if (ti) next.textInstructions = state.behaviour.of(writtenInstruction)(next.textInstructions, ti);
}

function bodyOf(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
  return body;
}

/** The text a step shows: its `text`, else `description`, else `instruction`, else ''. */
function stepTextKey(step: Record<string, unknown>): string {
  for (const k of ['text', 'description', 'instruction']) if (typeof step[k] === 'string') return k;
  return 'text';
}

/** The override view of the module comment. */
function overrideView(state: SimState, tool: ToolRecord, o: ToolOverrideRecord | undefined, assistantId: string): Record<string, unknown> {
  const voice = structuredClone(tool.instruction);
  if (o?.description != null) voice.description = o.description;
  const hasText = tool.textInstructions !== null;
  let effective: ToolInstruction;
  if (hasText) {
    effective = structuredClone(tool.textInstructions!);
    if (o?.textDescription != null) effective.description = o.textDescription;
    for (const step of effective.steps) {
      const t = o?.textSteps[step.id];
      if (t !== undefined) step[stepTextKey(step)] = t;
    }
  } else {
    effective = structuredClone(voice);
  }
  return {
    assistantId,
    toolId: tool.id,
    voice: { descriptionOverride: o?.description ?? null, effective: voice },
    text: {
      hasTextInstructions: hasText,
      applied: hasText,
      descriptionOverride: o?.textDescription ?? null,
      stepOverrides: Object.entries(o?.textSteps ?? {}).map(([stepId, text]) => ({ stepId, text })),
      effective,
    },
  };
}

/** A description/text value of an override body: a string, '' or null (restore). Throws 400 otherwise. */
function overrideText(body: Record<string, unknown>, keys: string[]): string | null {
  const key = keys.find((k) => k in body);
  const v = key === undefined ? undefined : body[key];
  if (v === null) return null;
  if (typeof v !== 'string') throw validationError([{ field: keys[0], message: 'is required: a string (empty restores the default)' }]);
  return v;
}

/** The answer to a write of a tool id the caller cannot write: another tenant's tool as {@link foreignToolAnswer} says, else 404. */
function foreignToolError(state: SimState, tenantId: string, id: string): ApiError {
  const t = store.tools(state).get(id);
  return t && t.tenantId !== tenantId ? state.behaviour.of(foreignToolAnswer)() : notFound();
}

/** Applies a `PUT /tools/{id}` body to `tool` (validated first: a 400 changes nothing) and answers the tool. */
function putTool(state: SimState, tool: ToolRecord, body: Record<string, unknown>): ToolRecord {
  const c = new Checker();
  const next: ToolRecord = structuredClone(tool);
  if (body.name !== undefined) {
    if (c.check('name', typeof body.name === 'string', 'must be a string')) next.name = body.name as string;
  }
  if (body.instruction !== undefined) {
    const ins = parseInstruction(c, 'instruction', body.instruction);
    if (ins) next.instruction = state.behaviour.of(writtenInstruction)(next.instruction, ins);
  }
  applyTextInstructions(state, c, body, next);
  c.throwIfAny();
  next.updatedAt = new Date().toISOString();
  const stored = state.behaviour.of(storedTextInstructions)(next.textInstructions, tool.textInstructions);
  Object.assign(tool, { ...structuredClone(next), textInstructions: stored });
  return next;
}

/** Removes every text override (description and steps) of one assistant and tool; the voice override stays. */
function clearTextOverrides(o: ToolOverrideRecord): void {
  o.textDescription = null;
  o.textSteps = {};
}

interface OverrideParams {
  Params: { id: string; toolId: string; stepId?: string };
}

/**
 * §4.5 POST /tools: a new tool of the tenant from `{ name?, instruction, textInstructions? }`.
 * @throws ApiError VALIDATION_ERROR naming every bad field.
 */
function createTool(tenantId: string, body: Record<string, unknown>): ToolRecord {
  const c = new Checker();
  c.check('name', body.name === undefined || typeof body.name === 'string', 'must be a string');
  const instruction =
    'instruction' in body
      ? parseInstruction(c, 'instruction', body.instruction)
      : (c.fail('instruction', 'is required: { title, description, steps }'), undefined);
  const now = new Date().toISOString();
  const tool: ToolRecord = {
    tenantId,
    id: randomUUID(),
    name: typeof body.name === 'string' ? body.name : 'tool',
    kind: 'function',
    instruction: instruction ?? { title: '', description: '', steps: [] },
    textInstructions: null,
    createdAt: now,
    updatedAt: now,
  };
  if (body.textInstructions !== undefined && body.textInstructions !== null) {
    const ti = parseInstruction(c, 'textInstructions', body.textInstructions);
    if (ti) tool.textInstructions = ti;
  }
  c.throwIfAny();
  return tool;
}

/**
 * §4.5 PUT /tools/{id}/instruction on a tool the caller may write: the body is the instruction
 * (or `{ instruction }`), plus optional textInstructions.
 * @throws ApiError VALIDATION_ERROR naming every bad field (the tool is left as it was).
 */
function putInstruction(state: SimState, tool: ToolRecord, body: Record<string, unknown>): ToolRecord {
  const c = new Checker();
  const next: ToolRecord = structuredClone(tool);
  const insDoc = isPlainObject(body.instruction) ? body.instruction : body;
  const ins = parseInstruction(c, isPlainObject(body.instruction) ? 'instruction' : 'body', insDoc);
  if (ins) next.instruction = ins;
  applyTextInstructions(state, c, body, next);
  c.throwIfAny();
  next.updatedAt = new Date().toISOString();
  return Object.assign(tool, next);
}

/** The tool routes: list, read, create, replace, and replace the instruction. */
function registerToolRoutes(app: FastifyInstance, state: SimState): void {
  app.get('/tools', async (request, reply) => {
    const tenantId = tenantOf(request);
    const own = [...store.tools(state).values()].filter((t) => t.tenantId === tenantId);
    return ok(reply, [tenantTool(state, tenantId, KNOWLEDGE_BASE_TOOL_ID)!, ...own].map(toolView));
  });

  app.get<{ Params: { id: string } }>('/tools/:id', async (request, reply) => {
    const t = tenantTool(state, tenantOf(request), request.params.id);
    if (!t) throw notFound();
    return ok(reply, toolView(t));
  });

  app.post('/tools', async (request, reply) => {
    const tool = createTool(tenantOf(request), bodyOf(request.body));
    store.tools(state).set(tool.id, tool);
    return ok(reply, toolView(tool), 201);
  });

  app.put<{ Params: { id: string } }>('/tools/:id', async (request, reply) => {
    const tenantId = tenantOf(request);
    const tool = writableTool(state, tenantId, request.params.id);
    if (!tool) {
      const foreign = store.tools(state).get(request.params.id);
      if (foreign) state.behaviour.of(foreignWrite)('tool', () => putTool(state, foreign, bodyOf(request.body)));
      throw foreignToolError(state, tenantId, request.params.id);
    }
    return ok(reply, toolView(putTool(state, tool, bodyOf(request.body))));
  });

  app.put<{ Params: { id: string } }>('/tools/:id/instruction', async (request, reply) => {
    const tool = writableTool(state, tenantOf(request), request.params.id);
    if (!tool) throw foreignToolError(state, tenantOf(request), request.params.id);
    return ok(reply, toolView(putInstruction(state, tool, bodyOf(request.body))));
  });
}

/** An override route's assistant and tool: the tool, the stored overrides (`get`, `upsert`) and the view every override route answers. */
interface ResolvedOverride {
  tool: ToolRecord;
  get: () => ToolOverrideRecord | undefined;
  upsert: () => ToolOverrideRecord;
  view: () => ReturnType<typeof overrideView>;
}

/**
 * Resolves assistant + tool of an override route (404 otherwise) and the stored overrides. A
 * route that writes passes its `write`, which another tenant's assistant hands to §5.7's
 * {@link foreignWrite} instead.
 * @throws ApiError the §5.7 refusal for another tenant's assistant or tool; RESOURCE_NOT_FOUND for an unknown one.
 */
function resolveOverride(
  state: SimState,
  request: { params: OverrideParams['Params'] } & Parameters<typeof tenantOf>[0],
  write?: (o: ToolOverrideRecord) => void,
): ResolvedOverride {
  const tenantId = tenantOf(request);
  const seams = state.behaviour;
  const otherAssistant = state.assistants.get(request.params.id);
  const otherTool = store.tools(state).get(request.params.toolId);
  const foreignAssistant = otherAssistant !== undefined && otherAssistant.tenantId !== tenantId;
  if (foreignAssistant && write) {
    seams.of(foreignWrite)('text-overrides', () => {
      const o = store.toolOverrides(state).get(seams.of(overrideKey)(request.params.id, request.params.toolId));
      if (o) write(o);
    });
  }
  const refusal = foreignAssistant || (otherTool !== undefined && otherTool.tenantId !== tenantId) ? seams.of(foreignOverrideRefusal)() : null;
  if (refusal) throw refusal;
  const assistant = findOwned(state, state.assistants, tenantId, request.params.id, 'assistant');
  const tool = tenantTool(state, tenantId, request.params.toolId);
  if (!tool) throw notFound();
  const key = seams.of(overrideKey)(assistant.data.id as string, tool.id);
  const overrides = store.toolOverrides(state);
  const get = () => overrides.get(key);
  const upsert = () => {
    let o = overrides.get(key);
    if (!o) {
      o = { tenantId, assistantId: assistant.data.id as string, toolId: tool.id, description: null, textDescription: null, textSteps: {} };
      overrides.set(key, o);
    }
    return o;
  };
  const view = () => overrideView(state, tool, get(), assistant.data.id as string);
  return { tool, get, upsert, view };
}

/** The per-assistant tool override routes (voice description, text description, step texts). */
function registerOverrideRoutes(app: FastifyInstance, state: SimState): void {
  const resolve = (request: Parameters<typeof resolveOverride>[1], write?: (o: ToolOverrideRecord) => void) => resolveOverride(state, request, write);
  const base = '/assistants/:id/tools/:toolId';

  app.put<OverrideParams>(`${base}/description-override`, async (request, reply) => {
    const r = resolve(request);
    const v = state.behaviour.of(storedOverrideText)(overrideText(bodyOf(request.body), ['description']));
    r.upsert().description = v;
    return ok(reply, r.view());
  });

  app.put<OverrideParams>(`${base}/text-description-override`, async (request, reply) => {
    const r = resolve(request);
    const v = state.behaviour.of(storedOverrideText)(overrideText(bodyOf(request.body), ['description']));
    state.behaviour.of(setTextDescription)(r.upsert(), v);
    return ok(reply, r.view());
  });

  app.put<OverrideParams>(`${base}/steps/:stepId/text-override`, async (request, reply) => {
    const r = resolve(request);
    const stepId = request.params.stepId!;
    const known = [...r.tool.instruction.steps, ...(r.tool.textInstructions?.steps ?? [])].some((s) => s.id === stepId);
    if (!known) throw notFound();
    const v = state.behaviour.of(storedOverrideText)(overrideText(bodyOf(request.body), ['text', 'description', 'instruction']));
    const o = r.upsert();
    const steps = { ...(await state.behaviour.of(stepOverridesBase)({ ...o.textSteps }, () => o.textSteps)) };
    if (v === null) delete steps[stepId];
    else steps[stepId] = v;
    o.textSteps = steps;
    return ok(reply, r.view());
  });

  app.delete<OverrideParams>(`${base}/steps/:stepId/text-override`, async (request, reply) => {
    const r = resolve(request);
    const o = r.get();
    if (o) state.behaviour.of(deleteStepOverride)(o, request.params.stepId!);
    return ok(reply, r.view());
  });

  app.get<OverrideParams>(`${base}/text-override`, async (request, reply) => ok(reply, resolve(request).view()));

  app.delete<OverrideParams>(`${base}/text-override`, async (request, reply) => {
    const r = resolve(request, clearTextOverrides);
    const o = r.get();
    if (o) clearTextOverrides(o);
    return ok(reply, r.view());
  });
}

/** Plugin with the tool and tool-override routes. */
export const toolsRoutes: FastifyPluginAsync = async (app) => {
  registerToolRoutes(app, app.sim);
  registerOverrideRoutes(app, app.sim);
};
