/**
 * The control API (/work/shared/design/control-api.md): plain JSON, no envelope, no auth, served
 * only to loopback peers. Each control file is a Fastify plugin; add a new one to
 * `controlPlugins` (one line).
 */
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackPeer } from '../validation/formats.ts';
import { callsControl } from './calls.ts';
import { ControlError } from './common.ts';
import { deliveriesControl } from './deliveries.ts';
import { dnsControl } from './dns.ts';
import { onboardingControl } from './onboarding.ts';
import { phoneNumbersControl } from './phone-numbers.ts';
import { principalsControl } from './principals.ts';
import { systemControl } from './system.ts';
import { taskOverridesControl } from './task-overrides.ts';

/** Control plugins, registered under `/__control`. Append new ones here. */
export const controlPlugins: FastifyPluginAsync[] = [
  systemControl,
  principalsControl,
  dnsControl,
  phoneNumbersControl,
  taskOverridesControl,
  callsControl,
  deliveriesControl,
  onboardingControl,
];

/** The control API plugin; register with `{ prefix: '/__control' }`. */
export const controlApi: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLoopbackPeer(request.socket.remoteAddress)) {
      return reply.code(404).send({ error: 'not found' });
    }
  });

  app.setErrorHandler((err: FastifyError | Error, _request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ControlError) return reply.code(err.status).send({ error: err.message });
    const code = (err as FastifyError).code;
    if (err.name === 'BodyParseError' || (typeof code === 'string' && code.startsWith('FST_ERR_CTP_'))) {
      return reply.code(400).send({ error: 'body is not valid JSON' });
    }
    return reply.code(500).send({ error: 'internal error' });
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    return reply.code(404).send({ error: `no control endpoint ${request.method} ${request.url}` });
  });

  for (const plugin of controlPlugins) await app.register(plugin);
};
