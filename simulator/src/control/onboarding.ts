/**
 * Control: `POST /onboarding-events { tenantId, type }` (control-api.md): emits one of the
 * messaging-app onboarding events of §6, delivered under model B, and answers 202
 * `{ deliveryId }`. Unknown tenant → 404; a type outside the four → 400.
 *
 * Body (payload fields are "not shown" in §6 beyond `type`): `type`, `tenant_id`, `timestamp`
 * (ISO-8601) and `tenant_name`. The tenant name carries no rule; it is sent as stored.
 */
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { emitEvent, eventSent } from '../webhooks/emit.ts';
import { bodyObject, ControlError, requiredString } from './common.ts';

/** The onboarding lifecycle event types of §6 (model B). */
export const ONBOARDING_EVENT_TYPES = [
  'chatapp.onboarding.tier_pending',
  'chatapp.onboarding.completed',
  'chatapp.onboarding.failed',
  'chatapp.calling.live',
] as const;

/** Plugin with the onboarding-event control endpoint. */
export const onboardingControl: FastifyPluginAsync = async (app) => {
  app.post('/onboarding-events', async (request, reply) => {
    const body = bodyObject(request.body);
    const tenantId = requiredString(body, 'tenantId');
    const type = requiredString(body, 'type');
    if (!(ONBOARDING_EVENT_TYPES as readonly string[]).includes(type)) {
      throw new ControlError(400, `type must be one of ${ONBOARDING_EVENT_TYPES.join(', ')}`);
    }
    const tenant = app.sim.tenants.get(tenantId);
    if (!tenant) throw new ControlError(404, 'unknown tenant');
    if (!app.sim.behaviour.of(eventSent)(type)) return reply.code(202).send({ deliveryId: randomUUID() });
    const { deliveryId } = emitEvent(app.sim, {
      tenantId,
      type,
      model: 'B',
      body: { type, tenant_id: tenantId, timestamp: new Date().toISOString(), tenant_name: tenant.name },
    });
    return reply.code(202).send({ deliveryId });
  });
};
