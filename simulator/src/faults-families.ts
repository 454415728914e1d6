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
 * - Statements no fault stood for yet: each gets the plainest way to break it (a required
 *   property missing or mistyped, a list or an enum check skipped, the wrong status, a route not
 *   served, an event not delivered).
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
    name: 'assistants.updated-at-missing',
    clauses: ['2.2/response-shape'],
    description: "The assistant answer (GET, PATCH) lacks updatedAt, one of its 33 required properties.",
  },
  {
    name: 'assistants.created-at-text',
    clauses: ['2.2/response-shape'],
    description: "createdAt is a text (\"recently\") instead of a date-time, a date, a number or null.",
  },
  {
    name: 'assistants.feature-flags-strings',
    clauses: ['2.2/response-shape'],
    description: "featureFlags maps names to strings (\"true\") instead of booleans.",
  },
  {
    name: 'assistants.transfer-settings-as-string',
    clauses: ['2.5/get-returns-object'],
    description: "A stored transferSettings document is answered as a JSON string instead of an object.",
  },
  {
    name: 'assistants.patch-omits-server-url',
    clauses: ['4.1/response-includes-server-url'],
    description: "The PATCH answer leaves serverUrl out, so the caller cannot confirm the write.",
  },
  {
    name: 'assistants.patch-returns-stale',
    clauses: ['4.1/patch-returns-updated'],
    description: "The PATCH answer is the assistant as it was before the write.",
  },
  {
    name: 'assistants.unknown-patch-403',
    clauses: ['4.1/unknown-id-404'],
    description: "PATCH of an assistant id that never existed answers 403 FORBIDDEN instead of 404 RESOURCE_NOT_FOUND.",
  },
  {
    name: 'taskoverrides.unknown-assistant-empty',
    clauses: ['4.2/task-overrides-unknown-assistant'],
    description: "GET /assistants/{id}/tasks/overrides of an assistant that never existed answers 200 with [] instead of 404.",
  },
  {
    name: 'bounds.delivery-mode-any-string',
    clauses: ['2.4/delivery-mode-enum'],
    description: "deliveryMode accepts any string, not only none, emotion_tagging and expressive.",
  },
  {
    name: 'bounds.pace-any-string',
    clauses: ['2.4/conversation-config-shape'],
    description: "expressiveOptions.pace accepts any string, not only slow, normal and fast.",
  },
  {
    name: 'bounds.plan-field-null-refused',
    clauses: ['2.4/plan-null-accepted'],
    description: "null is accepted on a whole plan but refused on a field inside one (one of \"every field\", not all).",
  },
  {
    name: 'bounds.transfer-settings-string-values',
    clauses: ['2.5/known-keys'],
    description: "transferSettings takes a string (\"yes\") for amd_detection and use_assistant_number instead of refusing a non-boolean.",
  },
  {
    name: 'bounds.keyterm-term-any-type',
    clauses: ['2.6/item-shapes'],
    description: "An sttKeyterms item takes a non-string term (a number).",
  },
  {
    name: 'bounds.language-null-refused',
    clauses: ['2.6/language-null-or-omitted'],
    description: "A dictionary item with language null is refused (null must mean \"every call\").",
  },
  {
    name: 'merge.ivr-unknown-keys-dropped',
    clauses: ['2.7/free-form'],
    description: "ivrSettings keeps only ivrMode: other inner keys are dropped, as if the document were validated.",
  },
  {
    name: 'merge.ivr-mode-false-dropped',
    clauses: ['2.7/ivr-mode-boolean'],
    description: "ivrSettings.ivrMode false is dropped as if it were the default, so a GET does not show it.",
  },
  {
    name: 'merge.ivr-omitted-cleared',
    clauses: ['2.7/omitted-unchanged'],
    description: "A PATCH without ivrSettings clears the stored document.",
  },

];
