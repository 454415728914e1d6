/**
 * Collects every failing field of one request so a 400 VALIDATION_ERROR can list them all
 * (§4.1, §7: one `{field, message}` per invalid field). Typical use:
 *
 *     const c = new Checker();
 *     c.check('name', typeof body.name === 'string', 'must be a string');
 *     c.throwIfAny(); // throws ApiError 400 VALIDATION_ERROR with details
 */
import { validationError, type FieldError } from '../envelope.ts';
import { seam } from '../seam.ts';

/**
 * §4.1, §7: how a field that fails a rule of several accepted forms ("integer or integer
 * string") is listed: once, with one message naming the forms (`whole`); `branches` are the
 * forms' own messages.
 */
export const unionRefusal = seam('validation.union-refusal', (field: string, _branches: readonly string[], whole: string): FieldError[] => [
  { field, message: whole },
]);

/** §4.1, §7: the details of a 400 VALIDATION_ERROR: one `{field, message}` per invalid field. */
export const validationDetails = seam('validation.details', (details: readonly FieldError[]): FieldError[] => [...details]);

/** Accumulator of field errors; one entry per field (the first message for a field wins). */
export class Checker {
  readonly errors: FieldError[] = [];

  /** Records `message` for `field`, unless that field already has an error. */
  fail(field: string, message: string): void {
    if (this.errors.some((e) => e.field === field)) return;
    this.errors.push({ field, message });
  }

  /** Records the entries of one failing field, unless that field already has an error. */
  failWith(entries: readonly FieldError[]): void {
    if (entries.length === 0 || this.errors.some((e) => e.field === entries[0].field)) return;
    this.errors.push(...entries);
  }

  /** Records a failure when `ok` is false; returns `ok`. */
  check(field: string, ok: boolean, message: string): boolean {
    if (!ok) this.fail(field, message);
    return ok;
  }

  /** True when nothing failed. */
  get ok(): boolean {
    return this.errors.length === 0;
  }

  /**
   * Throws ApiError 400 VALIDATION_ERROR listing every recorded field, if any; `details` forms the
   * list (the seam {@link validationDetails} in force, when the caller has one).
   */
  throwIfAny(details: (errors: readonly FieldError[]) => FieldError[] = (e) => [...e]): void {
    if (this.errors.length) throw validationError(details(this.errors));
  }
}
