/**
 * Control: organizations, tenants, key rotation and the tenant-level server URL.
 * `POST /organizations`, `POST /tenants`, `POST /keys/rotate`, `PUT /tenants/{id}/server-url`
 * (contract) and the added `DELETE /tenants/{id}` (a removed tenant, §5.6).
 */
import type { FastifyPluginAsync } from 'fastify';
import { bodyObject, ControlError, optionalString, requiredString } from './common.ts';

/** Plugin with the principal control endpoints. */
export const principalsControl: FastifyPluginAsync = async (app) => {
  app.post('/organizations', async (request, reply) => {
    const body = bodyObject(request.body);
    const { organization, apiKey } = app.sim.createOrganization(optionalString(body, 'name'));
    return reply.code(201).send({ id: organization.id, apiKey });
  });

  app.post('/tenants', async (request, reply) => {
    const body = bodyObject(request.body);
    const organizationId = requiredString(body, 'organizationId');
    const name = optionalString(body, 'name');
    if (!app.sim.organizations.has(organizationId)) throw new ControlError(404, 'unknown organization');
    const { tenant, apiKey } = app.sim.createTenant(organizationId, name);
    return reply.code(201).send({
      id: tenant.id,
      organizationId: tenant.organizationId,
      apiKey,
      clientServerSecret: tenant.clientServerSecret,
    });
  });

  // Added endpoint: removes a tenant (its key answers 401, an organization key naming it 403).
  app.delete<{ Params: { id: string } }>('/tenants/:id', async (request, reply) => {
    if (!app.sim.removeTenant(request.params.id)) throw new ControlError(404, 'unknown tenant');
    return reply.code(204).send();
  });

  app.post('/keys/rotate', async (request) => {
    const body = bodyObject(request.body);
    const apiKey = requiredString(body, 'apiKey');
    const next = app.sim.rotateKey(apiKey);
    if (next === null) throw new ControlError(404, 'unknown or already rotated key');
    return { apiKey: next };
  });

  app.put<{ Params: { id: string } }>('/tenants/:id/server-url', async (request, reply) => {
    const tenant = app.sim.tenants.get(request.params.id);
    if (!tenant) throw new ControlError(404, 'unknown tenant');
    const body = bodyObject(request.body);
    if (!('url' in body)) throw new ControlError(400, 'url is required (string or null)');
    const url = body.url;
    if (url === null) {
      tenant.serverUrl = null;
      return reply.code(204).send();
    }
    if (typeof url !== 'string') throw new ControlError(400, 'url must be a string or null');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ControlError(400, 'url is not a valid URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ControlError(400, 'url must be http or https');
    }
    tenant.serverUrl = url;
    return reply.code(204).send();
  });
};
