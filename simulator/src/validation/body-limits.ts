/**
 * Limits on request bodies, so that no input can make the simulator answer 500 or store what it
 * cannot serve back (the spec states none of these; they are the simulator's documented choices,
 * simulator/README.md "Input limits"):
 *
 * - nesting depth of objects and arrays: at most {@link MAX_DEPTH} (deeper → 400 VALIDATION_ERROR);
 * - any string (value or key): at most {@link MAX_STRING} characters (longer → 400 VALIDATION_ERROR);
 * - numbers: finite only (`1e400` parses to Infinity, which JSON cannot carry back → 400);
 * - keys `__proto__`, `constructor`, `prototype`: refused with 400 VALIDATION_ERROR (they would
 *   reach object merges as special names); never dropped in silence;
 * - body size: at most {@link MAX_BODY_BYTES} bytes, answered 413 PAYLOAD_TOO_LARGE after the
 *   body has been read (up to {@link READ_LIMIT_BYTES}), so the client sees the answer, not a reset.
 *
 * Both are seams (seam.ts), so §7 "no 5xx on any input" can be shown to depend on them.
 */
import { seam } from '../seam.ts';

/** Deepest nesting of objects and arrays a body may have (the body itself is depth 1). */
export const MAX_DEPTH = 32;
/** Longest string (value or key), in characters. */
export const MAX_STRING = 100_000;
/** Largest accepted body, in bytes (1 MiB). */
export const MAX_BODY_BYTES = 1_048_576;
/** Bodies up to this size are read before the 413 (64 MiB); larger ones are cut off by Fastify. */
export const READ_LIMIT_BYTES = 64 * 1_048_576;
/** Keys refused anywhere in a body. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** One problem of a body: the JSON path of the offending value (`settings.x.y`) and why. */
export interface BodyProblem {
  field: string;
  message: string;
}

/**
 * The first limit a parsed body breaks, or null. Iterative (an explicit stack), so a body nested
 * far past {@link MAX_DEPTH} cannot overflow the call stack while it is checked.
 */
function bodyProblem(value: unknown): BodyProblem | null {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: '', depth: 1 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    const at = path || 'body';
    if (typeof v === 'string') {
      if (v.length > MAX_STRING) return { field: at, message: `must be at most ${MAX_STRING} characters` };
      continue;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { field: at, message: 'must be a finite number' };
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (depth > MAX_DEPTH) return { field: at, message: `is nested deeper than ${MAX_DEPTH} levels` };
    if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push({ v: x, path: `${path}[${i}]`, depth: depth + 1 }));
      continue;
    }
    for (const k of Object.keys(v)) {
      const p = path ? `${path}.${k}` : k;
      if (RESERVED_KEYS.has(k)) return { field: p, message: `the key ${k} is not accepted` };
      if (k.length > MAX_STRING) return { field: `${path || 'body'} key`, message: `keys must be at most ${MAX_STRING} characters` };
      stack.push({ v: (v as Record<string, unknown>)[k], path: p, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * §7 (no server error on any input): the limit a parsed body breaks, or null: {@link bodyProblem}.
 * Read by the body parser for every public request body.
 */
export const bodyLimits = seam('body.limits', (parsed: unknown): BodyProblem | null => bodyProblem(parsed));

/**
 * §7 (no server error on any input): when a body over {@link MAX_BODY_BYTES} is answered 413:
 * `after-body`, once it has been read, so the client sees the answer; `from-content-length`, from
 * the announced size alone, before the body is read, closing the connection.
 */
export const oversizeBodyAnswer = seam('body.oversize-answer', (): 'after-body' | 'from-content-length' => 'after-body');
