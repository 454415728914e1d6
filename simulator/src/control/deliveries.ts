/**
 * Control: `GET /deliveries?tenantId=` (control-api.md): the webhook deliveries of one tenant in
 * emission order, `[{ deliveryId, type, model, url, state, attempts: [{ at, status }] }]`.
 * `tenantId` is required (400 without it); a tenant with no deliveries (or unknown, or removed)
 * answers `[]`. Also owns the close hook that stops every pending delivery.
 */
import type { FastifyPluginAsync } from 'fastify';
import { closeDeliveries } from '../webhooks/delivery.ts';
import { deliveriesOf } from '../webhooks/store.ts';
import { ControlError } from './common.ts';

/** Plugin with the deliveries log endpoint. */
export const deliveriesControl: FastifyPluginAsync = async (app) => {
  // Server close cancels pending retries and in-flight attempts, so runs end promptly.
  app.addHook('onClose', async () => closeDeliveries(app.sim));
  app.get<{ Querystring: { tenantId?: string } }>('/deliveries', async (request) => {
    const tenantId = request.query.tenantId;
    if (typeof tenantId !== 'string' || tenantId === '') throw new ControlError(400, 'tenantId is required');
    return deliveriesOf(app.sim, tenantId);
  });
};
