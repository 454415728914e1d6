/**
 * Faults of the assistant's bounds and rules (§2.2, §2.4–§2.6, §8): each overrides one seam of
 * validation/rules.ts, validation/settings.ts or model/assistant.ts. The large families come from
 * tables: a moved end of one field's bound, a coercion a lenient reader makes for one field, a
 * length counted in bytes. Probes: simulator/test/faults/bounds.test.ts.
 */
import { fieldRule, storedInteger } from '../model/assistant.ts';
import { override } from '../seam.ts';
import { bound, enumValue, INTEGER_FIELDS, integerReading, textLength, type BoundedField } from '../validation/rules.ts';
import { dictionaryItemRule, dictionaryLanguage, documentFieldRule, TRANSFER_SETTINGS_KEYS, transferSettingsKeyRule } from '../validation/settings.ts';
import { defineFaults, type Fault, type FaultRow } from './define.ts';

/** The integer fields §2.2 merges into settings (response type any): a string there breaks no stated type. */
const SETTINGS_MERGED: readonly string[] = ['transferDialTimeout', 'warmWhisperDelaySeconds'];

/**
 * One end of the bound of `field` moved (§2.2, §2.4, §8): `min` or `max` in place of the spec's,
 * either accepting one past the bound or refusing the bound itself.
 */
