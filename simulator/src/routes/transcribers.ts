/**
 * Transcriber catalogue (§2.10, §4.5): `GET /transcribers`, `GET /transcribers/{id}`.
 *
 * Reading of the spec: §4.5 says only that these reads "accept an organization key without
 * X-Tenant-Id" and, unlike the transcriber testing row, does not say tenant keys get 403; the
 * catalogue is what an assistant's `transcriberId` points into, so tenants must be able to read
 * it. Both key types are therefore accepted (scope `organization-or-tenant`); a tenant key still
 * gets 403 FORBIDDEN when it names another tenant in X-Tenant-Id.
 */
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../envelope.ts';
import { findOwned } from '../resources.ts';
import { seam } from '../seam.ts';

/** One catalogue entry; every transcriber carries a `language` (§2.10). */
export interface Transcriber {
  id: string;
  name: string;
  provider: string;
  language: string;
}

/** The fixed catalogue (ids are stable across resets so tests may pin them). */
export const TRANSCRIBERS: readonly Transcriber[] = [
  { id: '6f1c7a52-3b0e-4c59-9a1e-1d0b5b9e0a01', name: 'Nova (English)', provider: 'deepgram', language: 'en' },
  { id: '6f1c7a52-3b0e-4c59-9a1e-1d0b5b9e0a02', name: 'Nova (French)', provider: 'deepgram', language: 'fr' },
  { id: '6f1c7a52-3b0e-4c59-9a1e-1d0b5b9e0a03', name: 'Whisper (Spanish)', provider: 'openai', language: 'es' },
  { id: '6f1c7a52-3b0e-4c59-9a1e-1d0b5b9e0a04', name: 'Whisper (German)', provider: 'openai', language: 'de' },
];

const SCOPE = { config: { scope: 'organization-or-tenant' as const } };

/** §2.10, §4.5: the entries `GET /transcribers` lists, each with its `language`. */
export const transcribersListed = seam('catalog.transcribers', (): readonly Partial<Transcriber>[] => TRANSCRIBERS);

/** Plugin with the transcriber catalogue routes. */
export const transcribersRoutes: FastifyPluginAsync = async (app) => {
  const catalogue = new Map(TRANSCRIBERS.map((t) => [t.id, { tenantId: '*', data: t }]));

  app.get('/transcribers', SCOPE, async (_request, reply) => {
    return ok(reply, app.sim.behaviour.of(transcribersListed)());
  });

  app.get<{ Params: { id: string } }>('/transcribers/:id', SCOPE, async (request, reply) => {
    return ok(reply, findOwned(app.sim, catalogue, '*', request.params.id, 'transcriber').data);
  });
};
