/**
 * The one redaction point: every key and secret the suite handles is registered here, and every
 * string that may reach a report, attachment, log line or failure message passes through
 * {@link redact}. Serves §5.4 ("keys are secrets") and the product rule that no secret is ever
 * written out.
 */

const secrets = new Map<string, string>();
/** The registered secrets, longest first, with their replacement text; rebuilt only when one is registered (redact runs on every exchange). */
let ordered: [value: string, replacement: string, prefix: string][] | null = null;
/** Length of the shortest registered secret: shorter text holds none. */
let shortest = Infinity;
/** Characters of a secret's start that text must hold before the secret is looked for in it. */
const PREFIX = 4;
/** The distinct starts ({@link PREFIX} characters) of the registered secrets: keys of one target share a few (`sk_t`, `sk_o`, `css_`). */
let prefixes: string[] = [];

/**
 * Registers a secret with a label shown in its place (e.g. "tenant key A").
 * Values shorter than 6 characters are ignored (too likely to match ordinary text).
 */
export function registerSecret(value: string | undefined | null, label: string): void {
  if (!value || value.length < 6) return;
  const trimmed = value.trim();
  const values = trimmed !== value && trimmed.length >= 6 ? [value, trimmed] : [value];
  // A client is made for every principal a test asks for, each registering its key again: re-sort only when something is new.
  if (values.every((v) => secrets.get(v) === label)) return;
  for (const v of values) secrets.set(v, label);
  ordered = null;
}

/** The registered secrets, longest first, with their replacement text (sorted once per registration). */
function orderedSecrets(): [value: string, replacement: string, prefix: string][] {
  if (!ordered) {
    ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length).map(([value, label]) => [value, `[REDACTED ${label}]`, value.slice(0, PREFIX)]);
    shortest = ordered.length ? ordered[ordered.length - 1][0].length : Infinity;
    prefixes = [...new Set(ordered.map(([, , prefix]) => prefix))];
  }
  return ordered;
}

/**
 * Registers the credentials a URL carries (`label` names the URL, e.g. "CORE_API_EVENT_TRIGGER"):
 * its user name and password, and the value of every query parameter, since a hook URL often holds
 * its token there (`?token=…`). Not a URL: nothing is registered. Values shorter than 6 characters
 * are ignored, as by {@link registerSecret}.
 */
export function registerUrlCredentials(url: string | undefined, label: string): void {
  let u: URL;
  try {
    u = new URL(url ?? '');
  } catch {
    return;
  }
  registerSecret(decodeURIComponent(u.username), `${label} user`);
  registerSecret(decodeURIComponent(u.password), `${label} password`);
  for (const [name, value] of u.searchParams) registerSecret(value, `${label} ${name}`);
}

/**
 * Replaces every registered secret (longest first) with `[REDACTED <label>]`. Only secrets whose
 * first {@link PREFIX} characters occur in `text` are looked for (issue 43: a worker holds the keys
 * of every world it made, hundreds, and every exchange's bodies and headers pass through here).
 */
export function redact(text: string): string {
  if (!text || secrets.size === 0) return text;
  const list = orderedSecrets();
  if (text.length < shortest) return text;
  const present = new Set(prefixes.filter((p) => text.includes(p)));
  if (present.size === 0) return text;
  let out = text;
  for (const [value, replacement, prefix] of list) {
    if (present.has(prefix) && out.includes(value)) out = out.split(value).join(replacement);
  }
  return out;
}

/**
 * `text` redacted and cut after its first `max` characters, with `… (N characters)` (N: the
 * length of `text`) when it was longer. A secret that runs across the cut is kept whole, so it is
 * redacted whole and no part of it is left; only what is kept is redacted, so a body of megabytes
 * costs what its first `max` characters cost.
 */
export function redactCut(text: string, max: number): string {
  if (text.length <= max) return redact(text);
  let end = max;
  const list = orderedSecrets();
  const longest = list.length ? list[0][0].length : 0;
  for (let moved = true; moved;) {
    moved = false;
    // Only a secret whose start lies within its length of the cut can run across it.
    const around = text.slice(Math.max(0, end - longest + 1), end + longest - 1);
    const present = new Set(prefixes.filter((p) => around.includes(p)));
    for (const [value, , prefix] of list) {
      if (!present.has(prefix)) continue;
      // The occurrences of `value` that start before `end` and end after it lie in this window.
      const from = Math.max(0, end - value.length + 1);
      const window = text.slice(from, end + value.length - 1);
      for (let i = window.indexOf(value); i !== -1 && from + i < end; i = window.indexOf(value, i + 1)) {
        if (from + i + value.length <= end) continue;
        end = from + i + value.length;
        moved = true;
      }
    }
  }
  return `${redact(text.slice(0, end))}… (${text.length} characters)`;
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