const MOVED_ENDS = [
  {
    name: 'bounds.call-time-limit-9',
    clauses: ['2.2/call-time-limit-bounds', '8/call-time-limit-10-43200'],
    description: 'callTimeLimitSeconds accepts 9 (lower bound off by one).',
    field: 'callTimeLimitSeconds',
    min: 9,
  },
  {
    name: 'bounds.call-time-limit-43201',
    clauses: ['2.2/call-time-limit-bounds', '8/call-time-limit-10-43200'],
    description: 'callTimeLimitSeconds accepts 43201 (upper bound off by one).',
    field: 'callTimeLimitSeconds',
    max: 43201,
  },
  {
    name: 'bounds.call-time-limit-refuses-10',
    clauses: ['2.2/call-time-limit-bounds'],
    description: 'callTimeLimitSeconds refuses 10, its lower bound (over-blocking off by one).',
    field: 'callTimeLimitSeconds',
    min: 11,
  },
  {
    name: 'bounds.call-time-limit-refuses-43200',
    clauses: ['2.2/call-time-limit-bounds'],
    description: 'callTimeLimitSeconds refuses 43200, its upper bound (over-blocking off by one).',
    field: 'callTimeLimitSeconds',
    max: 43199,
  },
  {
    name: 'bounds.idle-timeout-61',
    clauses: ['2.2/idle-timeout-bounds', '8/idle-timeout-0-60'],
    description: 'idleTimeoutSeconds accepts 61 (upper bound off by one).',
    field: 'idleTimeoutSeconds',
    max: 61,
  },
  {
    name: 'bounds.idle-timeout-minus-1',
    clauses: ['2.2/idle-timeout-bounds', '8/idle-timeout-0-60'],
    description: 'idleTimeoutSeconds accepts -1 (lower bound off by one).',
    field: 'idleTimeoutSeconds',
    min: -1,
  },
  {
    name: 'bounds.idle-timeout-refuses-0',
    clauses: ['2.2/idle-timeout-bounds'],
    description: 'idleTimeoutSeconds refuses 0, its lower bound.',
    field: 'idleTimeoutSeconds',
    min: 1,
  },
  {
    name: 'bounds.idle-timeout-refuses-60',
    clauses: ['2.2/idle-timeout-bounds'],
    description: 'idleTimeoutSeconds refuses 60, its upper bound.',
    field: 'idleTimeoutSeconds',
    max: 59,
  },
  {
    name: 'bounds.idle-message-count-11',
    clauses: ['2.2/idle-message-max-spoken-count-bounds', '8/idle-message-max-spoken-count-0-10'],
    description: 'idleMessageMaxSpokenCount accepts 11 (upper bound off by one).',
    field: 'idleMessageMaxSpokenCount',
    max: 11,
  },
  {
    name: 'bounds.idle-message-count-minus-1',
    clauses: ['2.2/idle-message-max-spoken-count-bounds'],
    description: 'idleMessageMaxSpokenCount accepts -1 (lower bound off by one).',
    field: 'idleMessageMaxSpokenCount',
    min: -1,
  },
  {
    name: 'bounds.idle-message-count-refuses-0',
    clauses: ['2.2/idle-message-max-spoken-count-bounds'],
    description: 'idleMessageMaxSpokenCount refuses 0, its lower bound.',
    field: 'idleMessageMaxSpokenCount',
    min: 1,
  },
  {
    name: 'bounds.idle-message-count-refuses-10',
    clauses: ['2.2/idle-message-max-spoken-count-bounds'],
    description: 'idleMessageMaxSpokenCount refuses 10, its upper bound.',
    field: 'idleMessageMaxSpokenCount',
    max: 9,
  },
  {
    name: 'bounds.transfer-dial-timeout-0',
    clauses: ['2.2/transfer-dial-timeout-bounds', '8/transfer-dial-timeout-1-60'],
    description: 'transferDialTimeout accepts 0 (lower bound off by one).',
    field: 'transferDialTimeout',
    min: 0,
  },
  {
    name: 'bounds.transfer-dial-timeout-61',
    clauses: ['2.2/transfer-dial-timeout-bounds', '8/transfer-dial-timeout-1-60'],
    description: 'transferDialTimeout accepts 61 (upper bound off by one).',
    field: 'transferDialTimeout',
    max: 61,
  },
  {
    name: 'bounds.transfer-dial-timeout-refuses-1',
    clauses: ['2.2/transfer-dial-timeout-bounds'],
    description: 'transferDialTimeout refuses 1, its lower bound.',
    field: 'transferDialTimeout',
    min: 2,
  },
  {
    name: 'bounds.transfer-dial-timeout-refuses-60',
    clauses: ['2.2/transfer-dial-timeout-bounds'],
    description: 'transferDialTimeout refuses 60, its upper bound.',
    field: 'transferDialTimeout',
    max: 59,
  },
  {
    name: 'bounds.warm-whisper-31',
    clauses: ['2.2/warm-whisper-delay-bounds', '8/warm-whisper-delay-0-30'],
    description: 'warmWhisperDelaySeconds accepts 31 (upper bound off by one).',
    field: 'warmWhisperDelaySeconds',
    max: 31,
  },
  {
    name: 'bounds.warm-whisper-minus-1',
    clauses: ['2.2/warm-whisper-delay-bounds'],
    description: 'warmWhisperDelaySeconds accepts -1 (lower bound off by one).',
    field: 'warmWhisperDelaySeconds',
    min: -1,
  },
  {
    name: 'bounds.warm-whisper-refuses-0',
    clauses: ['2.2/warm-whisper-delay-bounds'],
    description: 'warmWhisperDelaySeconds refuses 0, its lower bound.',
    field: 'warmWhisperDelaySeconds',
    min: 1,
  },
  {
    name: 'bounds.warm-whisper-refuses-30',
    clauses: ['2.2/warm-whisper-delay-bounds'],
    description: 'warmWhisperDelaySeconds refuses 30, its upper bound.',
    field: 'warmWhisperDelaySeconds',
    max: 29,
  },
  {
    name: 'bounds.interruption-min-duration-6',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minDuration accepts values up to 6 (5.5 and 6 accepted).',
    field: 'interruptionPlan.minDuration',
    max: 6,
  },
  {
    name: 'bounds.interruption-min-duration-negative',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minDuration accepts values below 0 (down to -1).',
    field: 'interruptionPlan.minDuration',
    min: -1,
  },
  {
    name: 'bounds.interruption-min-duration-refuses-0',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minDuration refuses 0, its lower bound.',
    field: 'interruptionPlan.minDuration',
    min: 0.001,
  },
  {
    name: 'bounds.interruption-min-duration-refuses-5',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minDuration refuses 5, its upper bound.',
    field: 'interruptionPlan.minDuration',
    max: 4.999,
  },
  {
    name: 'bounds.interruption-min-words-11',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minWords accepts 11.',
    field: 'interruptionPlan.minWords',
    max: 11,
  },
  {
    name: 'bounds.interruption-min-words-minus-1',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minWords accepts -1.',
    field: 'interruptionPlan.minWords',
    min: -1,
  },
  {
    name: 'bounds.interruption-min-words-refuses-0',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minWords refuses 0, its lower bound.',
    field: 'interruptionPlan.minWords',
    min: 1,
  },
  {
    name: 'bounds.interruption-min-words-refuses-10',
    clauses: ['2.4/interruption-plan-bounds', '8/interruption-plan-bounds'],
    description: 'interruptionPlan.minWords refuses 10, its upper bound.',
    field: 'interruptionPlan.minWords',
    max: 9,
  },
  {
    name: 'bounds.warm-return-2001',
    clauses: ['2.2/warm-return-message-length', '8/warm-return-message-2000'],
    description: 'warmReturnMessage accepts 2001 characters.',
    field: 'warmReturnMessage',
    max: 2001,
  },
  {
    name: 'bounds.warm-return-refuses-2000',
    clauses: ['2.2/warm-return-message-length', '8/warm-return-message-2000'],
    description: 'warmReturnMessage refuses 2000 characters, its limit (over-blocking by one).',
    field: 'warmReturnMessage',
    max: 1999,
  },
  {
    name: 'bounds.instructions-append-2001',
    clauses: ['2.4/instructions-append-length', '8/instructions-append-2000'],
    description: 'expressiveOptions.instructionsAppend accepts 2001 characters.',
    field: 'instructionsAppend',
    max: 2001,
  },
  {
    name: 'bounds.instructions-append-refuses-2000',
    clauses: ['2.4/instructions-append-length', '8/instructions-append-2000'],
    description: 'expressiveOptions.instructionsAppend refuses 2000 characters, its limit.',
    field: 'instructionsAppend',
    max: 1999,
  },
] as const satisfies readonly (FaultRow<string> & { field: BoundedField; min?: number; max?: number })[];

