/**
 * The measures the assistant's field rules take (§2.2, §2.4, §8), one seam each with the spec's
 * reading as its default: the bound of a field, how an "integer or integer string" is read, how
 * long a text is, and which value of an enumeration a sent string names. A rule asks these seams
 * and states its refusal in the spec's own terms, so a fault that moves one end of one bound
 * (faults/bounds.ts) changes what is accepted without changing what the refusal says.
 */
import { seam } from '../seam.ts';
import { readIntegerLike } from './formats.ts';

/** Both ends of a bound, inclusive. For a text, `max` counts characters (§8). */
export interface Bound {
  min: number;
  max: number;
}

/**
 * The bounds §2.2, §2.4 and §8 state, by field: the integer fields, the two texts limited in
 * characters, and the §2.4 interruptionPlan fields (by `<plan>.<field>`).
 */
export const SPEC_BOUNDS = {
  callTimeLimitSeconds: { min: 10, max: 43200 },
  idleTimeoutSeconds: { min: 0, max: 60 },
  idleMessageMaxSpokenCount: { min: 0, max: 10 },
  transferDialTimeout: { min: 1, max: 60 },
  warmWhisperDelaySeconds: { min: 0, max: 30 },
  warmReturnMessage: { min: 0, max: 2000 },
  instructionsAppend: { min: 0, max: 2000 },
  'interruptionPlan.minDuration': { min: 0, max: 5 },
  'interruptionPlan.minWords': { min: 0, max: 10 },
} as const satisfies Record<string, Bound>;

/** A field with a bound of §2.2, §2.4 or §8. */
export type BoundedField = keyof typeof SPEC_BOUNDS;

/** The bounded fields whose value is "integer or integer string" (§2.2). */
export const INTEGER_FIELDS = [
  'callTimeLimitSeconds',
  'idleTimeoutSeconds',
  'idleMessageMaxSpokenCount',
  'transferDialTimeout',
  'warmWhisperDelaySeconds',
] as const;

/** A bounded field whose value is "integer or integer string" (§2.2). */
export type IntegerField = (typeof INTEGER_FIELDS)[number];

/**
 * §2.2, §2.4, §8: the bound that applies to the value `sent` for `field` (the spec states one
 * bound per field, whatever was sent).
 */
export const bound = seam('bounds.of-field', (field: BoundedField, _sent: unknown): Bound => SPEC_BOUNDS[field]);

/** §2.2: "integer or integer string": the number a value stands for, or null when it is neither. */
export const integerReading = seam('bounds.integer-reading', (v: unknown): number | null => readIntegerLike(v));

/** §8: the length of a text limited in characters (UTF-16 code units, which equal characters for the texts judged). */
export const textLength = seam('bounds.text-length', (_field: BoundedField, v: string): number => v.length);

/**
 * §2.2 transferMode, §2.4 deliveryMode and pace: the value of an enumerated field that `v` names,
 * or undefined when it names none. Values are matched exactly and case-sensitively.
 */
export const enumValue = seam('bounds.enum-value', (_field: string, v: unknown, allowed: readonly string[]): string | undefined =>
  typeof v === 'string' && allowed.includes(v) ? v : undefined,
);
