/**
 * Control: the simulator's DNS table (`POST /dns`), read by serverUrl validation (§2.3). Names
 * never set do not resolve; the simulator never makes a real DNS query. Added: `GET /dns`.
 */
import type { FastifyPluginAsync } from 'fastify';
import { isIP } from 'node:net';
import { normalizeHostname } from '../state.ts';
import { bodyObject, ControlError, requiredString } from './common.ts';

/** Plugin with the DNS control endpoints. */
export const dnsControl: FastifyPluginAsync = async (app) => {
  app.post('/dns', async (request, reply) => {
    const body = bodyObject(request.body);
    const hostname = requiredString(body, 'hostname');
    const addresses = body.addresses;
    if (!Array.isArray(addresses) || !addresses.every((a) => typeof a === 'string' && isIP(a) !== 0)) {
      throw new ControlError(400, 'addresses must be an array of IP address strings');
    }
    app.sim.dns.set(normalizeHostname(hostname), [...(addresses as string[])]);
    return reply.code(204).send();
  });

  app.get('/dns', async () => Object.fromEntries(app.sim.dns));
};
