/**
 * Prompts (§4.5, §2.2, §2.7): `POST /prompts`, `GET /prompts?type=`, and the added
 * `GET /prompts/{id}`.
 *
 * Shape (not shown beyond `type`): `{ id, name, type, content, createdAt, updatedAt }`.
 * `type` is required and one of the four named values (`chat`, `whisper_summary`,
 * `voice_persona`, `ivr`), anything else → 400 VALIDATION_ERROR; `name` and `content` are
 * optional strings (`''` when left out). `GET /prompts` lists the caller's prompts (creation
 * order), filtered by `type` when given; a `type` outside the four → 400 VALIDATION_ERROR
 * (query parameter failed validation, §7).
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { tenantOf } from '../auth.ts';
import { ok, validationError } from '../envelope.ts';
import { findOwned, listOwned } from '../resources.ts';
import { seam } from '../seam.ts';
import { Checker } from '../validation/checker.ts';
import { isPlainObject } from '../validation/formats.ts';

/** The prompt types §4.5 names. */
export const PROMPT_TYPES = ['chat', 'whisper_summary', 'voice_persona', 'ivr'] as const;

interface PromptRecord {
  tenantId: string;
  data: Record<string, unknown> & { id: string; type: string };
}

const isType = (v: unknown): v is string => typeof v === 'string' && (PROMPT_TYPES as readonly string[]).includes(v);

/** §4.5: the types a prompt is created with: the four named ones. */
export const creatableTypes = seam('prompts.creatable-types', (): readonly string[] => PROMPT_TYPES);

/** §4.5: `GET /prompts?type=` lists the prompts of that type only (`wanted` undefined: every prompt). */
export const listedByType = seam('prompts.type-filter', (type: string, wanted: string | undefined): boolean => wanted === undefined || type === wanted);

/** §4.5: the rows `GET /prompts` answers the tenant for a `type` (undefined: every type): the prompts stored now (`rows`). */
export const listedPrompts = seam(
  'prompts.listed',
  (_tenantId: string, _type: string | undefined, rows: () => Record<string, unknown>[]): Record<string, unknown>[] => rows(),
);

/** Plugin with the prompt routes. */
export const promptsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;
  const prompts = () => state.collection<PromptRecord>('prompts');

  app.post('/prompts', async (request, reply) => {
    const tenantId = tenantOf(request);
    const body = request.body === undefined ? {} : request.body;
    if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
    const c = new Checker();
    c.check('type', isType(body.type) && state.behaviour.of(creatableTypes)().includes(body.type), `is required: one of ${PROMPT_TYPES.join(', ')}`);
    for (const k of ['name', 'content']) {
      c.check(k, body[k] === undefined || body[k] === null || typeof body[k] === 'string', 'must be a string');
    }
    c.throwIfAny();
    const now = new Date().toISOString();
    const data = {
      id: randomUUID(),
      name: typeof body.name === 'string' ? body.name : '',
      type: body.type as string,
      content: typeof body.content === 'string' ? body.content : '',
      createdAt: now,
      updatedAt: now,
    };
    prompts().set(data.id, { tenantId, data });
    return ok(reply, { ...data }, 201);
  });

  app.get<{ Querystring: { type?: string | string[] } }>('/prompts', async (request, reply) => {
    const tenantId = tenantOf(request);
    const type = request.query.type;
    if (type !== undefined && !isType(type)) {
      throw validationError([{ field: 'type', message: `must be one of ${PROMPT_TYPES.join(', ')}` }]);
    }
    const listed = state.behaviour.of(listedByType);
    const rows = () =>
      listOwned(prompts(), tenantId)
        .filter((p) => listed(p.data.type, type))
        .map((p) => ({ ...p.data }));
    return ok(reply, state.behaviour.of(listedPrompts)(tenantId, type, rows));
  });

  app.get<{ Params: { id: string } }>('/prompts/:id', async (request, reply) => {
    return ok(reply, { ...findOwned(state, prompts(), tenantOf(request), request.params.id, 'prompt').data });
  });
};
