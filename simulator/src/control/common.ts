/**
 * Helpers for control endpoints (control-api.md): plain JSON, no envelope, errors
 * `{ "error": "<text>" }` with 400 or 404. Throw `ControlError` from a control handler.
 */
import { isPlainObject } from '../validation/formats.ts';

/** An error answered as `{ error: message }` with `status` by the control error handler. */
export class ControlError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

/** The request body as an object; `{}` when absent. Throws ControlError 400 for any other JSON. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isPlainObject(body)) throw new ControlError(400, 'body must be a JSON object');
  return body;
}

/** A required non-empty string field. Throws ControlError 400 naming the field. */
export function requiredString(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || v === '') throw new ControlError(400, `${key} is required (string)`);
  return v;
}

/** An optional string field (undefined when absent or null). Throws ControlError 400 for a non-string. */
export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ControlError(400, `${key} must be a string`);
  return v;
}

/** An optional boolean field with a default. Throws ControlError 400 for a non-boolean. */
export function optionalBoolean(body: Record<string, unknown>, key: string, dflt: boolean): boolean {
  const v = body[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'boolean') throw new ControlError(400, `${key} must be a boolean`);
  return v;
}
