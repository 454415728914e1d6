/**
 * The one redaction point: every key and secret the suite handles is registered here, and every
 * string that may reach a report, attachment, log line or failure message passes through
 * {@link redact}. Serves §5.4 ("keys are secrets") and the product rule that no secret is ever
 * written out.
 */

const secrets = new Map<string, string>();
/** The registered secrets, longest first, with their replacement text; rebuilt only when one is registered (redact runs on every exchange). */
let ordered: [value: string, replacement: string][] | null = null;
/** Length of the shortest registered secret: shorter text holds none. */
let shortest = Infinity;

/**
 * Registers a secret with a label shown in its place (e.g. "tenant key A").
 * Values shorter than 6 characters are ignored (too likely to match ordinary text).
 */
export function registerSecret(value: string | undefined | null, label: string): void {
  if (!value || value.length < 6) return;
  secrets.set(value, label);
  const trimmed = value.trim();
  if (trimmed !== value && trimmed.length >= 6) secrets.set(trimmed, label);
  ordered = null;
}

/** Replaces every registered secret (longest first) with `[REDACTED <label>]`. */
export function redact(text: string): string {
  if (!text || secrets.size === 0) return text;
  if (!ordered) {
    ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length).map(([value, label]) => [value, `[REDACTED ${label}]`]);
    shortest = ordered[ordered.length - 1][0].length;
  }
  if (text.length < shortest) return text;
  let out = text;
  for (const [value, replacement] of ordered) {
    if (out.includes(value)) out = out.split(value).join(replacement);
  }
  return out;
}

/** Deep-redacts a JSON-like value (strings replaced through {@link redact}); returns a copy. */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v);
    return out as T;
  }
  return value;
}

/** Header names whose values are always hidden, whatever they hold. */
export const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-service-core-secret']);

/** Redacts a header map: secret headers keep their scheme word only; other values pass through {@link redact}. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (SECRET_HEADERS.has(name.toLowerCase())) {
      const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
      out[name] = scheme ? `${scheme} [REDACTED]` : '[REDACTED]';
    } else {
      out[name] = redact(value);
    }
  }
  return out;
}
