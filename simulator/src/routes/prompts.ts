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
import { faultOn } from '../faults.ts';
import { findOwned, listOwned } from '../resources.ts';
import { Checker } from '../validation/checker.ts';
import { isPlainObject } from '../validation/formats.ts';

/** The prompt types §4.5 names. */
export const PROMPT_TYPES = ['chat', 'whisper_summary', 'voice_persona', 'ivr'] as const;

interface PromptRecord {
  tenantId: string;
  data: Record<string, unknown> & { id: string; type: string };
}

const isType = (v: unknown): v is string => typeof v === 'string' && (PROMPT_TYPES as readonly string[]).includes(v);

/** Plugin with the prompt routes. */
export const promptsRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;
  const prompts = () => state.collection<PromptRecord>('prompts');

  app.post('/prompts', async (request, reply) => {
    const tenantId = tenantOf(request);
    const body = request.body === undefined ? {} : request.body;
    if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
    const c = new Checker();
    const rejected =
      (body.type === 'whisper_summary' && faultOn(state, 'prompts.whisper-summary-rejected')) ||
      (body.type === 'ivr' && faultOn(state, 'prompts.ivr-rejected'));
    c.check('type', isType(body.type) && !rejected, `is required: one of ${PROMPT_TYPES.join(', ')}`);
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
    const ignore = faultOn(state, 'prompts.type-filter-ignored');
    const rows = listOwned(prompts(), tenantId)
      .filter((p) => type === undefined || ignore || p.data.type === type)
      .map((p) => ({ ...p.data }));
    return ok(reply, rows);
  });

  app.get<{ Params: { id: string } }>('/prompts/:id', async (request, reply) => {
    return ok(reply, { ...findOwned(state, prompts(), tenantOf(request), request.params.id, 'prompt').data });
  });
};
