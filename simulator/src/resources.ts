/**
 * Tenant-scoped lookup shared by every resource route (§5.7): an unknown id, a malformed id and
 * another tenant's id all take the SAME code path and produce the same 404 RESOURCE_NOT_FOUND
 * (same message, same headers). Malformed ids (not a uuid) are read as unknown ids rather than
 * VALIDATION_ERROR: an id is opaque (§2.1, §9.4), so the server only says it has no such resource.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiError, notFound } from './envelope.ts';
import { seam } from './seam.ts';
import type { SimState } from './state.ts';

/**
 * §5.7: the not-found answer for an id of kind `resource` (e.g. `'assistant'`) the tenant does
 * not own: 404 RESOURCE_NOT_FOUND, the same whether the id is unknown or another tenant's
 * (`foreign`).
 */
export const notOwned = seam('resources.not-owned', (_resource: string, _foreign: boolean): ApiError => notFound());

/**
 * §5.7: the extra wait, in ms, before answering a request about another tenant's resource: none,
 * so the answer comes as fast as one about an unknown id and timing reveals nothing. `resource`
 * names the kind, `form` the form of the answer (the envelope, or the bare JSON of §7 exception 2).
 */
export const foreignAnswerDelay = seam('xtenant.answer-delay', (_resource: 'assistant' | 'call', _form: 'envelope' | 'bare'): number => 0);

/**
 * The record with `id` in `map` if it belongs to `tenantId`; otherwise throws the not-found
 * answer ({@link notOwned}: ApiError 404 RESOURCE_NOT_FOUND). `resource` names the kind.
 */
export function findOwned<T extends { tenantId: string }>(state: SimState, map: Map<string, T>, tenantId: string, id: string, resource: string): T {
  const rec = map.get(id);
  if (rec && rec.tenantId === tenantId) return rec;
  throw state.behaviour.of(notOwned)(resource, rec !== undefined);
}

/**
 * {@link findOwned} for a route that answers in the envelope and may wait: another tenant's id
 * first waits {@link foreignAnswerDelay}.
 */
export async function lookUpOwned<T extends { tenantId: string }>(
  state: SimState,
  map: Map<string, T>,
  tenantId: string,
  id: string,
  resource: 'assistant' | 'call',
): Promise<T> {
  const rec = map.get(id);
  const delay = rec && rec.tenantId !== tenantId ? state.behaviour.of(foreignAnswerDelay)(resource, 'envelope') : 0;
  if (delay > 0) await sleep(delay);
  return findOwned(state, map, tenantId, id, resource);
}

/** Every record of `map` owned by `tenantId`, in insertion order. */
export function listOwned<T extends { tenantId: string }>(map: Map<string, T>, tenantId: string): T[] {
  return [...map.values()].filter((r) => r.tenantId === tenantId);
}
