/**
 * Which registered faults belong to the surface areas (calls, monitoring, insights, SMS, tools,
 * prompts, catalogues, channels, text tests, organization routes, and the cross-tenant faults of
 * those routes). They are probed in faults-surface.test.ts; faults.test.ts probes the rest.
 */

/** Cross-tenant and auth faults added with the surface routes (the first assistant ones stay in faults.test.ts). */
export const SURFACE_XTENANT_FAULTS = [
  'xtenant.foreign-assistant-write',
  'xtenant.list-leak',
] as const;

const AREAS = /^(monitoring|insights|sms|org|tools|texttests|catalog|prompts|chatapp|calls|taskoverrides|assistants)\./;

/** True when fault `name` is probed by faults-surface.test.ts. */
export function isSurfaceFault(name: string): boolean {
  return AREAS.test(name) || (SURFACE_XTENANT_FAULTS as readonly string[]).includes(name);
}
