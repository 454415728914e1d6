/**
 * Model catalogue (§2.10, §4.5): `GET /models`, and the added `GET /models/{id}`. Every entry
 * carries `type` `chat` or `realtime`; ids are fixed uuids, stable across resets, so an assistant's
 * `modelId` can point into the catalogue. Tenant-scoped like every §4 route (§4.5 names no
 * organization-key exception for this catalogue). Entry shape beyond `type`: not shown; here
 * `{ id, name, provider, type }`.
 *
 * Used elsewhere: a text test run refuses an assistant whose `modelId` names a `realtime` entry
 * (§4.5); insights name the model that served a call.
 */
import type { FastifyPluginAsync } from 'fastify';
import { notFound, ok } from '../envelope.ts';
import { seam } from '../seam.ts';

/** One catalogue entry. */
export interface ModelEntry {
  id: string;
  name: string;
  provider: string;
  type: 'chat' | 'realtime';
}

/** The fixed catalogue; the first entry is the default chat model of an assistant without `modelId`. */
export const MODELS: readonly ModelEntry[] = [
  { id: '8d0f3f7e-2a41-4c1b-9e0a-6b7c1d2e3f01', name: 'General chat (large)', provider: 'openai', type: 'chat' },
  { id: '8d0f3f7e-2a41-4c1b-9e0a-6b7c1d2e3f02', name: 'General chat (small)', provider: 'anthropic', type: 'chat' },
  { id: '8d0f3f7e-2a41-4c1b-9e0a-6b7c1d2e3f03', name: 'Realtime voice', provider: 'openai', type: 'realtime' },
  { id: '8d0f3f7e-2a41-4c1b-9e0a-6b7c1d2e3f04', name: 'Realtime voice (mini)', provider: 'openai', type: 'realtime' },
];

/** The catalogue entry with `id`, or undefined. */
export function modelById(id: unknown): ModelEntry | undefined {
  return MODELS.find((m) => m.id === id);
}

/** §2.10, §4.5: the entries `GET /models` lists, each with its `type`. */
export const modelsListed = seam('catalog.models', (): Record<string, unknown>[] => MODELS.map((m) => ({ ...m })));

/** Plugin with the model catalogue routes. */
export const modelsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/models', async (_request, reply) => {
    return ok(reply, app.sim.behaviour.of(modelsListed)());
  });

  app.get<{ Params: { id: string } }>('/models/:id', async (request, reply) => {
    const m = modelById(request.params.id);
    if (!m) throw notFound();
    return ok(reply, { ...m });
  });
};
