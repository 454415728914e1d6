/**
 * Tenant-scoped lookup shared by every resource route (§5.7): an unknown id, a malformed id and
 * another tenant's id all take the SAME code path and produce the same 404 RESOURCE_NOT_FOUND
 * (same message, same headers). Malformed ids (not a uuid) are read as unknown ids rather than
 * VALIDATION_ERROR: an id is opaque (§2.1, §9.4), so the server only says it has no such resource.
 */
import { ApiError, forbidden, notFound } from './envelope.ts';
import { faultOn } from './faults.ts';
import { seam } from './seam.ts';
import type { SimState } from './state.ts';

/**
 * The record with `id` in `map` if it belongs to `tenantId`; otherwise throws ApiError 404
 * RESOURCE_NOT_FOUND. `resource` names the kind (e.g. `'assistant'`) for the cross-tenant faults
 * `xtenant.foreign-assistant-403` and `xtenant.foreign-message-differs`, which apply to assistants.
 */
export function findOwned<T extends { tenantId: string }>(
  state: SimState,
  map: Map<string, T>,
  tenantId: string,
  id: string,
  resource: string,
): T {
  const rec = map.get(id);
  if (rec && rec.tenantId === tenantId) return rec;
  if (rec && resource === 'assistant') {
    if (faultOn(state, 'xtenant.foreign-assistant-403')) throw forbidden();
    if (faultOn(state, 'xtenant.foreign-message-differs')) {
      throw new ApiError(404, 'RESOURCE_NOT_FOUND', 'Assistant belongs to another tenant');
    }
  }
  throw notFound();
}

/** Every record of `map` owned by `tenantId`, in insertion order. */
export function listOwned<T extends { tenantId: string }>(map: Map<string, T>, tenantId: string): T[] {
  return [...map.values()].filter((r) => r.tenantId === tenantId);
}

/**
 * §5.7: the extra wait, in ms, before answering a request about another tenant's resource: none,
 * so the answer comes as fast as one about an unknown id and timing reveals nothing. `resource`
 * names the kind, `form` the form of the answer (the envelope, or the bare JSON of §7 exception 2).
 */
export const foreignAnswerDelay = seam('xtenant.answer-delay', (_resource: 'assistant' | 'call', _form: 'envelope' | 'bare'): number => 0);
