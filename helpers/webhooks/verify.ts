/**
 * Webhook verification for integrators (§6). A small, dependency-free module you may copy into your
 * own server: it verifies both delivery models exactly as the conformance suite does (the suite runs
 * this very file against every target, and test/unit/webhook-verify.test.ts runs it on the vectors
 * in test/vectors/webhook-signatures.json).
 *
 * - Model A (§6, "Model A", rule 1–2): `x-service-core-secret` carries the client server secret
 *   verbatim; compare it with your stored value in constant time.
 * - Model B (§6, "Model B", rule 1–2): `X-Service-Signature: sha256=<hex>` is HMAC-SHA256 of the RAW
 *   request body bytes keyed by the client server secret. Verify those bytes before any JSON parsing;
 *   a re-serialised or reformatted body no longer matches. `X-Service-Delivery: <uuid>` is the
 *   delivery id to deduplicate on (see dedupe.ts).
 *
 * Readings taken (recorded in spec/clauses/webhooks.json):
 * - Header names are matched case-insensitively (HTTP header names are case-insensitive).
 * - The prefix is the literal `sha256=` as the spec shows it; `SHA256=` or a missing prefix is refused
 *   (`wrong-prefix`).
 * - Hex digits are accepted in either case: the spec shows `<hex>` without a case and hex case
 *   carries no meaning, so a receiver that refuses uppercase would only lose events. The suite
 *   therefore never fails a sender for its hex case.
 * - An empty header value counts as a missing header.
 *
 * Nothing here logs, and failure messages never contain the secret or the received secret header.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Header names of §6 (lower case; lookups are case-insensitive). */
export const HEADER_SECRET = 'x-service-core-secret';
/** Model B signature header (§6 Model B rule 1): `sha256=<64 hex digits>`. */
export const HEADER_SIGNATURE = 'x-service-signature';
/** Model B delivery id header (§6 Model B rule 1): a UUID, the same on every retry. */
export const HEADER_DELIVERY = 'x-service-delivery';
/** The literal signature prefix of §6 Model B rule 1. */
export const SIGNATURE_PREFIX = 'sha256=';

/** Why a delivery failed verification. */
export type VerifyFailureReason =
  /** the header is absent or empty */
  | 'missing-header'
  /** model B: the value does not start with the literal `sha256=` */
  | 'wrong-prefix'
  /** model B: after the prefix, a character that is not a hex digit */
  | 'bad-hex'
  /** model B: the hex is not 64 digits (32 bytes), e.g. truncated */
  | 'length'
  /** well-formed but not equal to the expected value (wrong secret, altered or re-serialised body) */
  | 'mismatch';

/**
 * Outcome of a verification: `{ ok: true }`, or `{ ok: false, reason, message }` where `message` is
 * a human-readable sentence free of secrets. Reject the request on `ok: false` with a status of your
 * choice (§6 Model A rule 2).
 */
export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailureReason; message: string };

/**
 * Request headers in any of the usual shapes: Node's `IncomingHttpHeaders` (lower-case keys,
 * string or string[] values), a plain object with any key case, or a Fetch `Headers` object.
 */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | number | undefined>;

/**
 * Reads one header case-insensitively. Repeated headers (arrays) are joined with `, ` as HTTP does,
 * which then fails verification rather than picking one value silently.
 * @returns the value, or undefined when absent.
 */
export function getHeader(headers: HeaderSource, name: string): string | undefined {
  const wanted = name.toLowerCase();
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const v = (headers as { get(n: string): string | null }).get(wanted);
    return v === null ? undefined : v;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }
  return undefined;
}

function fail(reason: VerifyFailureReason, message: string): VerifyResult {
  return { ok: false, reason, message };
}

/** Constant-time equality of two strings of any length (both hashed to 32 bytes first). */
function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

