/**
 * Collects every failing field of one request so a 400 VALIDATION_ERROR can list them all
 * (§4.1, §7: one `{field, message}` per invalid field). Typical use:
 *
 *     const c = new Checker();
 *     c.check('name', typeof body.name === 'string', 'must be a string');
 *     c.throwIfAny(); // throws ApiError 400 VALIDATION_ERROR with details
 */
import { validationError, type FieldError } from '../envelope.ts';

/** Accumulator of field errors; one entry per field (the first message for a field wins). */
export class Checker {
  readonly errors: FieldError[] = [];

  /** Records `message` for `field`, unless that field already has an error. */
  fail(field: string, message: string): void {
    if (this.errors.some((e) => e.field === field)) return;
    this.errors.push({ field, message });
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

  /** Throws ApiError 400 VALIDATION_ERROR listing every recorded field, if any. */
  throwIfAny(): void {
    if (this.errors.length) throw validationError(this.errors);
  }
}