/** A coercion a lenient reader makes: `field` takes a value its §2.2 request type refuses, when `accepts` says so. */
const COERCIONS = [
  {
    name: 'bounds.boolean-string-accepted',
    clauses: ['2.2/request-types'],
    description: 'the string "true" is accepted for the boolean recordingEnabled (coercion).',
    field: 'recordingEnabled',
    accepts: (v) => v === 'true' || v === 'false',
  },
  {
    name: 'bounds.number-for-string-accepted',
    clauses: ['2.2/request-types'],
    description: 'a number is accepted for the string firstMessage (coercion).',
    field: 'firstMessage',
    accepts: (v) => typeof v === 'number',
  },
  {
    name: 'bounds.uuid-any-string',
    clauses: ['2.2/request-types', '2.2/uuid-fields'],
    description: 'voiceId accepts any string, not only a uuid.',
    field: 'voiceId',
    accepts: (v) => typeof v === 'string',
  },
  {
    name: 'bounds.e164-without-plus',
    clauses: ['2.2/request-types', '2.2/e164-failover-number'],
    description: 'failoverNumber accepts a number without the leading + of E.164.',
    field: 'failoverNumber',
    accepts: (v) => typeof v === 'string' && /^[1-9]\d{6,14}$/.test(v),
  },
  {
    name: 'bounds.e164-unicode-digits',
    clauses: ['2.2/e164-failover-number'],
    description: 'failoverNumber matches E.164 with a Unicode-aware \\d (as Python re and .NET do): digits of other scripts (+١٤١٥…) are accepted.',
    field: 'failoverNumber',
    accepts: (v) => typeof v === 'string' && /^\+\p{Nd}{2,15}$/u.test(v),
  },
  {
    name: 'bounds.e164-16-digits',
    clauses: ['2.2/e164-failover-number'],
    description: 'failoverNumber accepts 16 digits after the + (E.164 allows at most 15): the pattern counts one digit too many.',
    field: 'failoverNumber',
    accepts: (v) => typeof v === 'string' && /^\+[1-9]\d{15}$/.test(v),
  },
  {
    name: 'bounds.categories-non-strings',
    clauses: ['2.2/request-types'],
    description: 'categories accepts an array with non-string items.',
    field: 'categories',
    accepts: (v) => Array.isArray(v),
  },
  {
    name: 'bounds.null-for-string-accepted',
    clauses: ['2.2/request-types'],
    description: 'null is accepted for firstMessage, whose request type is a string (not "or null").',
    field: 'firstMessage',
    accepts: (v) => v === null,
  },
  {
    name: 'bounds.boolean-number-accepted',
    clauses: ['2.2/request-types'],
    description: 'the number 1 is accepted for the boolean csatFeedback (coercion).',
    field: 'csatFeedback',
    accepts: (v) => v === 0 || v === 1,
  },
] as const satisfies readonly (FaultRow<string> & { field: string; accepts: (v: unknown) => boolean })[];

