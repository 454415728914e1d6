/**
 * Control: health, reset, config and the fault list.
 * `GET /health`, `POST /reset`, `PUT /config` (contract) and the added `GET /config`,
 * `GET /faults`.
 */
import { PERSONALITIES, type Personality } from '../config.ts';
import type { FastifyPluginAsync } from 'fastify';
import { FAULTS, isKnownFault } from '../faults/index.ts';
import { headerParser } from '../auth.ts';
import type { SimConfig } from '../config.ts';
import type { SimState } from '../state.ts';
import { isPlainObject } from '../validation/formats.ts';
import { bodyObject, ControlError } from './common.ts';
import { cancelDeliveries } from '../webhooks/delivery.ts';
import { parseChaos } from '../chaos.ts';

/** Version of the control contract this simulator implements (health `contract`). */
export const CONTROL_CONTRACT = 1;

const NUMERIC_KEYS = ['webhookRetryBaseMs', 'webhookTimeoutMs', 'insightsDelayMs', 'monitorMintsPerMinute', 'monitorSlotsPerCall'] as const;

/**
 * Validates a `PUT /config` body against the current config and returns the updated copy.
 * Unknown keys are ignored. Throws ControlError 400 naming the first bad key; nothing is applied
 * then.
 */
export function applyConfigPatch(current: SimConfig, body: Record<string, unknown>): SimConfig {
  const next: SimConfig = { ...current, webhookConnectTo: { ...current.webhookConnectTo }, faults: [...current.faults] };
  for (const key of NUMERIC_KEYS) {
    if (!(key in body)) continue;
    const v = body[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new ControlError(400, `${key} must be a non-negative number`);
    }
    next[key] = v;
  }
  if ('webhookConnectTo' in body) {
    const v = body.webhookConnectTo;
    if (!isPlainObject(v) || !Object.values(v).every((x) => typeof x === 'string')) {
      throw new ControlError(400, 'webhookConnectTo must be an object of "host:port" to origin strings');
    }
    next.webhookConnectTo = { ...(v as Record<string, string>) };
  }
  if ('version' in body) {
    if (typeof body.version !== 'string') throw new ControlError(400, 'version must be a string');
    next.version = body.version;
  }
  if ('chaos' in body) {
    try {
      next.chaos = parseChaos(body.chaos);
    } catch (e) {
      throw new ControlError(400, (e as Error).message);
    }
  }
  if ('personality' in body) {
    if (!PERSONALITIES.includes(body.personality as Personality)) throw new ControlError(400, `personality must be one of ${PERSONALITIES.join(', ')}`);
    next.personality = body.personality as Personality;
  }
  if ('faults' in body) {
    const v = body.faults;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
      throw new ControlError(400, 'faults must be an array of fault names');
    }
    const unknown = v.filter((x) => !isKnownFault(x));
    if (unknown.length) throw new ControlError(400, `unknown fault(s): ${unknown.join(', ')}`);
    next.faults = [...new Set(v as string[])];
  }
  return next;
}

/**
 * The `auth.header-parser` seam (auth.ts; fault `auth.lenient-header-parser`): Node's lenient HTTP parser for new
 * connections, which takes a bare LF or CR as the end of a header line, so a key followed by a
 * stray newline byte authenticates (§5.6). Node reads the flag per connection.
 */
function lenientParser(app: { server: unknown; sim: SimState }): void {
  (app.server as { insecureHTTPParser?: boolean }).insecureHTTPParser = app.sim.behaviour.of(headerParser)() === 'lenient' || undefined;
}

/** Plugin with the system control endpoints. */
export const systemControl: FastifyPluginAsync = async (app) => {
  app.get('/health', async () => ({ ok: true, contract: CONTROL_CONTRACT }));

  app.post('/reset', async (_request, reply) => {
    cancelDeliveries(app.sim); // pending webhook retries and in-flight attempts (webhooks/delivery.ts)
    app.sim.reset();
    lenientParser(app);
    return reply.code(204).send();
  });

  app.get('/config', async () => app.sim.config);

  app.put('/config', async (request) => {
    app.sim.config = applyConfigPatch(app.sim.config, bodyObject(request.body));
    lenientParser(app);
    return app.sim.config;
  });

  app.get('/faults', async () => FAULTS);
};
