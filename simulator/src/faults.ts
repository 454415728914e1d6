/**
 * Registry of deliberate spec violations ("faults"). Each one breaks a single clause so the
 * conformance suite can prove it notices. Switch them on with
 * `PUT /__control/config {"faults": ["auth.accept-bearer", ...]}`; list them with
 * `GET /__control/faults`. A switch point in the code is always `faultOn(state, '<name>')`.
 *
 * Clause ids are `<spec section>/<short-slug>`, the ids of the suite's clause catalogue
 * (spec/clauses/*.json); test/unit/fault-clauses.test.ts checks that each one exists there.
 */
import { FAMILY_FAULTS } from './faults-families.ts';
import { GAP_FAULTS } from './faults-gaps.ts';
import { SYSTEMATIC_FAULTS } from './faults-systematic.ts';
import type { SimState } from './state.ts';

/** One fault: its name, the spec clauses it violates, and what it does. */
export interface FaultInfo {
  name: string;
  clauses: string[];
  description: string;
}

/** Every known fault. Add new ones here; names are `<area>.<what>`. */
export const FAULTS: readonly FaultInfo[] = [
  {
    name: 'bounds.idle-timeout-61',
    clauses: ['2.2/idle-timeout-bounds', '8/idle-timeout-0-60'],
    description: 'idleTimeoutSeconds accepts 61 (upper bound off by one).',
  },
  {
    name: 'bounds.transfer-mode-case-insensitive',
    clauses: ['2.2/transfer-mode-case-sensitive'],
    description: 'transferMode is matched case-insensitively (e.g. "Cold-Transfer" accepted, stored lower-case).',
  },
  {
    name: 'merge.transfer-settings-replace',
    clauses: ['2.5/deep-merge'],
    description: 'A transferSettings PATCH replaces the stored document instead of deep-merging into it.',
  },
  {
    name: 'merge.ivr-null-key-kept',
    clauses: ['2.7/null-key-deleted'],
    description: 'An ivrSettings key sent as null is stored as null instead of being deleted.',
  },
  {
    name: 'merge.tool-ids-empty-ignored',
    clauses: ['2.2/tool-ids-replace-set'],
    description: '`toolIds: []` is ignored instead of unlinking every tool.',
  },
  {
    name: 'merge.settings-clobbered',
    clauses: ['2.2/transfer-dial-timeout-merged-into-settings'],
    description: 'transferDialTimeout replaces the whole settings object instead of merging one key.',
  },
  // assistant bounds, validation and merge (§2.2–§2.7, §4.1, §8): model/assistant.ts,
  // validation/settings.ts, validation/server-url.ts
  {
    name: 'bounds.call-time-limit-9',
    clauses: ['2.2/call-time-limit-bounds', '8/call-time-limit-10-43200'],
    description: 'callTimeLimitSeconds accepts 9 (lower bound off by one).',
  },
  {
    name: 'bounds.call-time-limit-43201',
    clauses: ['2.2/call-time-limit-bounds', '8/call-time-limit-10-43200'],
    description: 'callTimeLimitSeconds accepts 43201 (upper bound off by one).',
  },
  {
    name: 'bounds.idle-timeout-minus-1',
    clauses: ['2.2/idle-timeout-bounds', '8/idle-timeout-0-60'],
    description: 'idleTimeoutSeconds accepts -1 (lower bound off by one).',
  },
  {
    name: 'bounds.idle-message-count-11',
    clauses: ['2.2/idle-message-max-spoken-count-bounds', '8/idle-message-max-spoken-count-0-10'],
    description: 'idleMessageMaxSpokenCount accepts 11 (upper bound off by one).',
  },
  {
    name: 'bounds.transfer-dial-timeout-0',
    clauses: ['2.2/transfer-dial-timeout-bounds', '8/transfer-dial-timeout-1-60'],
    description: 'transferDialTimeout accepts 0 (lower bound off by one).',
  },
  {
    name: 'bounds.transfer-dial-timeout-61',
    clauses: ['2.2/transfer-dial-timeout-bounds', '8/transfer-dial-timeout-1-60'],
    description: 'transferDialTimeout accepts 61 (upper bound off by one).',
  },
  {
    name: 'bounds.warm-whisper-31',
    clauses: ['2.2/warm-whisper-delay-bounds', '8/warm-whisper-delay-0-30'],
    description: 'warmWhisperDelaySeconds accepts 31 (upper bound off by one).',
  },
  {
    name: 'bounds.integer-string-unbounded',
    clauses: ['2.2/integer-string-accepted'],
    description: 'An integer string ("61") on an integer field is accepted without checking its value against the bounds; JSON integers are still checked.',
  },
  {
    name: 'bounds.non-integer-accepted',
    clauses: ['2.2/request-types'],
    description: 'A non-integer number within the bounds (10.5) is accepted and stored on the integer fields of §2.2.',
  },
  {
    name: 'bounds.warm-return-2001',
    clauses: ['2.2/warm-return-message-length', '8/warm-return-message-2000'],
    description: 'warmReturnMessage accepts 2001 characters.',
  },
  {
    name: 'bounds.instructions-append-2001',
    clauses: ['2.4/instructions-append-length', '8/instructions-append-2000'],
    description: 'expressiveOptions.instructionsAppend accepts 2001 characters.',
  },
  {
    name: 'bounds.interruption-min-duration-6',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minDuration accepts values up to 6 (5.5 and 6 accepted).',
  },
  {
    name: 'bounds.interruption-min-words-11',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minWords accepts 11.',
  },
  {
    name: 'bounds.language-name',
    clauses: ['2.6/language-name-rejected'],
    description: 'A dictionarySettings language given as a word of three or more letters (English) is accepted and stored as sent.',
  },
  {
    name: 'bounds.regional-locale-kept',
    clauses: ['2.6/regional-locale-base-code'],
    description: 'A regional locale (en-GB) is accepted but stored as sent instead of as its base code.',
  },
  {
    name: 'bounds.pronunciation-neither',
    clauses: ['2.6/pronunciation-needs-phonemes-or-respell'],
    description: 'A ttsPronunciations item with neither phonemes nor respell is accepted.',
  },
  {
    name: 'bounds.transfer-settings-unknown-key',
    clauses: ['2.5/unknown-key-rejected'],
    description: 'An unknown transferSettings key is accepted and stored (known keys are still type-checked).',
  },
  {
    name: 'validation.details-first-only',
    clauses: ['4.1/validation-error-details'],
    description: 'A rejected assistant PATCH lists only its first failing field in error.details.',
  },
  {
    name: 'validation.partial-apply',
    clauses: ['4.1/rejected-patch-changes-nothing'],
    description: 'A rejected assistant PATCH still answers 400 but stores the fields that passed validation.',
  },
  {
    name: 'merge.transfer-settings-null-ignored',
    clauses: ['2.5/null-clears'],
    description: 'transferSettings: null leaves the stored document instead of clearing it.',
  },
  {
    name: 'merge.dictionary-settings-merged',
    clauses: ['2.6/replace'],
    description: 'A dictionarySettings object is merged key by key into the stored one instead of replacing it.',
  },
  {
    name: 'merge.dictionary-settings-null-ignored',
    clauses: ['2.6/null-clears'],
    description: 'dictionarySettings: null leaves the stored document instead of clearing it.',
  },
  {
    name: 'merge.ivr-replace',
    clauses: ['2.7/deep-merge-per-key'],
    description: 'An ivrSettings PATCH replaces the stored document instead of merging per key.',
  },
  {
    name: 'merge.ivr-null-ignored',
    clauses: ['2.7/null-clears'],
    description: 'ivrSettings: null leaves the stored document instead of clearing it.',
  },
  {
    name: 'merge.plan-null-ignored',
    clauses: ['2.4/plan-null-deletes'],
    description: 'null on a conversationConfig plan, or on a field inside one, is accepted but leaves the stored value.',
  },
  {
    name: 'merge.expressive-options-null-kept',
    clauses: ['2.4/expressive-options-null-omits'],
    description: 'expressiveOptions: null is stored as null instead of deleting the key.',
  },
  {
    name: 'merge.tool-ids-union',
    clauses: ['2.2/tool-ids-replace-set'],
    description: 'A non-empty toolIds is added to the stored set instead of replacing it.',
  },
  {
    name: 'merge.dictionary-ids-empty-ignored',
    clauses: ['2.2/dictionary-ids-empty-unlinks'],
    description: '`dictionaryIds: []` is ignored instead of unlinking every dictionary.',
  },
  {
    name: 'merge.warm-whisper-clobbers',
    clauses: ['2.2/warm-whisper-delay-merged-into-settings'],
    description: 'warmWhisperDelaySeconds replaces the whole settings object instead of merging one key.',
  },
  {
    name: 'merge.warm-return-clobbers',
    clauses: ['2.2/warm-return-message-merged-into-settings'],
    description: 'warmReturnMessage replaces the whole settings object instead of merging one key.',
  },
  {
    name: 'merge.omitted-reset',
    clauses: ['4.1/omitted-unchanged'],
    description: 'A PATCH that omits idleMessages resets it to its default ([]).',
  },
  {
    name: 'merge.replay-drift',
    clauses: ['8/patch-replay-converges'],
    description: 'categories sent in a PATCH are appended to the stored list, so a replayed PATCH grows it.',
  },
  {
    name: 'xtenant.foreign-assistant-403',
    clauses: ['5.7/foreign-resource-not-found'],
    description: "Another tenant's assistant answers 403 FORBIDDEN instead of 404 RESOURCE_NOT_FOUND.",
  },
  {
    name: 'xtenant.foreign-message-differs',
    clauses: ['5.7/foreign-indistinguishable'],
    description:
      "Another tenant's assistant answers 404 RESOURCE_NOT_FOUND with a different message than a nonexistent one.",
  },
  // cross-tenant (§5.7): routes/assistants.ts, routes/tools.ts
  {
    name: 'xtenant.foreign-assistant-write',
    clauses: ['5.7/no-cross-tenant-write'],
    description: "PATCH /assistants/{id} on another tenant's assistant applies the change and answers 200.",
  },
  {
    name: 'xtenant.list-leak',
    clauses: ['5.7/lists-own-tenant-only'],
    description: "GET /assistants with an organization key lists every tenant's assistants of the organization.",
  },
  // organization routes (§4.5, §5.3, §5.6): auth.ts
  // tools (§4.5): routes/tools.ts
  // text test suites (§3, §4.5, §8): routes/test-suites.ts
  // catalogues, prompts, channels (§2.10, §4.5): routes/models.ts, routes/prompts.ts, routes/chatapp.ts
  // task overrides (§2.8), calls and live monitoring (§4.5)
  {
    name: 'taskoverrides.null-dropped',
    clauses: ['2.8/task-override-shape'],
    description: 'GET /assistants/{id}/tasks/overrides lists an override whose instructionOverride is null without that key.',
  },
  {
    name: 'taskoverrides.object-not-array',
    clauses: ['4.2/task-overrides-array'],
    description: 'GET /assistants/{id}/tasks/overrides answers `data: { overrides: [...] }` instead of an array.',
  },
  {
    name: 'prompts.link-null-ignored',
    clauses: ['2.2/prompt-link-fields'],
    description: 'PATCH /assistants/{id} with chatPromptId (or whisperSummaryPromptId, voicePersonaPromptId) null leaves the stored id.',
  },
  ...GAP_FAULTS,
  ...SYSTEMATIC_FAULTS,
  ...FAMILY_FAULTS,
];

const KNOWN = new Set(FAULTS.map((f) => f.name));

/** True when `name` is a registered fault. */
export function isKnownFault(name: string): boolean {
  return KNOWN.has(name);
}

/** True when the fault `name` is switched on in this simulator's config. */
export function faultOn(state: SimState, name: string): boolean {
  return state.config.faults.includes(name);
}
