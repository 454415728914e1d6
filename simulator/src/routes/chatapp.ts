/**
 * Messaging-app text channel switch (§1, §4.5, §7): `PATCH /assistants/{id}/chatapp-enabled`.
 *
 * Body `{ enabled: boolean }` (alias `chatappEnabled`). 200 `data: { assistantId, chatappEnabled,
 * phoneNumberId }`. Enabling needs the assistant's `phoneNumberId` to name a live number of the
 * caller's tenant that has been onboarded (`chatappOnboarded` in the control API); otherwise
 * 400 VALIDATION_ERROR on field `phoneNumberId` (§4.5, §7). Disabling always succeeds. The
 * assistant is looked up first (unknown or another tenant's → 404 RESOURCE_NOT_FOUND).
 * The flag is kept beside the assistant, not among its 42 §2.2 properties.
 */
import type { FastifyPluginAsync } from 'fastify';
import { tenantOf } from '../auth.ts';
import { ok, validationError } from '../envelope.ts';
import { findOwned } from '../resources.ts';
import { seam } from '../seam.ts';
import { isPlainObject } from '../validation/formats.ts';

/**
 * §4.5: what enabling the channel needs: a number linked to the assistant (a live number of the
 * caller's tenant), and that number onboarded for the messaging app.
 */
export const enableRequirements = seam('chatapp.enable-requirements', (): { linkedNumber: boolean; onboarded: boolean } => ({
  linkedNumber: true,
  onboarded: true,
}));

/** Plugin with the chatapp-enabled route. */
export const chatappRoutes: FastifyPluginAsync = async (app) => {
  const state = app.sim;
  const flags = () => state.collection<boolean>('chatappEnabled');

  app.patch<{ Params: { id: string } }>('/assistants/:id/chatapp-enabled', async (request, reply) => {
    const tenantId = tenantOf(request);
    const assistant = findOwned(state, state.assistants, tenantId, request.params.id, 'assistant');
    const body = request.body === undefined ? {} : request.body;
    if (!isPlainObject(body)) throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
    const enabled = 'enabled' in body ? body.enabled : body.chatappEnabled;
    if (typeof enabled !== 'boolean') throw validationError([{ field: 'enabled', message: 'is required: a boolean' }]);
    const phoneNumberId = assistant.data.phoneNumberId;
    if (enabled) {
      const needs = state.behaviour.of(enableRequirements)();
      const num = typeof phoneNumberId === 'string' ? state.phoneNumbers.get(phoneNumberId) : undefined;
      if (needs.linkedNumber && (!num || num.deleted || num.tenantId !== tenantId)) {
        throw validationError([{ field: 'phoneNumberId', message: 'the assistant has no linked number' }]);
      }
      if (needs.onboarded && num && !num.chatappOnboarded) {
        throw validationError([{ field: 'phoneNumberId', message: 'the linked number has not been onboarded for the messaging app' }]);
      }
    }
    flags().set(assistant.data.id as string, enabled);
    return ok(reply, { assistantId: assistant.data.id, chatappEnabled: enabled, phoneNumberId: phoneNumberId ?? null });
  });
};
