/**
 * Faults of the statement families (docs/mutation.md, "ways"): each breaks a statement in a way
 * that a test touching the statement can still miss, because it exercises only one member of a
 * family the statement covers whole. Registered in faults.ts with the others.
 * - Cardinality: "one per invalid field" (§7) broken by one entry per failed rule.
 * - Every path to the same event: the end-of-call report (§6) emitted only on the telephony
 *   hang-up path, not when `POST /calls/{id}/end` ends the call.
 * - Scope of a limit: the per-tenant mint rate (§4.5, §7 exception 3) kept per API key, so an
 *   organization key acting for the tenant gets a second budget.
 * - One or all: `DELETE /calls/{id}/monitor-session` (§4.5) closing every session of the call.
 * - Units: the SMS message limit (§4.4, §8), warmReturnMessage (§2.2) and instructionsAppend
 *   (§2.4) counted in UTF-8 bytes instead of characters.
 * - Cardinality "each": only the first item of an array checked (toolIds §2.2, pronunciations and
 *   their language §2.6).
 * - Every credential form: a rotated organization key still accepted (§5.4), a tenant key sending
 *   its own X-Tenant-Id refused (§5.2).
 * - metadata.path (§2.1) as the router's pattern instead of the requested path.
 */
import type { FaultInfo } from './faults.ts';

/** The faults of this file. */
export const FAMILY_FAULTS: readonly FaultInfo[] = [
  {
    name: 'validation.details-per-rule',
    clauses: ['7/validation-details', '4.1/validation-error-details'],
    description:
      'error.details lists one entry per failed rule instead of one per invalid field: an "integer or integer string" field given neither lists both branches of the union.',
  },
  {
    name: 'monitoring.end-route-no-report',
    clauses: ['6/end-of-call-every-end'],
    description: 'A call ended through POST /calls/{id}/end sends no end-of-call report (only the telephony hang-up path emits it).',
  },
  {
    name: 'monitoring.rate-per-key',
    clauses: ['4.5/monitor-session-per-tenant'],
    description:
      "The monitor-session mint rate is counted per API key type instead of per tenant: an organization key acting for the tenant (X-Tenant-Id) has a budget of its own beside the tenant key's.",
  },
  {
    name: 'monitoring.delete-closes-all',
    clauses: ['4.5/monitor-session-delete'],
    description: 'DELETE /calls/{id}/monitor-session closes every open session of the call instead of one.',
  },
  {
    name: 'sms.counts-utf8-bytes',
    clauses: ['4.4/sms-message-length', '8/limit-sms-message'],
    description: 'The SMS message limit counts UTF-8 bytes: 1,600 characters that take two bytes each (U+00E9) are refused.',
  },
  {
    name: 'bounds.warm-return-counts-bytes',
    clauses: ['2.2/warm-return-message-length', '8/warm-return-message-2000'],
    description: 'The warmReturnMessage limit counts UTF-8 bytes: 2,000 characters of U+00E9 are refused.',
  },
  {
    name: 'bounds.instructions-append-counts-bytes',
    clauses: ['2.4/instructions-append-length', '8/instructions-append-2000'],
    description: 'The instructionsAppend limit counts UTF-8 bytes: 2,000 characters of U+00E9 are refused.',
  },
  {
    name: 'bounds.tool-ids-first-item-only',
    clauses: ['2.2/request-types'],
    description: 'Only the first item of toolIds is checked to be a uuid: [uuid, "not-a-uuid"] is accepted.',
  },
  {
    name: 'bounds.pronunciation-first-item-only',
    clauses: ['2.6/pronunciation-needs-phonemes-or-respell'],
    description: 'Only the first ttsPronunciations item must carry phonemes or respell; a later one with neither is accepted.',
  },
  {
    name: 'bounds.language-first-item-only',
    clauses: ['2.6/language-name-rejected'],
    description: 'Only the first dictionary item has its language checked; a later one with a language name ("English") is stored.',
  },
  {
    name: 'auth.rotated-org-key-accepted',
    clauses: ['5.4/rotated-key-invalid'],
    description: 'A rotated-away organization key keeps authenticating (rotation invalidates tenant keys only).',
  },
  {
    name: 'auth.tenant-key-own-header-refused',
    clauses: ['5.2/tenant-key-own-tenant-header'],
    description: "A tenant key sent with its own tenant's X-Tenant-Id is refused with 400 VALIDATION_ERROR.",
  },
  {
    name: 'envelope.path-route-pattern',
    clauses: ['2.1/metadata-path'],
    description: 'metadata.path is the route pattern (`/assistants/:id`) instead of the requested path.',
  },
];