/** A text limited in characters (§8) measured in UTF-8 bytes (a units mistake). */
const COUNTS_BYTES = [
  {
    name: 'bounds.warm-return-counts-bytes',
    clauses: ['2.2/warm-return-message-length', '8/warm-return-message-2000'],
    description: 'The warmReturnMessage limit counts UTF-8 bytes: 2,000 characters of U+00E9 are refused.',
    field: 'warmReturnMessage',
  },
  {
    name: 'bounds.instructions-append-counts-bytes',
    clauses: ['2.4/instructions-append-length', '8/instructions-append-2000'],
    description: 'The instructionsAppend limit counts UTF-8 bytes: 2,000 characters of U+00E9 are refused.',
    field: 'instructionsAppend',
  },
] as const satisfies readonly (FaultRow<string> & { field: BoundedField })[];

/** The fault of a {@link MOVED_ENDS} row: the bound seam answers the moved end for its field. */
function movedEnd<N extends string>({ field, min, max, ...row }: FaultRow<N> & { field: BoundedField; min?: number; max?: number }): Fault & FaultRow<N> {
  return {
    ...row,
    override: override(bound, (next) => (f, sent) => {
      const spec = next(f, sent);
      return f === field ? { min: min ?? spec.min, max: max ?? spec.max } : spec;
    }),
  };
}

/** The fault of a {@link COERCIONS} row: the field's rule lets through what `accepts` takes. */
function coercion<N extends string>({ field, accepts, ...row }: FaultRow<N> & { field: string; accepts: (v: unknown) => boolean }): Fault & FaultRow<N> {
  return {
    ...row,
    override: override(fieldRule, (next) => (f, v) => {
      const problem = next(f, v);
      return problem && f === field && accepts(v) ? null : problem;
    }),
  };
}

/** The fault of a {@link COUNTS_BYTES} row: the text's length is its UTF-8 byte count. */
function countsBytes<N extends string>({ field, ...row }: FaultRow<N> & { field: BoundedField }): Fault & FaultRow<N> {
  return { ...row, override: override(textLength, (next) => (f, v) => (f === field ? Buffer.byteLength(v, 'utf8') : next(f, v))) };
}

