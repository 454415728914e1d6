/**
 * Faults of the detection-gap classes: each breaks one rule on one side of a
 * boundary, the way real implementations get it wrong. Registered in faults.ts with the others.
 * - Over-blocking and under-blocking at the edges of the §2.3 ranges.
 * - Addresses that reach the host itself without being written as loopback (0.0.0.0, ::).
 * - `timezone` as a zone name (§2.2): any string accepted, or real zones refused.
 * - Raw header bytes: a lenient parser that ends a header line at a bare LF or CR (§5.6).
 * - Both sides of every integer bound of §2.2 (refusing the bound itself, accepting past it), and
 *   type coercions a lenient reader makes ("true" for a boolean, 1 for a string, any string for a
 *   uuid, null for a non-nullable string).
 */
import type { FaultInfo } from './faults.ts';

/** Bound-edge faults: field → the bound each fault moves (read by model/assistant.ts). */
export const EDGE_FAULTS: Readonly<Record<string, { fault: string; min?: number; max?: number }[]>> = {
  callTimeLimitSeconds: [
    { fault: 'bounds.call-time-limit-refuses-10', min: 11 },
    { fault: 'bounds.call-time-limit-refuses-43200', max: 43199 },
  ],
  idleTimeoutSeconds: [
    { fault: 'bounds.idle-timeout-refuses-0', min: 1 },
    { fault: 'bounds.idle-timeout-refuses-60', max: 59 },
  ],
  idleMessageMaxSpokenCount: [
    { fault: 'bounds.idle-message-count-minus-1', min: -1 },
    { fault: 'bounds.idle-message-count-refuses-0', min: 1 },
    { fault: 'bounds.idle-message-count-refuses-10', max: 9 },
  ],
  transferDialTimeout: [
    { fault: 'bounds.transfer-dial-timeout-refuses-1', min: 2 },
    { fault: 'bounds.transfer-dial-timeout-refuses-60', max: 59 },
  ],
  warmWhisperDelaySeconds: [
    { fault: 'bounds.warm-whisper-minus-1', min: -1 },
    { fault: 'bounds.warm-whisper-refuses-0', min: 1 },
    { fault: 'bounds.warm-whisper-refuses-30', max: 29 },
  ],
};

/** Coercion faults: fault → the field it loosens (read by model/assistant.ts). */
export const COERCION_FAULTS: Readonly<Record<string, string>> = {
  'bounds.boolean-string-accepted': 'recordingEnabled',
  'bounds.number-for-string-accepted': 'firstMessage',
  'bounds.uuid-any-string': 'voiceId',
  'bounds.e164-without-plus': 'failoverNumber',
  'bounds.categories-non-strings': 'categories',
  'bounds.null-for-string-accepted': 'firstMessage',
  'bounds.boolean-number-accepted': 'csatFeedback',
};

/** The faults of this file. */
export const GAP_FAULTS: readonly FaultInfo[] = [
  {
    name: 'bounds.call-time-limit-refuses-10',
    clauses: ['2.2/call-time-limit-bounds'],
    description: "callTimeLimitSeconds refuses 10, its lower bound (over-blocking off by one).",
  },
  {
    name: 'bounds.call-time-limit-refuses-43200',
    clauses: ['2.2/call-time-limit-bounds'],
    description: "callTimeLimitSeconds refuses 43200, its upper bound (over-blocking off by one).",
  },
  {
    name: 'bounds.idle-timeout-refuses-0',
    clauses: ['2.2/idle-timeout-bounds'],
    description: "idleTimeoutSeconds refuses 0, its lower bound.",
  },
  {
    name: 'bounds.idle-timeout-refuses-60',
    clauses: ['2.2/idle-timeout-bounds'],
    description: "idleTimeoutSeconds refuses 60, its upper bound.",
  },
  {
    name: 'bounds.idle-message-count-minus-1',
    clauses: ['2.2/idle-message-max-spoken-count-bounds'],
    description: "idleMessageMaxSpokenCount accepts -1 (lower bound off by one).",
  },
  {
    name: 'bounds.idle-message-count-refuses-0',
    clauses: ['2.2/idle-message-max-spoken-count-bounds'],
    description: "idleMessageMaxSpokenCount refuses 0, its lower bound.",
  },
  {
    name: 'bounds.idle-message-count-refuses-10',
    clauses: ['2.2/idle-message-max-spoken-count-bounds'],
    description: "idleMessageMaxSpokenCount refuses 10, its upper bound.",
  },
  {
    name: 'bounds.transfer-dial-timeout-refuses-1',
    clauses: ['2.2/transfer-dial-timeout-bounds'],
    description: "transferDialTimeout refuses 1, its lower bound.",
  },
  {
    name: 'bounds.transfer-dial-timeout-refuses-60',
    clauses: ['2.2/transfer-dial-timeout-bounds'],
    description: "transferDialTimeout refuses 60, its upper bound.",
  },
  {
    name: 'bounds.warm-whisper-minus-1',
    clauses: ['2.2/warm-whisper-delay-bounds'],
    description: "warmWhisperDelaySeconds accepts -1 (lower bound off by one).",
  },
  {
    name: 'bounds.warm-whisper-refuses-0',
    clauses: ['2.2/warm-whisper-delay-bounds'],
    description: "warmWhisperDelaySeconds refuses 0, its lower bound.",
  },
  {
    name: 'bounds.warm-whisper-refuses-30',
    clauses: ['2.2/warm-whisper-delay-bounds'],
    description: "warmWhisperDelaySeconds refuses 30, its upper bound.",
  },
  {
    name: 'bounds.boolean-string-accepted',
    clauses: ['2.2/request-types'],
    description: "the string \"true\" is accepted for the boolean recordingEnabled (coercion).",
  },
  {
    name: 'bounds.number-for-string-accepted',
    clauses: ['2.2/request-types'],
    description: "a number is accepted for the string firstMessage (coercion).",
  },
  {
    name: 'bounds.uuid-any-string',
    clauses: ['2.2/request-types', '2.2/uuid-fields'],
    description: "voiceId accepts any string, not only a uuid.",
  },
  {
    name: 'bounds.e164-without-plus',
    clauses: ['2.2/request-types', '2.2/e164-failover-number'],
    description: "failoverNumber accepts a number without the leading + of E.164.",
  },
  {
    name: 'bounds.categories-non-strings',
    clauses: ['2.2/request-types'],
    description: "categories accepts an array with non-string items.",
  },
  {
    name: 'bounds.null-for-string-accepted',
    clauses: ['2.2/request-types'],
    description: "null is accepted for firstMessage, whose request type is a string (not \"or null\").",
  },
  {
    name: 'bounds.boolean-number-accepted',
    clauses: ['2.2/request-types'],
    description: "the number 1 is accepted for the boolean csatFeedback (coercion).",
  },
  {
    name: 'bounds.timezone-any-string',
    clauses: ['2.2/timezone-zone-name'],
    description: 'timezone accepts any string (Mars/Olympus, UTC+25, an empty string).',
  },
  {
    name: 'bounds.timezone-region-city-only',
    clauses: ['2.2/timezone-zone-name'],
    description: 'Over-blocking: only Region/City zone names are accepted, so UTC and three-part names such as America/Argentina/Buenos_Aires are refused.',
  },
];