/**
 * Verifies a model A delivery (§6 Model A rules 1–2): `x-service-core-secret` must equal the client
 * server secret verbatim (byte for byte, case-sensitive). The comparison is constant-time and does not
 * reveal the length of either value.
 * @param headers the request headers (any shape of {@link HeaderSource})
 * @param secret the client server secret of the tenant (from the dashboard, §5.5)
 * @returns `{ ok: true }` or a failure with reason `missing-header` or `mismatch`. Never throws.
 */
export function verifyModelA(headers: HeaderSource, secret: string): VerifyResult {
  const got = getHeader(headers, HEADER_SECRET);
  if (got === undefined || got === '') return fail('missing-header', `the ${HEADER_SECRET} header is missing or empty`);
  if (!sameSecret(got, secret)) return fail('mismatch', `the ${HEADER_SECRET} header does not equal the client server secret`);
  return { ok: true };
}

/**
 * The model B signature header value for a body: `sha256=` followed by the lower-case hex
 * HMAC-SHA256 of the exact bytes, keyed by the client server secret (§6 Model B rule 1).
 * @param rawBody the body bytes exactly as sent (a string is taken as its UTF-8 bytes)
 * @param secret the client server secret
 */
export function signModelB(rawBody: Uint8Array | string, secret: string): string {
  const bytes = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return SIGNATURE_PREFIX + createHmac('sha256', secret).update(bytes).digest('hex');
}

/**
 * Verifies a model B delivery (§6 Model B rules 1–2) on the RAW body bytes, before any JSON
 * parsing: `X-Service-Signature` must be `sha256=` plus the hex HMAC-SHA256 of those bytes keyed by
 * the client server secret. Compared in constant time (`crypto.timingSafeEqual`). Hex digits may be
 * upper or lower case. Host and URL play no part, so it holds behind a tunnel (rule 4).
 * @param rawBody the body bytes exactly as received (Buffer/Uint8Array). Pass a string only if it is
 *   the untouched raw text; never `JSON.stringify(parsedBody)` — re-serialising changes the bytes.
 * @param headers the request headers (any shape of {@link HeaderSource})
 * @param secret the client server secret of the tenant
 * @returns `{ ok: true }` or a failure with reason `missing-header`, `wrong-prefix`, `bad-hex`,
 *   `length` or `mismatch`. Never throws.
 */
export function verifyModelB(rawBody: Uint8Array | string, headers: HeaderSource, secret: string): VerifyResult {
  const value = getHeader(headers, HEADER_SIGNATURE)?.trim();
  if (value === undefined || value === '') return fail('missing-header', `the ${HEADER_SIGNATURE} header is missing or empty`);
  if (!value.startsWith(SIGNATURE_PREFIX)) return fail('wrong-prefix', `the ${HEADER_SIGNATURE} value does not start with "${SIGNATURE_PREFIX}"`);
  const hex = value.slice(SIGNATURE_PREFIX.length);
  if (!/^[0-9a-fA-F]*$/.test(hex)) return fail('bad-hex', `the ${HEADER_SIGNATURE} value after "${SIGNATURE_PREFIX}" is not hexadecimal`);
  if (hex.length !== 64) return fail('length', `the ${HEADER_SIGNATURE} digest has ${hex.length} hex digits; HMAC-SHA256 has 64`);
  const bytes = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const expected = createHmac('sha256', secret).update(bytes).digest();
  const received = Buffer.from(hex, 'hex');
  if (!timingSafeEqual(expected, received)) {
    return fail('mismatch', `the ${HEADER_SIGNATURE} digest does not match the HMAC-SHA256 of the raw body under the client server secret`);
  }
  return { ok: true };
}

/** RFC 4122 / RFC 9562 textual UUID (any version, either case). */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The model B delivery id (§6 Model B rule 1) — the key to deduplicate on (rule 3).
 * @returns the trimmed `X-Service-Delivery` value, or undefined when absent or empty.
 */
export function deliveryIdOf(headers: HeaderSource): string | undefined {
  const v = getHeader(headers, HEADER_DELIVERY)?.trim();
  return v ? v : undefined;
}
