/**
 * Control: phone numbers owned by a tenant, never billed (`POST /phone-numbers`,
 * `DELETE /phone-numbers/{id}`). Stored only; SMS and messaging routes read `state.phoneNumbers`.
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { isE164 } from '../validation/formats.ts';
import { bodyObject, ControlError, optionalBoolean, requiredString } from './common.ts';

/** Plugin with the phone-number control endpoints. */
export const phoneNumbersControl: FastifyPluginAsync = async (app) => {
  app.post('/phone-numbers', async (request, reply) => {
    const body = bodyObject(request.body);
    const tenantId = requiredString(body, 'tenantId');
    const number = requiredString(body, 'number');
    if (!isE164(number)) throw new ControlError(400, 'number must be E.164');
    const smsEnabled = optionalBoolean(body, 'smsEnabled', false);
    const chatappOnboarded = optionalBoolean(body, 'chatappOnboarded', false);
    if (!app.sim.tenants.has(tenantId)) throw new ControlError(404, 'unknown tenant');
    const id = randomUUID();
    app.sim.phoneNumbers.set(id, {
      id,
      tenantId,
      number,
      smsEnabled,
      chatappOnboarded,
      deleted: false,
      createdAt: new Date().toISOString(),
    });
    return reply.code(201).send({ id, number });
  });

  app.delete<{ Params: { id: string } }>('/phone-numbers/:id', async (request, reply) => {
    const rec = app.sim.phoneNumbers.get(request.params.id);
    if (!rec) throw new ControlError(404, 'unknown phone number');
    rec.deleted = true;
    return reply.code(204).send();
  });
};
