/**
 * Control: `POST /task-overrides` stores a task override (§2.8) for an assistant; read back by
 * `GET /assistants/{id}/tasks/overrides` (§4.2).
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { isUuid } from '../validation/formats.ts';
import { bodyObject, ControlError, requiredString } from './common.ts';

/** Plugin with the task-override control endpoint. */
export const taskOverridesControl: FastifyPluginAsync = async (app) => {
  app.post('/task-overrides', async (request, reply) => {
    const body = bodyObject(request.body);
    const assistantId = requiredString(body, 'assistantId');
    const assistant = app.sim.assistants.get(assistantId);
    if (!assistant) throw new ControlError(404, 'unknown assistant');
    const id = (key: string): string => {
      const v = body[key];
      if (v === undefined || v === null) return randomUUID();
      if (!isUuid(v)) throw new ControlError(400, `${key} must be a uuid`);
      return v;
    };
    const taskId = id('taskId');
    const taskgroupId = id('taskgroupId');
    const io = body.instructionOverride;
    if (io !== undefined && io !== null && typeof io !== 'string') {
      throw new ControlError(400, 'instructionOverride must be a string or null');
    }
    const override = {
      overrideId: randomUUID(),
      assistantId,
      taskId,
      taskgroupId,
      instructionOverride: (io as string | null | undefined) ?? null,
    };
    app.sim.taskOverrides.set(override.overrideId, { tenantId: assistant.tenantId, ...override });
    return reply.code(201).send(override);
  });
};