/** The bounds and rules faults. */
export const BOUNDS_FAULTS = defineFaults([
  ...MOVED_ENDS.map(movedEnd),
  ...COERCIONS.map(coercion),
  ...COUNTS_BYTES.map(countsBytes),

  {
    name: 'bounds.integer-string-unbounded',
    clauses: ['2.2/integer-string-accepted'],
    description: 'An integer string ("61") on an integer field is accepted without checking its value against the bounds; JSON integers are still checked.',
    override: override(
      bound,
      (next) => (field, sent) =>
        typeof sent === 'string' && (INTEGER_FIELDS as readonly string[]).includes(field) ? { min: -Infinity, max: Infinity } : next(field, sent),
    ),
  },
  {
    name: 'bounds.integer-32-bit-wrap',
    clauses: [
      '2.2/call-time-limit-bounds',
      '2.2/idle-timeout-bounds',
      '2.2/idle-message-max-spoken-count-bounds',
      '2.2/transfer-dial-timeout-bounds',
      '2.2/warm-whisper-delay-bounds',
    ],
    description: 'The integer fields are read into a 32-bit integer before the bound is checked: 2^32 + 10 wraps to 10 and is accepted as 10.',
    override: override(integerReading, (next) => (v) => {
      const n = next(v);
      return n === null ? null : n | 0;
    }),
  },
  {
    name: 'bounds.integer-string-stored-as-text',
    clauses: ['2.2/integer-string-accepted', '2.2/response-shape'],
    description:
      'An integer string sent for a top-level integer field ("30") is stored and answered as that string, although the response type is number or null.',
    override: override(
      storedInteger,
      (next) => (field, sent, n) => (typeof sent === 'string' && !SETTINGS_MERGED.includes(field) ? sent : next(field, sent, n)),
    ),
  },
  {
    name: 'bounds.non-integer-accepted',
    clauses: ['2.2/request-types'],
    description: 'A non-integer number within the bounds (10.5) is accepted and stored on the integer fields of §2.2.',
    override: override(integerReading, (next) => (v) => next(v) ?? (typeof v === 'number' && Number.isFinite(v) ? v : null)),
  },
  {
    name: 'bounds.transfer-mode-case-insensitive',
    clauses: ['2.2/transfer-mode-case-sensitive'],
    description: 'transferMode is matched case-insensitively (e.g. "Cold-Transfer" accepted, stored lower-case).',
    override: override(
      enumValue,
      (next) => (field, v, allowed) =>
        next(field, v, allowed) ?? (field === 'transferMode' && typeof v === 'string' ? allowed.find((m) => m === v.toLowerCase()) : undefined),
    ),
  },
  {
    name: 'bounds.delivery-mode-any-string',
    clauses: ['2.4/delivery-mode-enum'],
    description: 'deliveryMode accepts any string, not only none, emotion_tagging and expressive.',
    override: override(enumValue, (next) => (field, v, allowed) => (field === 'deliveryMode' && typeof v === 'string' ? v : next(field, v, allowed))),
  },
  {
    name: 'bounds.pace-any-string',
    clauses: ['2.4/conversation-config-shape'],
    description: 'expressiveOptions.pace accepts any string, not only slow, normal and fast.',
    override: override(enumValue, (next) => (field, v, allowed) => (field === 'pace' && typeof v === 'string' ? v : next(field, v, allowed))),
  },
  {
    name: 'bounds.timezone-any-string',
    clauses: ['2.2/timezone-zone-name'],
    description: 'timezone accepts any string (Mars/Olympus, UTC+25, an empty string).',
    override: override(fieldRule, (next) => (field, v) => (field === 'timezone' && typeof v === 'string' ? null : next(field, v))),
  },
  {
    name: 'bounds.timezone-region-city-only',
    clauses: ['2.2/timezone-zone-name'],
    description: 'Over-blocking: only Region/City zone names are accepted, so UTC and three-part names such as America/Argentina/Buenos_Aires are refused.',
    override: override(fieldRule, (next) => (field, v) => {
      const problem = next(field, v);
      return field === 'timezone' && !problem && !/^[A-Za-z]+\/[A-Za-z_-]+$/.test(String(v)) ? 'must be a Region/City zone name' : problem;
    }),
  },
  {
    name: 'bounds.tool-ids-first-item-only',
    clauses: ['2.2/request-types'],
    description: 'Only the first item of toolIds is checked to be a uuid: [uuid, "not-a-uuid"] is accepted.',
    override: override(fieldRule, (next) => (field, v) => next(field, field === 'toolIds' && Array.isArray(v) ? v.slice(0, 1) : v)),
  },
  {
    name: 'bounds.plan-field-null-refused',
    clauses: ['2.4/plan-null-accepted'],
    description: 'null is accepted on a whole plan but refused on a field inside one (one of "every field", not all).',
    override: override(
      documentFieldRule,
      (next) => (state, path, rule, v) => (v === null && /Plan\.[^.]+$/.test(path) ? 'must not be null' : next(state, path, rule, v)),
    ),
  },
  {
    name: 'bounds.transfer-settings-unknown-key',
    clauses: ['2.5/unknown-key-rejected'],
    description: 'An unknown transferSettings key is accepted and stored (known keys are still type-checked).',
    override: override(transferSettingsKeyRule, (next) => (key, v) => ((TRANSFER_SETTINGS_KEYS as readonly string[]).includes(key) ? next(key, v) : null)),
  },
  {
    name: 'bounds.transfer-settings-string-values',
    clauses: ['2.5/known-keys'],
    description: 'transferSettings takes a string ("yes") for amd_detection and use_assistant_number instead of refusing a non-boolean.',
    override: override(
      transferSettingsKeyRule,
      (next) => (key, v) => ((TRANSFER_SETTINGS_KEYS as readonly string[]).includes(key) && typeof v === 'string' ? null : next(key, v)),
    ),
  },
  {
    name: 'bounds.language-name',
    clauses: ['2.6/language-name-rejected'],
    description: 'A dictionarySettings language given as a word of three or more letters (English) is accepted and stored as sent.',
    override: override(dictionaryLanguage, (next) => (v, index) => next(v, index) ?? (typeof v === 'string' && /^[A-Za-z]{3,}$/.test(v) ? { value: v } : null)),
  },
  {
    name: 'bounds.regional-locale-kept',
    clauses: ['2.6/regional-locale-base-code'],
    description: 'A regional locale (en-GB) is accepted but stored as sent instead of as its base code.',
    override: override(dictionaryLanguage, (next) => (v, index) => {
      const read = next(v, index);
      return read?.value && typeof v === 'string' && /[-_]/.test(v) ? { value: v } : read;
    }),
  },
  {
    name: 'bounds.language-first-item-only',
    clauses: ['2.6/language-name-rejected'],
    description: 'Only the first dictionary item has its language checked; a later one with a language name ("English") is stored.',
    override: override(dictionaryLanguage, (next) => (v, index) => (index > 0 ? { value: v } : next(v, index))),
  },
  {
    name: 'bounds.language-null-refused',
    clauses: ['2.6/language-null-or-omitted'],
    description: 'A dictionary item with language null is refused (null must mean "every call").',
    override: override(dictionaryLanguage, (next) => (v, index) => (v === null ? null : next(v, index))),
  },
  {
    name: 'bounds.keyterm-term-any-type',
    clauses: ['2.6/item-shapes'],
    description: 'An sttKeyterms item takes a non-string term (a number).',
    override: override(
      dictionaryItemRule,
      (next) => (list, item, index) => next(list, item, index).filter((p) => !(list === 'sttKeyterms' && item.term !== undefined && p.field === 'term')),
    ),
  },
  {
    name: 'bounds.pronunciation-neither',
    clauses: ['2.6/pronunciation-needs-phonemes-or-respell'],
    description: 'A ttsPronunciations item with neither phonemes nor respell is accepted.',
    override: override(
      dictionaryItemRule,
      (next) => (list, item, index) => next(list, item, index).filter((p) => !(list === 'ttsPronunciations' && p.field === '')),
    ),
  },
  {
    name: 'bounds.pronunciation-first-item-only',
    clauses: ['2.6/pronunciation-needs-phonemes-or-respell'],
    description: 'Only the first ttsPronunciations item must carry phonemes or respell; a later one with neither is accepted.',
    override: override(
      dictionaryItemRule,
      (next) => (list, item, index) => next(list, item, index).filter((p) => !(list === 'ttsPronunciations' && index > 0 && p.field === '')),
    ),
  },
]);
